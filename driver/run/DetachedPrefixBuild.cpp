//===--- DetachedPrefixBuild.cpp - A prefix built for the next run --------===//
//
// Part of libtorch-tidy. SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

#include "run/DetachedPrefixBuild.h"
#include "worker/WorkerProtocol.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/Support/MemoryBuffer.h"
#include <cerrno>
#include <cstdlib>
#include <fcntl.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

using namespace llvm;

namespace libtorch_tidy::run {

std::vector<std::string> prefixBuilderArguments(ArrayRef<std::string> Args) {
  if (Args.empty())
    return {};
  std::vector<std::string> Rest(Args.begin() + 1, Args.end());
  Expected<worker::WorkerRequest> Request = worker::takeWorkerRequest(Rest);
  // The worker's own command line, which it parsed to get here.
  if (!Request) {
    consumeError(Request.takeError());
    return {};
  }
  Request->Output.clear();
  Request->Prefix = worker::PrefixRole::BuildOnly;
  std::vector<std::string> Out = {Args.front()};
  append_range(Out, Request->arguments());
  append_range(Out, Rest);
  return Out;
}

void startDetachedPrefixBuild() {
  // The worker's own command line, as the parent started it.
  ErrorOr<std::unique_ptr<MemoryBuffer>> CmdLine =
      MemoryBuffer::getFileAsStream("/proc/self/cmdline");
  if (!CmdLine)
    return;
  std::vector<std::string> Own;
  StringRef Rest = (*CmdLine)->getBuffer();
  while (!Rest.empty()) {
    auto [Arg, Next] = Rest.split('\0');
    Own.push_back(Arg.str());
    Rest = Next;
  }
  if (Own.empty())
    return;
  std::vector<std::string> Args = prefixBuilderArguments(Own);
  if (Args.empty())
    return;
  std::vector<char *> Argv;
  Argv.reserve(Args.size());
  for (std::string &A : Args)
    Argv.push_back(A.data());
  Argv.push_back(nullptr);

  // Twice forked: the builder is nobody's child that waits for it, and in a
  // session of its own the run's signals and process-group kills (a timed
  // out worker's group) do not reach it.
  const pid_t Child = fork();
  if (Child < 0)
    return;
  if (Child == 0) {
    if (setsid() < 0 || fork() != 0)
      _exit(0);
    setpriority(PRIO_PROCESS, 0, 19);
    const int Null = open("/dev/null", O_RDWR);
    for (int Fd = 0; Fd < 3; ++Fd)
      dup2(Null, Fd);
    for (int Fd = 3; Fd < 1024; ++Fd)
      close(Fd);
    // Not a worker of this run: it must outlive it (WorkerProcess.cpp).
    unsetenv("LIBTORCH_TIDY_WORKER_PARENT");
    unsetenv("LIBTORCH_TIDY_WORKER_LOG");
    execv(Argv[0], Argv.data());
    _exit(127);
  }
  int Status;
  while (waitpid(Child, &Status, 0) < 0 && errno == EINTR) {
  }
}

} // namespace libtorch_tidy::run
