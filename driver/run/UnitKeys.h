//===--- UnitKeys.h - What every process of a run agrees on -----*- C++ -*-===//
//
// Part of libtorch-tidy. SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//
//
// What the CLI's parent, its workers and the language server's workers
// compute alike from the command line: a unit's analysis settings and the
// parts of its cache keys. A lookup in one process finds what another
// stored only while they agree.
//
//===----------------------------------------------------------------------===//

#ifndef LIBTORCH_TIDY_DRIVER_RUN_UNITKEYS_H
#define LIBTORCH_TIDY_DRIVER_RUN_UNITKEYS_H

#include "run/AnalysisSettings.h"
#include "run/SchedulerOptions.h"
#include "units/CompilationSetup.h"
#include "llvm/ADT/StringRef.h"
#include <string>
#include <vector>

namespace clang::tidy {
class ClangTidyOptionsProvider;
} // namespace clang::tidy

namespace libtorch_tidy::run {

/// The parts of \p File's cache key that are not file contents, less the
/// tool's identity (the local cache adds its binary's, the remote cache its
/// version): its path, compile command, the compiler's environment, its
/// effective configuration and the analysis settings.
std::vector<std::string>
unitKeyParts(const SchedulerOptions &Tool, const CompilationSetup &Setup,
             clang::tidy::ClangTidyOptionsProvider &Provider,
             llvm::StringRef File);

/// The directory the remote cache's keys and entries hold paths relative to:
/// `--cache-base-dir`, else the project root of the current directory.
std::string remoteCacheBase(const SchedulerOptions &Tool);

/// The settings of a unit's analysis that \p Tool gives (the same in the
/// parent, for the cache key, and in the worker).
AnalysisSettings analysisSettings(const SchedulerOptions &Tool);

} // namespace libtorch_tidy::run

#endif // LIBTORCH_TIDY_DRIVER_RUN_UNITKEYS_H
