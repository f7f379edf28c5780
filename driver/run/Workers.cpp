//===--- Workers.cpp - Analyze units in worker processes ------------------===//
//
// Part of libtorch-tidy. SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

#include "run/Workers.h"
#include "report/FindingsJson.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/Process.h"
#include "llvm/Support/Program.h"
#include "llvm/Support/raw_ostream.h"
#include <chrono>
#include <csignal>
#include <optional>
#include <thread>

using namespace llvm;

namespace libtorch_tidy::run {
namespace {

using Clock = std::chrono::steady_clock;

struct Running {
  size_t Index;
  sys::ProcessInfo Process;
  Clock::time_point Started;
  SmallString<128> OutputPath;
  SmallString<128> StderrPath;
};

std::string readFile(StringRef Path) {
  ErrorOr<std::unique_ptr<MemoryBuffer>> Buffer = MemoryBuffer::getFile(
      Path, /*IsText=*/false, /*RequiresNullTerminator=*/false);
  return Buffer ? (*Buffer)->getBuffer().str() : std::string();
}

/// The last non-empty line of a worker's stderr: for a crash, LLVM's stack
/// dump ends with frames, so prefer the "Stack dump" context line if any.
std::string lastLine(StringRef Text) {
  SmallVector<StringRef, 16> Lines;
  Text.split(Lines, '\n', -1, /*KeepEmpty=*/false);
  for (StringRef Line : Lines)
    if (Line.contains("LLVM ERROR") || Line.contains("error:"))
      return Line.trim().str();
  return Lines.empty() ? "" : Lines.back().trim().str();
}

/// \p Text without the lines ClangTool prints per unit.
std::string withoutClangNoise(StringRef Text) {
  std::string Kept;
  SmallVector<StringRef, 16> Lines;
  Text.split(Lines, '\n', -1, /*KeepEmpty=*/false);
  for (StringRef Line : Lines) {
    if (Line.endswith(" generated.") ||
        Line.startswith("Error while processing"))
      continue;
    Kept += Line.str() + "\n";
  }
  return Kept;
}

/// \p Path relative to the working directory when it lies below it, for
/// the progress line.
std::string displayName(StringRef Path) {
  SmallString<256> Cwd;
  if (sys::fs::current_path(Cwd))
    return Path.str();
  StringRef Relative = Path;
  if (Relative.consume_front(Cwd) && !Relative.empty() &&
      sys::path::is_separator(Relative.front()))
    return Relative.drop_front().str();
  return Path.str();
}

WorkerResult failed(StringRef Unit, const std::string &Why) {
  WorkerResult R;
  R.Unit.MainFile = Unit.str();
  R.Unit.State = report::TranslationUnitResult::Status::Failed;
  R.Unit.FailureMessage = Why;
  return R;
}

WorkerResult collect(StringRef Unit, Running &W, int ReturnCode,
                     const std::string &ErrMsg, bool TimedOut,
                     unsigned Timeout) {
  std::string Stderr = readFile(W.StderrPath);
  sys::fs::remove(W.StderrPath);
  std::string Output = readFile(W.OutputPath);
  sys::fs::remove(W.OutputPath);
  if (TimedOut)
    return failed(Unit, "analysis did not finish within " +
                            std::to_string(Timeout) +
                            " s and was stopped (raise --unit-timeout)");
  if (ReturnCode != 0) {
    std::string Why = ReturnCode == -2 ? "the analysis crashed (" + ErrMsg + ")"
                                       : "the analysis failed (exit code " +
                                             std::to_string(ReturnCode) + ")";
    std::string Detail = lastLine(Stderr);
    if (!Detail.empty())
      Why += ": " + Detail;
    return failed(Unit, Why + "; please report it with this file");
  }
  try {
    nlohmann::json J = nlohmann::json::parse(Output);
    WorkerResult R;
    R.Stderr = withoutClangNoise(Stderr);
    J.at("unit").get_to(R.Unit);
    J.at("dependencies").get_to(R.Dependencies);
    return R;
  } catch (const nlohmann::json::exception &E) {
    return failed(Unit,
                  std::string("the analysis returned no usable result (") +
                      E.what() + ")");
  }
}

} // namespace

bool writeWorkerResult(StringRef Path, const WorkerResult &Result) {
  nlohmann::json J = {{"unit", Result.Unit},
                      {"dependencies", Result.Dependencies}};
  if (Error E = writeToOutput(Path, [&](raw_ostream &OS) {
        OS << J.dump();
        return Error::success();
      })) {
    consumeError(std::move(E));
    return false;
  }
  return true;
}

std::vector<WorkerResult>
runWorkers(const WorkerPool &Pool, ArrayRef<std::string> Units,
           const std::function<void(size_t, const WorkerResult &)> &Finished) {
  std::vector<WorkerResult> Results(Units.size());
  std::vector<Running> Active;
  size_t Next = 0;
  const unsigned Jobs = std::max(1u, Pool.Jobs);

  auto Start = [&](size_t Index) {
    Running W;
    W.Index = Index;
    if (sys::fs::createTemporaryFile("libtorch-tidy-unit", "json",
                                     W.OutputPath) ||
        sys::fs::createTemporaryFile("libtorch-tidy-unit", "log",
                                     W.StderrPath)) {
      Results[Index] = failed(Units[Index], "cannot create a temporary file");
      Finished(Index, Results[Index]);
      return;
    }
    std::vector<std::string> Args = {
        Pool.Executable, "--worker-unit=" + Units[Index],
        "--worker-output=" + std::string(W.OutputPath)};
    Args.insert(Args.end(), Pool.Arguments.begin(), Pool.Arguments.end());
    std::vector<StringRef> ArgRefs(Args.begin(), Args.end());
    std::optional<StringRef> Redirects[] = {StringRef(""), StringRef(""),
                                            StringRef(W.StderrPath)};
    std::string ErrMsg;
    bool ExecFailed = false;
    W.Process = sys::ExecuteNoWait(Pool.Executable, ArgRefs, std::nullopt,
                                   Redirects, 0, &ErrMsg, &ExecFailed);
    if (ExecFailed) {
      sys::fs::remove(W.OutputPath);
      sys::fs::remove(W.StderrPath);
      Results[Index] =
          failed(Units[Index], "cannot start a worker process: " + ErrMsg);
      Finished(Index, Results[Index]);
      return;
    }
    W.Started = Clock::now();
    if (Pool.Progress) {
      errs() << "\r\x1b[K[" << (Index + 1) << "/" << Units.size() << "] "
             << displayName(Units[Index]);
      errs().flush();
    }
    Active.push_back(std::move(W));
  };

  while (Next < Units.size() || !Active.empty()) {
    while (Active.size() < Jobs && Next < Units.size())
      Start(Next++);
    bool AnyDone = false;
    for (size_t I = 0; I < Active.size();) {
      Running &W = Active[I];
      std::string ErrMsg;
      sys::ProcessInfo Done =
          sys::Wait(W.Process, /*SecondsToWait=*/0, &ErrMsg, nullptr,
                    /*Polling=*/true);
      bool TimedOut = false;
      if (Done.Pid == 0) {
        const auto Elapsed = Clock::now() - W.Started;
        if (Pool.TimeoutSeconds == 0 ||
            Elapsed < std::chrono::seconds(Pool.TimeoutSeconds)) {
          ++I;
          continue;
        }
        ::kill(W.Process.Pid, SIGKILL);
        Done = sys::Wait(W.Process, std::nullopt, &ErrMsg);
        TimedOut = true;
      }
      Results[W.Index] = collect(Units[W.Index], W, Done.ReturnCode, ErrMsg,
                                 TimedOut, Pool.TimeoutSeconds);
      Results[W.Index].Seconds =
          std::chrono::duration<double>(Clock::now() - W.Started).count();
      Finished(W.Index, Results[W.Index]);
      Active.erase(Active.begin() + I);
      AnyDone = true;
    }
    if (!AnyDone && !Active.empty())
      std::this_thread::sleep_for(std::chrono::milliseconds(10));
  }
  if (Pool.Progress && !Units.empty())
    errs() << "\r\x1b[K";
  return Results;
}

} // namespace libtorch_tidy::run
