//===--- UnitContexts.h - The clang-tidy contexts of a unit -----*- C++ -*-===//
//
// Part of libtorch-tidy. SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//
//
// What clang-tidy's runClangTidy (ClangTidy.cpp) sets up around one file's
// parse, apart from the parse itself (UnitAnalysis.h): the contexts its
// checks run in, the adjustments of its compile command, the profiler, and
// what the contexts counted.
//
//===----------------------------------------------------------------------===//

#ifndef LIBTORCH_TIDY_DRIVER_RUN_UNITCONTEXTS_H
#define LIBTORCH_TIDY_DRIVER_RUN_UNITCONTEXTS_H

#include "clang-tidy/ClangTidyDiagnosticConsumer.h"
#include "clang-tidy/ClangTidyOptions.h"
#include "model/Findings.h"
#include "run/AnalysisSettings.h"
#include "clang/Tooling/ArgumentsAdjusters.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/ADT/StringRef.h"
#include <map>
#include <memory>
#include <string>
#include <vector>

namespace libtorch_tidy::run {

/// The clang-tidy contexts one unit's checks run in: one for them all, or,
/// when some need the whole unit while the others run with system bodies
/// skipped (SkippingConsumer), a second one for those.
struct UnitContexts {
  /// The checks enabled for the unit.
  std::vector<std::string> Enabled;
  std::unique_ptr<clang::tidy::ClangTidyContext> Main;
  /// The whole-unit checks' context; null when Main runs every check.
  std::unique_ptr<clang::tidy::ClangTidyContext> WholeUnit;

  /// Main, and WholeUnit when there is one.
  llvm::SmallVector<clang::tidy::ClangTidyContext *, 2> all() const;
};

/// The contexts of \p File's checks under \p Shared's options.
UnitContexts unitContexts(
    const std::shared_ptr<clang::tidy::ClangTidyOptionsProvider> &Shared,
    llvm::StringRef File, const AnalysisSettings &Settings);

/// What clang-tidy does to a compile command with the options of its file:
/// `--removed-arg` first, then `--extra-arg-before` and `--extra-arg` (and
/// ExtraArgs from `.clang-tidy`).
clang::tooling::ArgumentsAdjuster
clangTidyArgumentsAdjuster(clang::tidy::ClangTidyContext &Context);

/// Turns the profiler on in every context for `--enable-check-profile`;
/// the directory made to collect the profiles in (collectProfile), empty
/// when there is none to collect (`--store-check-profile` names one, or
/// profiling is off).
std::string enableProfiling(const UnitContexts &Contexts,
                            const AnalysisSettings &Settings);

/// Reads the per-check times clang-tidy's profiler stored as JSON under
/// \p Dir (one file per unit) into \p Profile, then removes them.
void collectProfile(llvm::StringRef Dir,
                    std::map<std::string, double> &Profile);

/// Adds what the contexts left out (NOLINT, non-user code, line and check
/// filters) to \p Unit's counts.
void addSuppressedCounts(const UnitContexts &Contexts,
                         model::TranslationUnitResult &Unit);

} // namespace libtorch_tidy::run

#endif // LIBTORCH_TIDY_DRIVER_RUN_UNITCONTEXTS_H
