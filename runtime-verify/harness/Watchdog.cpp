//===--- Watchdog.cpp - Cleanup that outlives a killed harness ------------===//
//
// Part of libtorch-tidy. SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

#include "Watchdog.h"
#include "Process.h"

#include <fmt/format.h>

#include <chrono>
#include <csignal>
#include <cstdlib>
#include <cstring>
#include <dirent.h>
#include <fcntl.h>
#include <filesystem>
#include <fstream>
#include <random>
#include <sstream>
#include <thread>
#include <unistd.h>

namespace fs = std::filesystem;

namespace libtorch_tidy::verify {

namespace {

/// The pids of the processes whose environment holds Name=Token.
std::vector<int> processesWithToken(const std::string &Name,
                                    const std::string &Token) {
  const std::string Wanted = Name + "=" + Token;
  std::vector<int> Found;
  DIR *Proc = opendir("/proc");
  if (Proc == nullptr)
    return Found;
  while (dirent *Entry = readdir(Proc)) {
    if (Entry->d_name[0] < '0' || Entry->d_name[0] > '9')
      continue;
    const std::string Env =
        readFile(std::string("/proc/") + Entry->d_name + "/environ");
    std::istringstream Vars(Env);
    std::string Var;
    while (std::getline(Vars, Var, '\0'))
      if (Var == Wanted) {
        Found.push_back(std::atoi(Entry->d_name));
        break;
      }
  }
  closedir(Proc);
  return Found;
}

} // namespace

std::string processStartTime(int Pid) {
  const std::string Stat = readFile(fmt::format("/proc/{}/stat", Pid));
  const size_t Close = Stat.rfind(')');
  if (Close == std::string::npos)
    return "";
  std::istringstream Fields(Stat.substr(Close + 2));
  std::string F;
  // From field 3 (state), field 22 (starttime) is the 20th.
  for (int I = 3; I <= 22 && (Fields >> F); ++I)
    if (I == 22)
      return F;
  return "";
}

bool Watchdog::start() {
  std::random_device Random;
  const std::string Token = fmt::format("{}-{:08x}", getpid(), Random());
  int Fds[2];
  if (pipe2(Fds, O_CLOEXEC) != 0)
    return false;
  const std::string Self = "/proc/self/exe";
  const pid_t Pid = fork();
  if (Pid < 0) {
    close(Fds[0]);
    close(Fds[1]);
    return false;
  }
  if (Pid == 0) {
    // Its own session: a Ctrl-C meant for the harness does not end it (the
    // harness cleans up then, and says "done"), and the harness's group
    // kill does not reach it.
    setsid();
    const int Null = open("/dev/null", O_RDWR);
    for (int Fd : {0, 1, 2})
      dup2(Null, Fd);
    const int Read = dup(Fds[0]); // without O_CLOEXEC
    const std::string FdText = std::to_string(Read);
    execl(Self.c_str(), "libtorch-tidy-verify", WatchdogArgument,
          FdText.c_str(), Token.c_str(), static_cast<char *>(nullptr));
    _exit(127);
  }
  close(Fds[0]);
  Pipe = Fds[1];
  keepRunning(Pid);
  // Every child started from now on carries the token, and their children.
  setenv(RunTokenVariable, Token.c_str(), 1);
  return true;
}

// Not const although no member changes: it tells the watchdog process, over
// the pipe, to clean up one more directory.
// NOLINTNEXTLINE(readability-make-member-function-const)
void Watchdog::watchDirectory(const std::string &Dir) {
  if (Pipe < 0)
    return;
  const std::string Line = "dir " + Dir + "\n";
  (void)!write(Pipe, Line.data(), Line.size());
}

void Watchdog::disarm() {
  if (Pipe < 0)
    return;
  (void)!write(Pipe, "done\n", 5);
  close(Pipe);
  Pipe = -1;
}

int watchdogMain(int Fd, const std::string &Token) {
  for (int Sig : {SIGINT, SIGTERM, SIGHUP, SIGPIPE})
    signal(Sig, SIG_IGN);
  std::string Input;
  char Buffer[4096];
  ssize_t N;
  while ((N = read(Fd, Buffer, sizeof(Buffer))) != 0) {
    if (N < 0 && errno == EINTR)
      continue;
    if (N < 0)
      break;
    Input.append(Buffer, static_cast<size_t>(N));
  }
  std::istringstream Lines(Input);
  std::string Line;
  std::vector<std::string> Dirs;
  while (std::getline(Lines, Line)) {
    if (Line == "done")
      return 0;
    if (Line.rfind("dir ", 0) == 0)
      Dirs.push_back(Line.substr(4));
  }
  // The harness died without saying "done": its processes go first (one
  // may be writing into the scratch copy), until none is left.
  for (int Round = 0; Round < 100; ++Round) {
    std::vector<int> Left = processesWithToken(RunTokenVariable, Token);
    if (Left.empty())
      break;
    for (int Pid : Left)
      if (Pid != getpid())
        kill(Pid, SIGKILL);
    std::this_thread::sleep_for(std::chrono::milliseconds(20));
  }
  std::error_code EC;
  for (const std::string &Dir : Dirs)
    fs::remove_all(Dir, EC);
  return 0;
}

void markOwner(const std::string &Dir) {
  std::ofstream(Dir + "/owner")
      << getpid() << " " << processStartTime(getpid()) << "\n";
}

std::vector<std::string> removeOrphanedScratch(const std::string &TempDir) {
  std::vector<std::string> Removed;
  std::error_code EC;
  for (const auto &Entry : fs::directory_iterator(TempDir, EC)) {
    const std::string Name = Entry.path().filename().string();
    if (Name.rfind("libtorch-tidy-verify-", 0) != 0 ||
        !Entry.is_directory(EC) || Entry.is_symlink(EC))
      continue;
    std::istringstream Owner(readFile((Entry.path() / "owner").string()));
    int Pid = 0;
    std::string Start;
    // No owner file: not ours to judge (another version, or still being
    // created this instant).
    if (!(Owner >> Pid >> Start) || Pid <= 0)
      continue;
    if (processStartTime(Pid) == Start)
      continue; // alive (the start time rules out a reused pid)
    std::error_code RemoveError;
    fs::remove_all(Entry.path(), RemoveError);
    if (!RemoveError)
      Removed.push_back(Entry.path().string());
  }
  return Removed;
}

} // namespace libtorch_tidy::verify
