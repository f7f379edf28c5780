//===--- Workers.cpp - Analyze units in worker processes ------------------===//
//
// Part of libtorch-tidy. SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

#include "run/Workers.h"
#include "io/FileIO.h"
#include "run/WorkerProcess.h"
#include "worker/WorkerProtocol.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/Signals.h"
#include "llvm/Support/raw_ostream.h"
#include <chrono>
#include <csignal>
#include <cstring>
#include <limits>
#include <thread>

using namespace llvm;

namespace libtorch_tidy::run {
namespace {

using Clock = std::chrono::steady_clock;

struct Running {
  size_t Index;
  pid_t Pid = -1;
  Clock::time_point Started;
  SmallString<128> OutputPath;
  SmallString<128> StderrPath;
  /// WorkerPool::SummaryText's copy; empty for none.
  SmallString<128> SummaryPath;
};

/// What a worker left in \p Path; nothing when it wrote nothing there.
std::string readOutput(StringRef Path) {
  std::string Ignored;
  return io::readRegularFile(Path.str(), std::numeric_limits<size_t>::max(),
                             "worker output", Ignored)
      .value_or(std::string());
}

/// The last non-empty line of a worker's stderr: for a crash, LLVM's stack
/// dump ends with frames, so prefer the "Stack dump" context line if any.
/// The line of a failed worker's stderr that says why it failed: an LLVM
/// error, a failed assertion, an uncaught exception, a compiler error; else
/// the last line before the stack dump (not a frame of it).
std::string causeOfFailure(StringRef Text) {
  SmallVector<StringRef, 16> Lines;
  Text.split(Lines, '\n', -1, /*KeepEmpty=*/false);
  for (StringRef Line : Lines)
    if (Line.contains("LLVM ERROR") || Line.contains("Assertion") ||
        Line.contains("terminate called") || Line.contains("what():") ||
        Line.contains("error:"))
      return Line.trim().str();
  StringRef Cause;
  for (StringRef Line : Lines) {
    if (Line.starts_with("Stack dump:") || Line.starts_with("PLEASE submit") ||
        Line.ltrim().starts_with("#0 "))
      break;
    Cause = Line;
  }
  return Cause.trim().str();
}

/// \p Text without the lines ClangTool prints per unit.
std::string withoutClangNoise(StringRef Text) {
  std::string Kept;
  SmallVector<StringRef, 16> Lines;
  Text.split(Lines, '\n', -1, /*KeepEmpty=*/false);
  for (StringRef Line : Lines) {
    if (Line.ends_with(" generated.") ||
        Line.starts_with("Error while processing"))
      continue;
    Kept += Line.str() + "\n";
  }
  return Kept;
}

cache::WorkerResult failed(StringRef Unit, const std::string &Why) {
  cache::WorkerResult R;
  R.Unit.MainFile = Unit.str();
  R.Unit.State = model::TranslationUnitResult::Status::Failed;
  R.Unit.FailureMessage = Why;
  return R;
}

/// Removes a worker's temporary files: the two the parent made and, for a
/// worker that was \p Killed, what its atomic write of the output may have
/// left.
void removeTemporaries(const Running &W, bool Killed = false) {
  for (StringRef Path : {StringRef(W.OutputPath), StringRef(W.StderrPath),
                         StringRef(W.SummaryPath)}) {
    if (Path.empty())
      continue;
    sys::fs::remove(Path);
    sys::DontRemoveFileOnSignal(Path);
  }
  if (!Killed)
    return;
  std::error_code EC;
  const std::string Partial = io::temporaryPrefix(std::string(W.OutputPath));
  for (sys::fs::directory_iterator It(sys::path::parent_path(W.OutputPath), EC),
       End;
       !EC && It != End; It.increment(EC))
    if (sys::path::filename(It->path()).starts_with(Partial))
      sys::fs::remove(It->path());
}

cache::WorkerResult collect(StringRef Unit, Running &W, const WorkerExit &Exit,
                            bool TimedOut, unsigned Timeout) {
  std::string Stderr = readOutput(W.StderrPath);
  std::string Output = readOutput(W.OutputPath);
  removeTemporaries(W, TimedOut || Exit.Signal != 0);
  if (TimedOut || Exit.SelfTimeout)
    return failed(Unit, "analysis did not finish within " +
                            std::to_string(Timeout) +
                            " s and was stopped (raise --unit-timeout)");
  if (Exit.ExitCode != 0) {
    std::string Why = Exit.Signal != 0
                          ? "the analysis crashed (" +
                                std::string(strsignal(Exit.Signal)) +
                                (Exit.CoreDumped ? " (core dumped)" : "") + ")"
                          : "the analysis failed (exit code " +
                                std::to_string(Exit.ExitCode) + ")";
    std::string Detail = causeOfFailure(Stderr);
    if (!Detail.empty())
      Why += ": " + Detail;
    return failed(Unit, Why + "; please report it with this file");
  }
  Expected<cache::WorkerResult> R = worker::readWorkerResult(Output);
  if (!R)
    return failed(Unit, "the analysis returned no usable result (" +
                            toString(R.takeError()) + ")");
  R->Stderr = withoutClangNoise(Stderr);
  return std::move(*R);
}

} // namespace

/// The end of a run that a signal interrupted: every worker got the signal
/// (WorkerProcesses forwards it); those still running after a grace period
/// get SIGKILL. Then their files go and the process dies of the signal.
[[noreturn]] static void stopAll(WorkerProcesses &Processes,
                                 std::vector<Running> &Active) {
  const auto Deadline = Clock::now() + std::chrono::seconds(2);
  for (Running &W : Active) {
    WorkerExit Exit;
    while (!Processes.reap(W.Pid, /*Block=*/false, Exit)) {
      if (Clock::now() < Deadline) {
        std::this_thread::sleep_for(std::chrono::milliseconds(5));
        continue;
      }
      WorkerProcesses::signalGroup(W.Pid, SIGKILL);
      Processes.reap(W.Pid, /*Block=*/true, Exit);
      break;
    }
    removeTemporaries(W, /*Killed=*/true);
  }
  const int Sig = Processes.interrupted();
  errs() << "libtorch-tidy: stopped by signal " << Sig << " (" << strsignal(Sig)
         << "); " << Active.size() << " running "
         << (Active.size() == 1 ? "unit" : "units")
         << " stopped, no report written\n";
  errs().flush();
  Processes.dieOfSignal();
}

std::vector<cache::WorkerResult> runWorkers(
    const WorkerPool &Pool, ArrayRef<std::string> Units,
    const std::function<void(size_t, const cache::WorkerResult &)> &Finished) {
  std::vector<cache::WorkerResult> Results(Units.size());
  std::vector<Running> Active;
  size_t Next = 0;
  const unsigned Jobs = std::max(1u, Pool.Jobs);
  WorkerProcesses Processes(Jobs);

  auto Start = [&](size_t Index) {
    Running W;
    W.Index = Index;
    if (sys::fs::createTemporaryFile("libtorch-tidy-unit", "json",
                                     W.OutputPath) ||
        sys::fs::createTemporaryFile("libtorch-tidy-unit", "log",
                                     W.StderrPath)) {
      removeTemporaries(W);
      Results[Index] = failed(Units[Index], "cannot create a temporary file");
      Finished(Index, Results[Index]);
      return;
    }
    // A crash of this process (LLVM's handlers) removes them too.
    sys::RemoveFileOnSignal(W.OutputPath);
    sys::RemoveFileOnSignal(W.StderrPath);
    worker::WorkerRequest Request;
    if (Index < Pool.UnitRequests.size())
      Request = Pool.UnitRequests[Index];
    Request.Unit = Units[Index];
    Request.Output = std::string(W.OutputPath);
    if (!Pool.SummaryText.empty()) {
      std::optional<std::string> Problem;
      if (sys::fs::createTemporaryFile("libtorch-tidy-summaries", "json",
                                       W.SummaryPath))
        Problem = "cannot create a temporary file";
      else
        sys::RemoveFileOnSignal(W.SummaryPath);
      if (!Problem)
        Problem = io::writeFile(std::string(W.SummaryPath), Pool.SummaryText,
                                io::FileMode::Owned);
      if (Problem) {
        removeTemporaries(W);
        Results[Index] = failed(Units[Index], "cannot write the summaries "
                                              "for its worker: " +
                                                  *Problem);
        Finished(Index, Results[Index]);
        return;
      }
      Request.SummaryFile = std::string(W.SummaryPath);
    }
    std::vector<std::string> Args = {Pool.Executable};
    llvm::append_range(Args, Request.arguments());
    llvm::append_range(Args, Pool.Arguments);
    std::string ErrMsg;
    W.Pid = Processes.start(Args, W.StderrPath, ErrMsg);
    if (W.Pid < 0) {
      removeTemporaries(W);
      Results[Index] =
          failed(Units[Index], "cannot start a worker process: " + ErrMsg);
      Finished(Index, Results[Index]);
      return;
    }
    W.Started = Clock::now();
    Active.push_back(std::move(W));
  };

  while (Next < Units.size() || !Active.empty()) {
    if (Processes.interrupted())
      stopAll(Processes, Active);
    while (Active.size() < Jobs && Next < Units.size() &&
           !Processes.interrupted())
      Start(Next++);
    bool AnyDone = false;
    for (size_t I = 0; I < Active.size();) {
      Running &W = Active[I];
      WorkerExit Exit;
      bool TimedOut = false;
      if (!Processes.reap(W.Pid, /*Block=*/false, Exit)) {
        const auto Elapsed = Clock::now() - W.Started;
        if (Pool.TimeoutSeconds == 0 ||
            Elapsed < std::chrono::seconds(Pool.TimeoutSeconds)) {
          ++I;
          continue;
        }
        WorkerProcesses::signalGroup(W.Pid, SIGKILL);
        Processes.reap(W.Pid, /*Block=*/true, Exit);
        TimedOut = true;
      }
      Results[W.Index] =
          collect(Units[W.Index], W, Exit, TimedOut, Pool.TimeoutSeconds);
      Results[W.Index].Seconds =
          std::chrono::duration<double>(Clock::now() - W.Started).count();
      Finished(W.Index, Results[W.Index]);
      Active.erase(Active.begin() + static_cast<std::ptrdiff_t>(I));
      AnyDone = true;
    }
    if (!AnyDone && !Active.empty())
      std::this_thread::sleep_for(std::chrono::milliseconds(10));
  }
  if (Processes.interrupted()) // after the last worker ended
    stopAll(Processes, Active);
  return Results;
}

} // namespace libtorch_tidy::run
