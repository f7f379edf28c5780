//===--- CheckCommand.h - The libtorch-tidy command-line run ----*- C++ -*-===//
//
// Part of libtorch-tidy. SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//
//
// `libtorch-tidy [options] <source>...`: a clang-tidy-compatible front end
// for the `libtorch` checks: the same flags where they overlap, `.clang-tidy`
// discovery, NOLINT, fixes and export-fixes, but LibTorch's default check set
// and documented exit codes (model/ExitCodes.h).
//
//===----------------------------------------------------------------------===//

#ifndef LIBTORCH_TIDY_DRIVER_TOOL_CHECKCOMMAND_H
#define LIBTORCH_TIDY_DRIVER_TOOL_CHECKCOMMAND_H

#include "config/OptionsSetup.h"
#include "clang/Tooling/CompilationDatabase.h"
#include <memory>

namespace libtorch_tidy::tool {

/// Runs the checks over the units \p Tool names (\p Fixed: the database
/// given after `--`) and reports; returns the exit code. \p Argc and
/// \p Argv are the command line, which the workers are started with.
int runCheckCommand(const ToolOptions &Tool,
                    std::unique_ptr<clang::tooling::CompilationDatabase> Fixed,
                    int Argc, const char **Argv);

} // namespace libtorch_tidy::tool

#endif // LIBTORCH_TIDY_DRIVER_TOOL_CHECKCOMMAND_H
