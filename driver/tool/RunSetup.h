//===--- RunSetup.h - What every process of a run sets up first -*- C++ -*-===//
//
// Part of libtorch-tidy. SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//
//
// The CLI's run (CheckCommand.h) and each of its workers (WorkerCommand.h)
// set up the same things from the same command line before they analyze:
// the file system (--vfsoverlay), the check configuration, the units and
// their compilation database, the configurations discovered beside them,
// and the CheckOptions values. Done here once, so that a worker sees what
// its parent saw, and a new set-up step cannot reach only one of them.
//
//===----------------------------------------------------------------------===//

#ifndef LIBTORCH_TIDY_DRIVER_TOOL_RUNSETUP_H
#define LIBTORCH_TIDY_DRIVER_TOOL_RUNSETUP_H

#include "clang-tidy/ClangTidyOptions.h"
#include "config/OptionsSetup.h"
#include "units/CompilationSetup.h"
#include "clang/Tooling/CompilationDatabase.h"
#include "llvm/Support/Error.h"
#include "llvm/Support/VirtualFileSystem.h"
#include "llvm/Support/raw_ostream.h"
#include <memory>

namespace libtorch_tidy::tool {

/// The file system and check configuration of a run.
struct RunConfiguration {
  /// The real file system under --vfsoverlay's files.
  llvm::IntrusiveRefCntPtr<llvm::vfs::OverlayFileSystem> Files;
  std::unique_ptr<clang::tidy::ClangTidyOptionsProvider> Provider;
};

/// --vfsoverlay, then the check configuration (--config, --config-file,
/// .clang-tidy discovery, --checks).
llvm::Expected<RunConfiguration> configureRun(const ToolOptions &Tool);

/// The run's units and their compile commands (\p Fixed: the database given
/// after `--`), with the configurations discovered beside them checked.
llvm::Expected<CompilationSetup>
setUpUnits(const ToolOptions &Tool,
           std::unique_ptr<clang::tooling::CompilationDatabase> Fixed,
           const char *Argv0);

/// Writes an error line to \p Errors for each CheckOptions value no check
/// can read in the configuration of \p File; whether there was one (the
/// configuration's error, not a finding of every unit).
bool reportInvalidCheckOptionValues(
    clang::tidy::ClangTidyOptionsProvider &Provider, llvm::StringRef File,
    llvm::raw_ostream &Errors);

} // namespace libtorch_tidy::tool

#endif // LIBTORCH_TIDY_DRIVER_TOOL_RUNSETUP_H
