//===--- Process.cpp - Child processes for libtorch-tidy verify -----------===//
//
// Part of libtorch-tidy. SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

#include "Process.h"

#include <fmt/format.h>

#include <algorithm>
#include <atomic>
#include <cerrno>
#include <chrono>
#include <csignal>
#include <cstdlib>
#include <cstring>
#include <dirent.h>
#include <fcntl.h>
#include <fstream>
#include <functional>
#include <sstream>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <thread>
#include <unistd.h>

namespace libtorch_tidy::verify {
namespace {

// The group of the child being waited for, for the interrupt handler.
std::atomic<int> RunningGroup{0};
std::function<void()> *InterruptCleanup = nullptr;
// A child of the harness that is none of the command's (the watchdog).
std::atomic<int> OwnChild{0};

bool groupAlive(int Group) { return kill(-Group, 0) == 0 || errno == EPERM; }

struct ProcEntry {
  int Pid = 0, Parent = 0, Group = 0;
  char State = '?';
  std::string Name;
};

/// The stat line of every process in /proc (`pid (comm) state ppid pgrp
/// ...`); false when /proc cannot be read.
bool forEachProcessStat(const std::function<void(const std::string &)> &Visit) {
  DIR *Proc = opendir("/proc");
  if (Proc == nullptr)
    return false;
  while (dirent *Entry = readdir(Proc)) {
    if (Entry->d_name[0] < '0' || Entry->d_name[0] > '9')
      continue;
    std::ifstream Stat(std::string("/proc/") + Entry->d_name + "/stat");
    std::string Line;
    if (std::getline(Stat, Line))
      Visit(Line);
  }
  closedir(Proc);
  return true;
}

/// Every process in /proc, from its stat line.
std::vector<ProcEntry> processTable() {
  std::vector<ProcEntry> Table;
  forEachProcessStat([&](const std::string &Line) {
    // pid (comm) state ppid pgrp ...; comm may hold spaces and parentheses.
    const size_t Open = Line.find('('), Close = Line.rfind(')');
    if (Open == std::string::npos || Close == std::string::npos || Close < Open)
      return;
    ProcEntry E;
    E.Pid = std::atoi(Line.c_str());
    E.Name = Line.substr(Open + 1, Close - Open - 1);
    std::istringstream Fields(Line.substr(Close + 1));
    Fields >> E.State >> E.Parent >> E.Group;
    if (Fields)
      Table.push_back(std::move(E));
  });
  return Table;
}

/// The live processes of \p Group and the live descendants of this process
/// (which, as a subreaper, inherits every orphan of the command).
std::vector<ProcEntry> leftovers(int Group) {
  const std::vector<ProcEntry> Table = processTable();
  std::map<int, int> ParentOf;
  for (const ProcEntry &E : Table)
    ParentOf[E.Pid] = E.Parent;
  const int Self = getpid();
  auto Below = [&](int Pid) {
    for (int Hops = 0; Pid > 1 && Hops < 4096; ++Hops) {
      auto It = ParentOf.find(Pid);
      if (It == ParentOf.end())
        return false;
      Pid = It->second;
      if (Pid == Self)
        return true;
    }
    return false;
  };
  std::vector<ProcEntry> Left;
  for (const ProcEntry &E : Table)
    if (E.Pid != Self && E.Pid != OwnChild && E.State != 'Z' &&
        E.State != 'X' && ((Group > 0 && E.Group == Group) || Below(E.Pid)))
      Left.push_back(E);
  return Left;
}

/// Kills (SIGKILL) and reaps what the command left behind, until nothing is
/// left (a process may fork while it is being killed); returns the names.
std::vector<std::string> killLeftovers(int Group) {
  std::vector<std::string> Names;
  std::vector<int> Seen;
  for (int Round = 0; Round < 100; ++Round) {
    // Orphans are ours now: reap the zombies, or they stay in /proc.
    while (waitpid(-1, nullptr, WNOHANG) > 0) {
    }
    const std::vector<ProcEntry> Left = leftovers(Group);
    if (Left.empty())
      break;
    for (const ProcEntry &E : Left) {
      if (std::find(Seen.begin(), Seen.end(), E.Pid) == Seen.end()) {
        Seen.push_back(E.Pid);
        Names.push_back(E.Name);
      }
      kill(E.Pid, SIGKILL);
    }
    std::this_thread::sleep_for(std::chrono::milliseconds(20));
  }
  while (waitpid(-1, nullptr, WNOHANG) > 0) {
  }
  return Names;
}

void onInterrupt(int Sig) {
  const int Group = RunningGroup.load();
  if (Group > 0)
    kill(-Group, SIGKILL);
  // Not async-signal-safe (it reads /proc through the C++ library), like the
  // cleanup below; an interrupted harness must not leave daemons behind.
  killLeftovers(Group);
  if (InterruptCleanup != nullptr && *InterruptCleanup)
    (*InterruptCleanup)();
  signal(Sig, SIG_DFL);
  raise(Sig);
}

} // namespace

std::string ProcessResult::describe(double TimeoutSeconds) const {
  if (!Started)
    return fmt::format("could not start: {}", StartError);
  if (TimedOut)
    return fmt::format("timed out after {:g} s (killed with its children)",
                       TimeoutSeconds);
  if (Signal != 0)
    return fmt::format("killed by signal {} ({})", Signal, strsignal(Signal));
  return fmt::format("exit {}", ExitCode);
}

ProcessResult runProcess(const ProcessSpec &Spec, const Tick &OnTick) {
  ProcessResult Result;
  if (Spec.Argv.empty()) {
    Result.StartError = "empty command";
    return Result;
  }
  // Report exec failures through a close-on-exec pipe.
  int ErrPipe[2];
  if (pipe2(ErrPipe, O_CLOEXEC) != 0) {
    Result.StartError = std::strerror(errno);
    return Result;
  }
  std::vector<std::string> EnvStrings;
  for (char **E = environ; *E != nullptr; ++E) {
    std::string Entry = *E;
    const std::string Name = Entry.substr(0, Entry.find('='));
    if (Spec.SetEnv.count(Name) == 0 && (Spec.WorkDir.empty() || Name != "PWD"))
      EnvStrings.push_back(Entry);
  }
  std::map<std::string, std::string> SetEnv = Spec.SetEnv;
  // A shell trusts $PWD: it must name the directory the child starts in.
  if (!Spec.WorkDir.empty())
    SetEnv["PWD"] = Spec.WorkDir;
  for (const auto &[Name, Value] : SetEnv) {
    EnvStrings.push_back(Name);
    EnvStrings.back().append("=").append(Value);
  }
  std::vector<char *> Env, Argv;
  for (auto &S : EnvStrings)
    Env.push_back(S.data());
  Env.push_back(nullptr);
  std::vector<std::string> ArgCopy = Spec.Argv;
  for (auto &A : ArgCopy)
    Argv.push_back(A.data());
  Argv.push_back(nullptr);

  // Orphans of the command (a daemon that called setsid() and whose parent
  // exited) become our children instead of init's, so none escapes.
  prctl(PR_SET_CHILD_SUBREAPER, 1);
  const auto Start = std::chrono::steady_clock::now();
  const pid_t Pid = fork();
  if (Pid < 0) {
    Result.StartError = std::strerror(errno);
    close(ErrPipe[0]);
    close(ErrPipe[1]);
    return Result;
  }
  if (Pid == 0) {
    setpgid(0, 0);
    signal(SIGINT, SIG_DFL);
    signal(SIGTERM, SIG_DFL);
    signal(SIGHUP, SIG_DFL);
    int In = open("/dev/null", O_RDONLY);
    if (In >= 0)
      dup2(In, 0);
    if (!Spec.OutputFile.empty()) {
      int Out =
          open(Spec.OutputFile.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
      if (Out >= 0) {
        dup2(Out, 1);
        dup2(Out, 2);
      }
    }
    if (!Spec.WorkDir.empty() && chdir(Spec.WorkDir.c_str()) != 0) {
      int Err = errno;
      (void)!write(ErrPipe[1], &Err, sizeof(Err));
      _exit(127);
    }
    execvpe(Argv[0], Argv.data(), Env.data());
    int Err = errno;
    (void)!write(ErrPipe[1], &Err, sizeof(Err));
    _exit(127);
  }
  // Also from the parent, so the group exists before we signal it.
  setpgid(Pid, Pid);
  RunningGroup.store(Pid);
  close(ErrPipe[1]);
  int ChildErr = 0;
  const ssize_t N = read(ErrPipe[0], &ChildErr, sizeof(ChildErr));
  close(ErrPipe[0]);
  if (N == sizeof(ChildErr)) {
    waitpid(Pid, nullptr, 0);
    RunningGroup.store(0);
    Result.StartError =
        fmt::format("{}: {}", Spec.Argv[0], std::strerror(ChildErr));
    return Result;
  }
  Result.Started = true;

  auto Elapsed = [&] {
    return std::chrono::duration<double>(std::chrono::steady_clock::now() -
                                         Start)
        .count();
  };
  int Status = 0;
  bool Terminated = false;
  double TermAt = 0;
  for (;;) {
    const pid_t W = waitpid(Pid, &Status, WNOHANG);
    if (W == Pid)
      break;
    if (W < 0 && errno != EINTR)
      break;
    const double Now = Elapsed();
    if (OnTick)
      OnTick(Now, Pid);
    if (Spec.TimeoutSeconds > 0 && Now > Spec.TimeoutSeconds) {
      if (!Terminated) {
        // SIGTERM first: the probe writes its counts on it.
        Result.TimedOut = true;
        Terminated = true;
        TermAt = Now;
        kill(-Pid, SIGTERM);
      } else if (Now - TermAt > 2.0) {
        kill(-Pid, SIGKILL);
      }
    }
    std::this_thread::sleep_for(std::chrono::milliseconds(100));
  }
  Result.WallSeconds = Elapsed();
  if (WIFEXITED(Status))
    Result.ExitCode = WEXITSTATUS(Status);
  else if (WIFSIGNALED(Status))
    Result.Signal = WTERMSIG(Status);
  // After a timeout the group already has SIGTERM: give its members the
  // same grace as the leader before calling them left behind. Those whose
  // parent died are our children now: reap them, or they linger as zombies.
  for (int I = 0; Result.TimedOut && I < 100 && groupAlive(Pid); ++I) {
    while (waitpid(-1, nullptr, WNOHANG) > 0) {
    }
    std::this_thread::sleep_for(std::chrono::milliseconds(20));
  }
  // Whatever the command left running goes too, in its group or not.
  Result.Leftovers = killLeftovers(Pid);
  Result.LeftChildren = !Result.Leftovers.empty();
  RunningGroup.store(0);
  return Result;
}

void keepRunning(int Pid) { OwnChild = Pid; }

void installInterruptCleanup(std::function<void()> Cleanup) {
  static std::function<void()> Stored;
  Stored = std::move(Cleanup);
  InterruptCleanup = &Stored;
  struct sigaction Action;
  std::memset(&Action, 0, sizeof(Action));
  Action.sa_handler = &onInterrupt;
  sigemptyset(&Action.sa_mask);
  for (int Sig : {SIGINT, SIGTERM, SIGHUP})
    sigaction(Sig, &Action, nullptr);
}

double groupCpuSeconds(int ProcessGroup) {
  const double Ticks = static_cast<double>(sysconf(_SC_CLK_TCK));
  double Total = 0;
  bool Any = false;
  const bool Read = forEachProcessStat([&](const std::string &Line) {
    // The command name (field 2) may hold spaces: parse after its ')'.
    const size_t Close = Line.rfind(')');
    if (Close == std::string::npos)
      return;
    std::istringstream Fields(Line.substr(Close + 2));
    std::string F;
    std::vector<std::string> V;
    while (Fields >> F && V.size() < 15)
      V.push_back(F);
    // From field 3: state ppid pgrp session tty tpgid flags minflt cminflt
    // majflt cmajflt utime stime.
    if (V.size() < 13 || std::stoi(V[2]) != ProcessGroup)
      return;
    Any = true;
    Total += (std::stod(V[11]) + std::stod(V[12])) / Ticks;
  });
  return Read && Any ? Total : -1;
}

std::string readFile(const std::string &Path) {
  std::ifstream In(Path, std::ios::binary);
  std::stringstream SS;
  SS << In.rdbuf();
  return SS.str();
}

std::string fileTail(const std::string &Path, size_t MaxBytes) {
  // Only the tail is read: a program's output may be gigabytes.
  std::ifstream In(Path, std::ios::binary | std::ios::ate);
  if (!In)
    return "";
  const std::streamoff Size = In.tellg();
  if (Size < 0)
    return "";
  const bool Cut = static_cast<size_t>(Size) > MaxBytes;
  const std::streamoff Start =
      Cut ? Size - static_cast<std::streamoff>(MaxBytes) : 0;
  In.seekg(Start);
  std::string S(static_cast<size_t>(Size - Start), '\0');
  In.read(S.data(), static_cast<std::streamsize>(S.size()));
  S.resize(static_cast<size_t>(In.gcount()));
  return Cut ? "..." + S : S;
}

} // namespace libtorch_tidy::verify
