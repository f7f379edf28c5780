//===--- WorkerCommand.h - The worker process's side of a run ---*- C++ -*-===//
//
// Part of libtorch-tidy. SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//
//
// A worker is the tool re-run by the parent (run/Workers.h) with
// `--worker-unit=<file> --worker-output=<file>` before the parent's own
// arguments. It branches off right after the command line is parsed: it
// sets up the configuration and the compilation database as the parent did,
// analyzes its one unit and writes the result (run/Workers.h); none of the
// parent's stages (selection, report, fixes) are its.
//
//===----------------------------------------------------------------------===//

#ifndef LIBTORCH_TIDY_DRIVER_TOOL_WORKERCOMMAND_H
#define LIBTORCH_TIDY_DRIVER_TOOL_WORKERCOMMAND_H

#include "config/OptionsSetup.h"
#include "clang/Tooling/CompilationDatabase.h"
#include <memory>

namespace libtorch_tidy::tool {

/// Worker mode (`--worker-unit`): analyzes one unit in this process and hands
/// the result to the parent. Returns exit code 0 whenever the result was
/// written, whatever the unit's state; 2 when the setup failed (the error is
/// on standard error, which the parent reads) or the result could not be
/// written. \p Fixed is the database given after `--`, \p Argv0 the tool's
/// argv[0].
int runWorkerCommand(const ToolOptions &Tool,
                     std::unique_ptr<clang::tooling::CompilationDatabase> Fixed,
                     const char *Argv0);

} // namespace libtorch_tidy::tool

#endif // LIBTORCH_TIDY_DRIVER_TOOL_WORKERCOMMAND_H
