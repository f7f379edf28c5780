//===--- AnalysisProcess.cpp - One analysis in a worker process -----------===//
//
// Part of libtorch-tidy. SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

#include "lsp/AnalysisProcess.h"
#include "worker/WorkerProtocol.h"
#include "llvm/ADT/SmallString.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/raw_ostream.h"
#include <csignal>
#include <cstring>
#include <fcntl.h>
#include <nlohmann/json.hpp>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <unistd.h>
#include <vector>

using namespace llvm;
using Clock = std::chrono::steady_clock;

namespace libtorch_tidy::lsp {
namespace {

std::string readWhole(StringRef Path) {
  ErrorOr<std::unique_ptr<MemoryBuffer>> Buffer = MemoryBuffer::getFile(
      Path, /*IsText=*/false, /*RequiresNullTerminator=*/false);
  return Buffer ? (*Buffer)->getBuffer().str() : std::string();
}

bool writeWhole(StringRef Path, StringRef Bytes) {
  std::error_code EC;
  raw_fd_ostream OS(Path, EC, sys::fs::OF_None);
  if (EC)
    return false;
  OS << Bytes;
  OS.close();
  return !OS.has_error();
}

/// The line of a worker's stderr that says why it gave no result.
std::string errorLine(StringRef Stderr) {
  SmallVector<StringRef, 16> Lines;
  Stderr.split(Lines, '\n', -1, /*KeepEmpty=*/false);
  for (StringRef Line : Lines)
    if (Line.starts_with("libtorch-tidy: error: "))
      return Line.drop_front(strlen("libtorch-tidy: error: ")).trim().str();
  for (StringRef Line : Lines)
    if (Line.contains("error:") || Line.contains("LLVM ERROR"))
      return Line.trim().str();
  return "";
}

} // namespace

std::string overlayYaml(const std::map<std::string, std::string> &Files,
                        StringRef Directory) {
  nlohmann::json Roots = nlohmann::json::array();
  size_t Index = 0;
  for (const auto &Entry : Files) {
    SmallString<256> Source(Directory);
    sys::path::append(Source, std::to_string(Index++) + ".src");
    Roots.push_back({{"name", Entry.first},
                     {"type", "file"},
                     {"external-contents", std::string(Source)}});
  }
  // JSON is YAML: the overlay parser reads it as written.
  nlohmann::json Overlay = {
      {"version", 0}, {"use-external-names", false}, {"roots", Roots}};
  return Overlay.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace);
}

namespace {

/// A worker's command line and environment.
struct WorkerCommand {
  std::vector<std::string> Arguments;
  std::vector<std::string> Environment;
};

/// The worker for \p Request, whose result goes to \p Output, whose prefix
/// notice to \p Notice, and whose unsaved texts are mapped by \p Overlay.
WorkerCommand workerCommand(const AnalysisRequest &Request, StringRef Output,
                            StringRef Notice, StringRef Overlay) {
  worker::WorkerRequest Worker;
  Worker.Unit = Request.File;
  Worker.Output = Output.str();
  Worker.Prefix = Request.Prefix;
  Worker.PreambleNotice = Notice.str();
  Worker.DatabaseSummaries = true;
  // The servers' URLs may hold a password: the worker gets them in its
  // environment, which only its user can read (/proc/PID/environ), not on
  // its command line, which every user of the machine can (ps). The
  // worker reads LIBTORCH_TIDY_REMOTE_CACHE when no --remote-cache is
  // given, and only when asked for a remote lookup.
  const StringRef RemoteVariable = "LIBTORCH_TIDY_REMOTE_CACHE=";
  WorkerCommand Command;
  for (char **E = environ; *E != nullptr; ++E)
    if (!StringRef(*E).starts_with(RemoteVariable))
      Command.Environment.push_back(*E);
  if (!Request.RemoteCache.empty()) {
    Worker.RemoteLookup = true;
    Command.Environment.push_back(RemoteVariable.str() + Request.RemoteCache);
  }
  Command.Arguments = {Request.Executable};
  append_range(Command.Arguments, Worker.arguments());
  if (!Request.CacheMaxSize.empty())
    Command.Arguments.push_back("--cache-max-size=" + Request.CacheMaxSize);
  append_range(Command.Arguments,
               std::vector<std::string>{
                   "--unit-timeout=" + std::to_string(Request.TimeoutSeconds),
                   "--vfsoverlay=" + Overlay.str(), "-p",
                   Request.DatabaseDirectory, Request.File});
  return Command;
}

} // namespace

AnalysisProcess::AnalysisProcess(const AnalysisRequest &Request) {
  Started = Clock::now();
  Deadline = Started + std::chrono::seconds(Request.TimeoutSeconds + 2);
  NotBefore =
      Started + std::chrono::duration_cast<Clock::duration>(
                    std::chrono::duration<double>(Request.MinimumSeconds));
  std::optional<std::string> Problem = writeScratch(Request);
  if (!Problem) {
    WorkerCommand Command =
        workerCommand(Request, OutputPath, NoticePath, OverlayPath);
    Problem =
        start(std::move(Command.Arguments), std::move(Command.Environment));
  }
  if (Problem) {
    Done = true;
    Outcome.Problem = std::move(*Problem);
  }
}

