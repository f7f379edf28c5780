//===--- Main.cpp - The libtorch-tidy command: its subcommands ------------===//
//
// Part of libtorch-tidy. SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//
//
// One executable, six ways in:
//   libtorch-tidy [options] <source>...   the checks (CheckCommand.h)
//   libtorch-tidy --worker-unit=...       one unit, for a parent run or the
//                                         language server (WorkerCommand.h)
//   libtorch-tidy lsp                     the language server (lsp/Server.h)
//   libtorch-tidy merge                   shards' reports (merge/Merge.h)
//   libtorch-tidy remote-cache-keygen     the key pair that signs remote
//                                         cache entries (KeygenCommand.h)
//   libtorch-tidy verify                  the runtime harness, a program of
//                                         its own (runtime-verify/harness)
//
//===----------------------------------------------------------------------===//

#include "config/OptionsSetup.h"
#include "lsp/Server.h"
#include "merge/Merge.h"
#include "model/ExitCodes.h"
#include "run/WorkerProcess.h"
#include "tool/CheckCommand.h"
#include "tool/KeygenCommand.h"
#include "tool/WorkerCommand.h"
#include "llvm/ADT/SmallString.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/InitLLVM.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/raw_ostream.h"
#include <unistd.h>
#include <vector>

using namespace llvm;

namespace clang::tidy {
// Pulls in the `libtorch` module when the checks are linked statically.
extern volatile int LibTorchTidyModuleAnchorSource;
static int LLVM_ATTRIBUTE_UNUSED LibTorchTidyModuleAnchorDestination =
    LibTorchTidyModuleAnchorSource;
} // namespace clang::tidy

namespace libtorch_tidy {
namespace {

std::string thisExecutable(const char *Argv0);

/// `libtorch-tidy verify ...` runs `libtorch-tidy-verify`, installed next to
/// this program; returns only when it cannot be run.
int execVerify(int Argc, const char **Argv) {
  SmallString<256> Verify(sys::path::parent_path(thisExecutable(Argv[0])));
  sys::path::append(Verify, "libtorch-tidy-verify");
  std::vector<char *> Args = {const_cast<char *>(Verify.c_str())};
  for (int I = 2; I < Argc; ++I)
    Args.push_back(const_cast<char *>(Argv[I]));
  Args.push_back(nullptr);
  execv(Verify.c_str(), Args.data());
  errs() << "libtorch-tidy: error: " << Verify
         << " cannot be run; install libtorch-tidy-verify next to "
            "libtorch-tidy\n";
  return ExitUsageError;
}

std::string thisExecutable(const char *Argv0) {
  return sys::fs::getMainExecutable(Argv0,
                                    reinterpret_cast<void *>(&execVerify));
}

int runCommandLine(int Argc, const char **Argv) {
  // `libtorch-tidy merge <report>... -o <file>` joins shards' reports.
  if (Argc > 1 && StringRef(Argv[1]) == "merge")
    return merge::runMergeCommand(ArrayRef<const char *>(Argv + 2, Argc - 2),
                                  outs(), errs());
  if (Argc > 1 && StringRef(Argv[1]) == "remote-cache-keygen")
    return tool::runKeygenCommand(ArrayRef<const char *>(Argv + 2, Argc - 2),
                                  outs(), errs());
  ToolOptions Tool;
  Expected<std::unique_ptr<clang::tooling::CompilationDatabase>> Fixed =
      parseCommandLine(Argc, Argv, Tool);
  if (!Fixed) {
    errs() << "libtorch-tidy: error: " << toString(Fixed.takeError()) << "\n";
    return ExitUsageError;
  }
  // A worker process analyzes its one unit; none of the run's stages are
  // its.
  if (Tool.Worker.isWorker())
    return tool::runWorkerCommand(Tool, std::move(*Fixed), Argv[0]);
  return tool::runCheckCommand(Tool, std::move(*Fixed), Argc, Argv);
}

} // namespace
} // namespace libtorch_tidy

int main(int Argc, const char **Argv) {
  libtorch_tidy::run::noteInheritedSignals();
  if (Argc > 1 && StringRef(Argv[1]) == "verify")
    return libtorch_tidy::execVerify(Argc, Argv);
  // `libtorch-tidy lsp`: its own signal handling, a signal stops its workers
  // before it ends.
  if (Argc > 1 && StringRef(Argv[1]) == "lsp")
    return libtorch_tidy::lsp::runLanguageServer(
        ArrayRef<const char *>(Argv + 2, Argc - 2),
        libtorch_tidy::thisExecutable(Argv[0]));
  InitLLVM X(Argc, Argv);
  return libtorch_tidy::runCommandLine(Argc, Argv);
}
