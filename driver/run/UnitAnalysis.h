//===--- UnitAnalysis.h - Analyze one translation unit ----------*- C++ -*-===//
//
// Part of libtorch-tidy. SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//
//
// Parses one source file once and runs every enabled check over it, the way
// clang-tidy's runClangTidy does, with one difference: the bodies of ordinary
// functions declared in system headers are skipped (see SkippingConsumer in
// the .cpp). The result is the tool-independent TranslationUnitResult.
//
//===----------------------------------------------------------------------===//

#ifndef LIBTORCH_TIDY_DRIVER_RUN_UNITANALYSIS_H
#define LIBTORCH_TIDY_DRIVER_RUN_UNITANALYSIS_H

#include "clang-tidy/ClangTidyOptions.h"
#include "model/Findings.h"
#include "run/AnalysisSettings.h"
#include "clang/Tooling/CompilationDatabase.h"
#include "llvm/Support/VirtualFileSystem.h"
#include <memory>
#include <string>
#include <utility>
#include <vector>

namespace libtorch_tidy::run {

/// Analyzes \p File (absolute) with its command from \p Compilations in this
/// process. Findings in user headers are included as clang-tidy reports
/// them (header filter, NOLINT, line filter applied). Never throws; a unit
/// that could not be processed at all comes back `Failed`.
/// When \p Dependencies is given, it receives every file the compiler read
/// (absolute real path) with the xxHash64 of the content it parsed, in hex,
/// and every path where a `__has_include` found nothing, with
/// cache::AbsentFileHash.
model::TranslationUnitResult analyzeUnit(
    std::unique_ptr<clang::tidy::ClangTidyOptionsProvider> Options,
    const clang::tooling::CompilationDatabase &Compilations,
    llvm::StringRef File,
    const llvm::IntrusiveRefCntPtr<llvm::vfs::OverlayFileSystem> &BaseFS,
    const AnalysisSettings &Settings,
    std::vector<std::pair<std::string, std::string>> *Dependencies = nullptr);

} // namespace libtorch_tidy::run

#endif // LIBTORCH_TIDY_DRIVER_RUN_UNITANALYSIS_H
