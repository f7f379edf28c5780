//===--- Watchdog.h - Cleanup that outlives a killed harness ----*- C++ -*-===//
//
// Part of libtorch-tidy. SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//
//
// A SIGKILL of the harness runs none of its cleanup: the measured program,
// the children it moved out of its group (setsid) and the scratch copy would
// stay. So the harness starts a watchdog first, a copy of itself that waits
// for the harness's end on a pipe: when the pipe closes without a "done",
// the harness died, and the watchdog kills every process that carries the
// harness's run token in its environment (set before any child is started,
// inherited by every descendant, setsid or not) and removes the scratch
// directories it was told of.
//
// The scratch directories also name their owner (an `owner` file: pid and
// start time), so that a later verify removes those whose owner is gone
// even where no watchdog could run (the machine went down).
//
//===----------------------------------------------------------------------===//

#ifndef LIBTORCH_TIDY_RUNTIME_VERIFY_HARNESS_WATCHDOG_H
#define LIBTORCH_TIDY_RUNTIME_VERIFY_HARNESS_WATCHDOG_H

#include <string>
#include <vector>

namespace libtorch_tidy::verify {

/// The environment variable that marks every process of one harness.
constexpr const char *RunTokenVariable = "LIBTORCH_TIDY_VERIFY_RUN";
/// The first argument that makes libtorch-tidy-verify a watchdog.
constexpr const char *WatchdogArgument = "--internal-watchdog";

class Watchdog {
public:
  /// Starts the watchdog and sets the run token in this process's
  /// environment. False (and no watchdog) when it cannot start: the harness
  /// then runs without one, as before.
  bool start();
  /// Removes \p Dir too if the harness dies.
  void watchDirectory(const std::string &Dir);
  /// The harness ends normally: the watchdog exits without doing anything.
  void disarm();

private:
  int Pipe = -1;
};

/// The watchdog's main: reads \p Fd until it closes; see the file comment.
int watchdogMain(int Fd, const std::string &Token);

/// Writes <Dir>/owner naming this process (pid and start time).
void markOwner(const std::string &Dir);

/// Removes the libtorch-tidy-verify-* directories in \p TempDir whose
/// owner process is gone; returns their paths.
std::vector<std::string> removeOrphanedScratch(const std::string &TempDir);

/// The kernel's start time of a process (/proc/<pid>/stat, field 22), or
/// an empty string when it does not exist.
std::string processStartTime(int Pid);

} // namespace libtorch_tidy::verify

#endif
