//===--- WorkerProcess.h - Start, stop and reap workers ---------*- C++ -*-===//
//
// Part of libtorch-tidy. SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//
//
// The process side of the worker pool (Workers.h), so that no signal and no
// dead parent leaves a worker running:
//
// - The parent starts each worker in a process group of its own and, while
//   workers run, catches SIGINT, SIGTERM and SIGHUP: it forwards the signal
//   to every worker's group, waits for them, removes their temporary files
//   and then dies of the same signal (exit status 128+N, as shells report).
// - A worker asks the kernel for SIGTERM when its parent dies
//   (PR_SET_PDEATHSIG), then removes its temporary files, and stops itself
//   with SIGALRM one second after the unit timeout the parent enforces, so
//   a worker whose parent is stopped or killed still ends.
//
//===----------------------------------------------------------------------===//

#ifndef LIBTORCH_TIDY_DRIVER_RUN_WORKERPROCESS_H
#define LIBTORCH_TIDY_DRIVER_RUN_WORKERPROCESS_H

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/StringRef.h"
#include <memory>
#include <string>
#include <sys/types.h>

namespace libtorch_tidy::run {

/// How a worker ended.
struct WorkerExit {
  int ExitCode = -1;        ///< when it exited
  int Signal = 0;           ///< when a signal ended it
  bool SelfTimeout = false; ///< it stopped itself at its own timeout
  bool CoreDumped = false;
};

/// Workers of one run. While an instance lives, SIGINT, SIGTERM and SIGHUP
/// (unless inherited ignored) are forwarded to the process groups of its
/// workers and recorded; the
/// loop that waits for them asks interrupted() and ends with dieOfSignal().
/// A second signal does not wait for that loop: the workers get SIGKILL and
/// the process dies at once. One instance at a time.
class WorkerProcesses {
public:
  /// Room for \p MaxWorkers at once.
  explicit WorkerProcesses(unsigned MaxWorkers);
  ~WorkerProcesses();
  WorkerProcesses(const WorkerProcesses &) = delete;
  WorkerProcesses &operator=(const WorkerProcesses &) = delete;

  /// Starts \p Argv (Argv[0] an absolute path) in a new process group,
  /// stdin and stdout on /dev/null, stderr into \p StderrPath. Returns its
  /// pid, or -1 with \p Error set.
  pid_t start(llvm::ArrayRef<std::string> Argv, llvm::StringRef StderrPath,
              std::string &Error);

  /// Whether worker \p Pid has ended (waiting for it when \p Block); then
  /// \p Exit says how, and the pid is no longer signalled.
  bool reap(pid_t Pid, bool Block, WorkerExit &Exit);

  /// Sends \p Signal to the process group of worker \p Pid.
  static void signalGroup(pid_t Pid, int Signal);

  /// The signal that interrupted this run, 0 while none did.
  int interrupted() const;

  /// Restores the signal handlers and dies of the signal that interrupted
  /// the run (call after the workers are reaped and the files removed).
  [[noreturn]] void dieOfSignal();

private:
  struct Slots;
  std::unique_ptr<Slots> Active;
};

/// First thing in main(), before LLVM installs its signal handlers: notes
/// which of SIGINT, SIGTERM and SIGHUP this process inherited ignored (a
/// shell starts background jobs with SIGINT ignored); WorkerProcesses keeps
/// those ignored instead of catching them.
void noteInheritedSignals();

/// In worker mode, first thing: dies with the parent (PR_SET_PDEATHSIG,
/// removing \p OutputPath, \p SummaryPath (may be empty) and the stderr
/// file the parent made) and stops
/// itself with SIGALRM one second after \p TimeoutSeconds (0: no limit).
/// Does nothing for a worker not started by WorkerProcesses::start.
void guardWorker(llvm::StringRef OutputPath, llvm::StringRef SummaryPath,
                 unsigned TimeoutSeconds);

} // namespace libtorch_tidy::run

#endif // LIBTORCH_TIDY_DRIVER_RUN_WORKERPROCESS_H