std::optional<std::string>
AnalysisProcess::writeScratch(const AnalysisRequest &Request) {
  SmallString<128> Dir;
  SmallString<256> Model(Request.ScratchRoot);
  sys::path::append(Model, Request.ScratchRoot.empty() ? "libtorch-tidy-lsp"
                                                       : "analysis");
  if (std::error_code EC = sys::fs::createUniqueDirectory(Model, Dir))
    return "cannot create a temporary directory (" + EC.message() +
           "); set TMPDIR to a writable directory";
  TempDir = std::string(Dir);
  auto InScratch = [&](StringRef Name) {
    SmallString<256> Path(TempDir);
    sys::path::append(Path, Name);
    return std::string(Path);
  };
  size_t Index = 0;
  for (const auto &Entry : Request.Unsaved)
    if (!writeWhole(InScratch(std::to_string(Index++) + ".src"), Entry.second))
      return "cannot write into " + TempDir;
  OverlayPath = InScratch("overlay.yaml");
  OutputPath = InScratch("result.msgpack");
  StderrPath = InScratch("stderr.txt");
  NoticePath = InScratch("preamble-notice.txt");
  if (!writeWhole(OverlayPath, overlayYaml(Request.Unsaved, TempDir)))
    return "cannot write into " + TempDir;
  return std::nullopt;
}

std::optional<std::string>
AnalysisProcess::start(std::vector<std::string> Args,
                       std::vector<std::string> Environment) {
  std::vector<char *> Argv, Envp;
  Argv.reserve(Args.size());
  for (std::string &A : Args)
    Argv.push_back(A.data());
  Argv.push_back(nullptr);
  for (std::string &E : Environment)
    Envp.push_back(E.data());
  Envp.push_back(nullptr);
  const int In = open("/dev/null", O_RDONLY | O_CLOEXEC);
  const int Err =
      open(StderrPath.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0600);
  const pid_t Parent = getpid();
  Pid = fork();
  if (Pid == 0) {
    // Standard output is the protocol's channel: the worker never gets it.
    setpgid(0, 0);
    prctl(PR_SET_PDEATHSIG, SIGKILL);
    if (getppid() != Parent)
      _exit(127);
    dup2(In, 0);
    dup2(In, 1);
    dup2(Err, 2);
    for (int S : {SIGINT, SIGTERM, SIGHUP, SIGPIPE, SIGCHLD})
      signal(S, SIG_DFL);
    execve(Argv[0], Argv.data(), Envp.data());
    _exit(127);
  }
  if (In >= 0)
    close(In);
  if (Err >= 0)
    close(Err);
  if (Pid < 0)
    return std::string("cannot start the analysis (") + strerror(errno) + ")";
  // Also from here, so that killing the group cannot miss an early child.
  setpgid(Pid, Pid);
  return std::nullopt;
}

AnalysisProcess::~AnalysisProcess() {
  if (!Done && Pid > 0) {
    kill(-Pid, SIGKILL);
    kill(Pid, SIGKILL);
    int Status;
    while (waitpid(Pid, &Status, 0) < 0 && errno == EINTR) {
    }
  }
  if (!TempDir.empty())
    sys::fs::remove_directories(TempDir);
}

std::optional<std::string> AnalysisProcess::preambleNotice() {
  if (NoticeSeen || NoticePath.empty() || !sys::fs::exists(NoticePath))
    return std::nullopt;
  NoticeSeen = true;
  std::string Line = readWhole(NoticePath);
  while (!Line.empty() && Line.back() == '\n')
    Line.pop_back();
  return Line;
}

void AnalysisProcess::pause() {
  if (Done || paused() || Pid <= 0)
    return;
  kill(-Pid, SIGSTOP);
  PausedAt = Clock::now();
}

void AnalysisProcess::resume() {
  if (!paused())
    return;
  const Clock::duration Paused = Clock::now() - *PausedAt;
  PausedBefore += Paused;
  Deadline += Paused;
  PausedAt.reset();
  if (!Done)
    kill(-Pid, SIGCONT);
}

double AnalysisProcess::pausedSeconds() const {
  Clock::duration Paused = PausedBefore;
  if (PausedAt)
    Paused += Clock::now() - *PausedAt;
  return std::chrono::duration<double>(Paused).count();
}

double AnalysisProcess::activeSeconds() const {
  return std::chrono::duration<double>(Clock::now() - Started).count() -
         pausedSeconds();
}

bool AnalysisProcess::poll() {
  if (Done)
    return true;
  if (Clock::now() < NotBefore)
    return false;
  int Status = 0;
  pid_t R = waitpid(Pid, &Status, WNOHANG);
  if (R == 0) {
    if (paused() || Clock::now() < Deadline)
      return false;
    kill(-Pid, SIGKILL);
    kill(Pid, SIGKILL);
    while (waitpid(Pid, &Status, 0) < 0 && errno == EINTR) {
    }
    Done = true;
    Outcome.Problem = "the analysis did not end in time and was stopped";
    Outcome.Seconds =
        std::chrono::duration<double>(Clock::now() - Started).count();
    return true;
  }
  if (R < 0 && errno == EINTR)
    return false;
  finish(R < 0 ? -1 : Status);
  return true;
}

void AnalysisProcess::finish(int Status) {
  Done = true;
  // The worker's group may still hold a process it started.
  kill(-Pid, SIGKILL);
  Outcome.Seconds =
      std::chrono::duration<double>(Clock::now() - Started).count();
  if (Status >= 0 && WIFEXITED(Status) && WEXITSTATUS(Status) == 0) {
    Expected<cache::WorkerResult> Result =
        worker::readWorkerResult(readWhole(OutputPath));
    if (Result) {
      Outcome.Unit = std::move(Result->Unit);
      return;
    }
    consumeError(Result.takeError());
    Outcome.Problem = "the analysis wrote no readable result";
    return;
  }
  std::string Line = errorLine(readWhole(StderrPath));
  if (Status >= 0 && WIFSIGNALED(Status))
    Outcome.Problem = "the analysis crashed (" +
                      std::string(strsignal(WTERMSIG(Status))) + ")" +
                      (Line.empty() ? "" : ": " + Line);
  else
    Outcome.Problem = Line.empty() ? "the analysis failed" : Line;
}

} // namespace libtorch_tidy::lsp
