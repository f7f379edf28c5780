//===--- CheckCommand.cpp - The libtorch-tidy command-line run ------------===//
//
// Part of libtorch-tidy. SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//
//
// `libtorch-tidy [options] <source>...`: the check table, or a run of the
// checks, stage by stage (CheckRun.h).
//
//===----------------------------------------------------------------------===//

#include "tool/CheckCommand.h"
#include "model/ExitCodes.h"
#include "report/CheckTable.h"
#include "tool/CheckRun.h"
#include "llvm/Support/raw_ostream.h"

using namespace llvm;

namespace libtorch_tidy::tool {

/// The run, stage by stage.
int runCheckCommand(const ToolOptions &Tool,
                    std::unique_ptr<clang::tooling::CompilationDatabase> Fixed,
                    int Argc, const char **Argv) {
  if (Tool.PrintCheckTable) {
    outs() << renderCheckTable();
    return ExitNoFindings;
  }
  CheckRun Run(Tool, Argc, Argv);
  if (std::optional<int> Done = Run.configure(std::move(Fixed)))
    return *Done;
  if (std::optional<int> Done = Run.checkOutputs())
    return *Done;
  if (std::optional<int> Done = Run.selectUnits())
    return *Done;
  if (std::optional<int> Done = Run.analyze())
    return *Done;
  Run.filterFindings();
  Run.applyFixes();
  if (std::optional<int> Done = Run.writeOutputs())
    return *Done;
  return Run.finish();
}

} // namespace libtorch_tidy::tool
