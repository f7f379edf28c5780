//===--- Process.h - Child processes for libtorch-tidy verify ---*- C++ -*-===//
//
// Part of libtorch-tidy. SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//
//
// Runs a command in its own process group with a time limit, its output
// captured to a file, and kills the whole group (the command and every child
// it started) on timeout or when the harness itself is interrupted.
// Children that leave the group (setsid(), setpgid()) are found too: the
// harness is a child subreaper (PR_SET_CHILD_SUBREAPER), so every orphan of
// the command becomes its child, and after each run it kills, reaps and
// names every process left below it.
//
//===----------------------------------------------------------------------===//

#ifndef LIBTORCH_TIDY_RUNTIME_VERIFY_HARNESS_PROCESS_H
#define LIBTORCH_TIDY_RUNTIME_VERIFY_HARNESS_PROCESS_H

#include <functional>
#include <map>
#include <string>
#include <vector>

namespace libtorch_tidy::verify {

struct ProcessResult {
  bool Started = false; ///< exec succeeded
  std::string StartError;
  int ExitCode = -1;         ///< when it exited
  int Signal = 0;            ///< when a signal ended it
  bool TimedOut = false;     ///< killed by us after the time limit
  bool LeftChildren = false; ///< processes of it were left when it ended
  /// The names (/proc/PID/comm) of the processes it left running, which
  /// were killed: members of its group and descendants that left the group.
  std::vector<std::string> Leftovers;
  double WallSeconds = 0;
  bool ok() const {
    return Started && !TimedOut && Signal == 0 && ExitCode == 0;
  }
  /// "exit 0", "killed by signal 11 (Segmentation fault)", "timed out after 5
  /// s"...
  std::string describe(double TimeoutSeconds) const;
};

struct ProcessSpec {
  std::vector<std::string> Argv;
  std::string WorkDir;                       ///< empty: the harness's
  std::map<std::string, std::string> SetEnv; ///< added to the environment
  std::string OutputFile;                    ///< stdout and stderr go here
  double TimeoutSeconds = 0;                 ///< 0: no limit
};

/// Called about every 100 ms while the child runs, with the seconds since it
/// started and the child's process group id.
using Tick = std::function<void(double Seconds, int ProcessGroup)>;

ProcessResult runProcess(const ProcessSpec &Spec, const Tick &OnTick = {});

/// Leaves \p Pid, a child of the harness's own (the watchdog), out of the
/// processes killed after each command.
void keepRunning(int Pid);

/// Installs SIGINT/SIGTERM/SIGHUP handlers that kill the running child's group
/// and then run Cleanup, so an interrupted harness leaves nothing behind.
void installInterruptCleanup(std::function<void()> Cleanup);

/// CPU seconds (user + system) used so far by the members of a process
/// group, from /proc; -1 when none is left.
double groupCpuSeconds(int ProcessGroup);

/// The whole content of \p Path; empty when it cannot be read.
std::string readFile(const std::string &Path);

/// The last MaxBytes of a file, for error reports.
std::string fileTail(const std::string &Path, size_t MaxBytes);

} // namespace libtorch_tidy::verify

#endif
