//===--- WorkerProcess.cpp - Start, stop and reap worker processes --------===//
//
// Part of libtorch-tidy. SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

#include "run/WorkerProcess.h"
#include "llvm/Support/Signals.h"
#include <algorithm>
#include <atomic>
#include <cassert>
#include <cerrno>
#include <chrono>
#include <climits>
#include <csignal>
#include <cstdlib>
#include <cstring>
#include <fcntl.h>
#include <iterator>
#include <spawn.h>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <thread>
#include <unistd.h>
#include <vector>

using namespace llvm;

namespace libtorch_tidy::run {
namespace {

// A signal handler sees only file-scope state, and of that only lock-free
// atomics: the pids of the running workers (0 marks a free slot) and the
// signal received. WorkerProcesses sets them up before it installs the
// handlers and clears them after it restores the previous ones.
std::atomic<std::atomic<pid_t> *> HandlerSlots{nullptr};
std::atomic<size_t> HandlerSlotCount{0};
volatile sig_atomic_t Interrupted = 0;

constexpr int Forwarded[] = {SIGINT, SIGTERM, SIGHUP};
struct sigaction Previous[std::size(Forwarded)];
bool InheritedIgnored[std::size(Forwarded)];

// How a worker learns its parent's pid and its stderr file (guardWorker).
constexpr const char ParentVariable[] = "LIBTORCH_TIDY_WORKER_PARENT";
constexpr const char LogVariable[] = "LIBTORCH_TIDY_WORKER_LOG";

sigset_t forwardedSet() {
  sigset_t Set;
  sigemptyset(&Set);
  for (int Sig : Forwarded)
    sigaddset(&Set, Sig);
  return Set;
}

void restoreHandlers() {
  for (size_t I = 0; I < std::size(Forwarded); ++I)
    sigaction(Forwarded[I], &Previous[I], nullptr);
}

void onSignal(int Sig) {
  const bool Again = Interrupted != 0;
  Interrupted = Sig;
  std::atomic<pid_t> *Slots = HandlerSlots.load();
  const size_t Count = Slots ? HandlerSlotCount.load() : 0;
  for (size_t I = 0; I < Count; ++I)
    if (pid_t Pid = Slots[I].load(); Pid > 0)
      kill(-Pid, Again ? SIGKILL : Sig);
  if (Again) {
    // A second signal: do not wait for the orderly cleanup. The previous
    // handler (LLVM's) removes the files registered with RemoveFileOnSignal
    // and ends the process with the signal's default action; it runs when
    // this handler returns, the signal being blocked until then.
    restoreHandlers();
    raise(Sig);
  }
}

/// Holds off the forwarded signals, so the handler never sees a worker that
/// runs but is not in a slot, nor a pid that was reaped (and may be reused).
class ForwardedBlocked {
public:
  ForwardedBlocked() {
    sigset_t Set = forwardedSet();
    pthread_sigmask(SIG_BLOCK, &Set, &Old);
  }
  ~ForwardedBlocked() { pthread_sigmask(SIG_SETMASK, &Old, nullptr); }

private:
  sigset_t Old;
};

} // namespace

struct WorkerProcesses::Slots {
  std::unique_ptr<std::atomic<pid_t>[]> Pids;
  size_t Count = 0;
};

WorkerProcesses::WorkerProcesses(unsigned MaxWorkers) : Active(new Slots) {
  Active->Count = std::max(1u, MaxWorkers);
  Active->Pids.reset(new std::atomic<pid_t>[Active->Count]);
  for (size_t I = 0; I < Active->Count; ++I)
    Active->Pids[I].store(0);
  Interrupted = 0;
  HandlerSlotCount.store(Active->Count);
  HandlerSlots.store(Active->Pids.get());
  struct sigaction Action, Ignore;
  std::memset(&Action, 0, sizeof(Action));
  Action.sa_handler = &onSignal;
  Action.sa_mask = forwardedSet();
  // Ignored rather than left to LLVM's handler, which would unregister all
  // of its handlers on the first such signal (SIGTERM's among them).
  std::memset(&Ignore, 0, sizeof(Ignore));
  Ignore.sa_handler = SIG_IGN;
  sigemptyset(&Ignore.sa_mask);
  for (size_t I = 0; I < std::size(Forwarded); ++I)
    sigaction(Forwarded[I], InheritedIgnored[I] ? &Ignore : &Action,
              &Previous[I]);
}

WorkerProcesses::~WorkerProcesses() {
  restoreHandlers();
  HandlerSlots.store(nullptr);
  HandlerSlotCount.store(0);
}

pid_t WorkerProcesses::start(ArrayRef<std::string> Argv, StringRef StderrPath,
                             std::string &Error) {
  const std::string ParentEntry = std::string(ParentVariable) + "=";
  const std::string LogEntry = std::string(LogVariable) + "=";
  std::vector<std::string> Env;
  for (char **E = environ; *E != nullptr; ++E) {
    StringRef Entry(*E);
    if (!Entry.starts_with(ParentEntry) && !Entry.starts_with(LogEntry))
      Env.push_back(*E);
  }
  Env.push_back(ParentEntry + std::to_string(getpid()));
  Env.push_back(LogEntry + StderrPath.str());
  std::vector<std::string> Args(Argv.begin(), Argv.end());
  std::vector<char *> ArgPointers, EnvPointers;
  for (std::string &A : Args)
    ArgPointers.push_back(A.data());
  ArgPointers.push_back(nullptr);
  for (std::string &E : Env)
    EnvPointers.push_back(E.data());
  EnvPointers.push_back(nullptr);
  const std::string Log = StderrPath.str();

  posix_spawn_file_actions_t Files;
  posix_spawn_file_actions_init(&Files);
  posix_spawn_file_actions_addopen(&Files, 0, "/dev/null", O_RDONLY, 0);
  posix_spawn_file_actions_addopen(&Files, 1, "/dev/null", O_WRONLY, 0);
  posix_spawn_file_actions_addopen(&Files, 2, Log.c_str(), O_WRONLY | O_TRUNC,
                                   0600);
  posix_spawnattr_t Attributes;
  posix_spawnattr_init(&Attributes);
  // A group of its own, so that one kill reaches whatever it starts; the
  // signals this process catches or blocks at their defaults there.
  posix_spawnattr_setflags(&Attributes, POSIX_SPAWN_SETPGROUP |
                                            POSIX_SPAWN_SETSIGMASK |
                                            POSIX_SPAWN_SETSIGDEF);
  posix_spawnattr_setpgroup(&Attributes, 0);
  sigset_t None;
  sigemptyset(&None);
  posix_spawnattr_setsigmask(&Attributes, &None);
  sigset_t Defaults = forwardedSet();
  sigaddset(&Defaults, SIGALRM);
  posix_spawnattr_setsigdefault(&Attributes, &Defaults);

  pid_t Pid = -1;
  int Err;
  {
    ForwardedBlocked Blocked;
    Err = posix_spawn(&Pid, ArgPointers[0], &Files, &Attributes,
                      ArgPointers.data(), EnvPointers.data());
    if (Err == 0) {
      auto *Free = std::find_if(
          Active->Pids.get(), Active->Pids.get() + Active->Count,
          [](const std::atomic<pid_t> &Slot) { return Slot.load() == 0; });
      // The pool never runs more than it asked room for.
      assert(Free != Active->Pids.get() + Active->Count && "no free slot");
      if (Free != Active->Pids.get() + Active->Count)
        Free->store(Pid);
    }
  }
  posix_spawnattr_destroy(&Attributes);
  posix_spawn_file_actions_destroy(&Files);
  if (Err != 0) {
    Error = std::strerror(Err);
    return -1;
  }
  return Pid;
}

bool WorkerProcesses::reap(pid_t Pid, bool Block, WorkerExit &Exit) {
  for (;;) {
    int Status = 0;
    pid_t Done;
    {
      ForwardedBlocked Blocked;
      do
        Done = waitpid(Pid, &Status, WNOHANG);
      while (Done < 0 && errno == EINTR);
      if (Done != 0)
        for (size_t I = 0; I < Active->Count; ++I)
          if (Active->Pids[I].load() == Pid)
            Active->Pids[I].store(0);
    }
    if (Done == Pid) {
      if (WIFEXITED(Status)) {
        Exit.ExitCode = WEXITSTATUS(Status);
      } else if (WIFSIGNALED(Status)) {
        Exit.Signal = WTERMSIG(Status);
        Exit.SelfTimeout = Exit.Signal == SIGALRM;
        Exit.CoreDumped = WCOREDUMP(Status);
      }
      return true;
    }
    if (Done < 0) // not our child (cannot happen): nothing to wait for
      return true;
    if (!Block)
      return false;
    // Polled with the signals open, so that an interrupt is not held up.
    std::this_thread::sleep_for(std::chrono::milliseconds(5));
  }
}

void WorkerProcesses::signalGroup(pid_t Pid, int Signal) {
  if (Pid > 0)
    kill(-Pid, Signal);
}

int WorkerProcesses::interrupted() const { return Interrupted; }

void WorkerProcesses::dieOfSignal() {
  const int Sig = Interrupted ? Interrupted : SIGTERM;
  restoreHandlers();
  HandlerSlots.store(nullptr);
  HandlerSlotCount.store(0);
  // The previous handler (LLVM's) removes the files registered with
  // RemoveFileOnSignal, then takes the default action, which ends us.
  raise(Sig);
  signal(Sig, SIG_DFL);
  raise(Sig);
  _exit(128 + Sig);
}

void noteInheritedSignals() {
  for (size_t I = 0; I < std::size(Forwarded); ++I) {
    struct sigaction Current;
    InheritedIgnored[I] = sigaction(Forwarded[I], nullptr, &Current) == 0 &&
                          Current.sa_handler == SIG_IGN;
  }
}

void guardWorker(StringRef OutputPath, StringRef SummaryPath,
                 unsigned TimeoutSeconds) {
  const char *Parent = std::getenv(ParentVariable);
  if (Parent == nullptr)
    return;
  // Files the parent made for this worker: when the worker dies of a signal
  // (its parent's death among them), LLVM's handlers remove them.
  sys::RemoveFileOnSignal(OutputPath);
  if (!SummaryPath.empty())
    sys::RemoveFileOnSignal(SummaryPath);
  if (const char *Log = std::getenv(LogVariable))
    sys::RemoveFileOnSignal(Log);
  prctl(PR_SET_PDEATHSIG, SIGTERM);
  // A parent that died before the prctl sends nothing: we were adopted.
  if (getppid() != static_cast<pid_t>(std::atoll(Parent)))
    raise(SIGTERM);
  // The parent stops us at TimeoutSeconds; this is for a parent that is
  // stopped itself (SIGSTOP) or hung: SIGALRM's default action ends us.
  if (TimeoutSeconds > 0)
    alarm(std::min<unsigned>(TimeoutSeconds, UINT_MAX - 1) + 1);
}

} // namespace libtorch_tidy::run
