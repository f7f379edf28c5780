//===--- UnitScheduler.h - Analyze units: cache, then workers ---*- C++ -*-===//
//
// Part of libtorch-tidy. SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//
//
// The analysis stage of the CLI's pipeline. The parent process replays
// unchanged units from the result cache and hands the others to worker
// processes (re-executions of the tool with `--worker-unit`), `-j` at a
// time; a worker analyzes its one unit and writes the result as JSON. Each
// unit is handed on in order as soon as the units before it are done, which
// lets the text output stream.
//
//===----------------------------------------------------------------------===//

#ifndef LIBTORCH_TIDY_DRIVER_RUN_UNITSCHEDULER_H
#define LIBTORCH_TIDY_DRIVER_RUN_UNITSCHEDULER_H

#include "clang-tidy/ClangTidyOptions.h"
#include "model/Findings.h"
#include "run/AnalysisSettings.h"
#include "run/DatabaseSummaries.h"
#include "run/SchedulerOptions.h"
#include "run/UnitKeys.h"
#include "units/CompilationSetup.h"
#include "llvm/ADT/ArrayRef.h"
#include "llvm/Support/VirtualFileSystem.h"

#include <functional>
#include <memory>
#include <string>
#include <vector>

namespace libtorch_tidy::run {

/// Called once per unit, in the order of the units, as soon as that unit
/// and every unit before it are done (so what it prints does not depend on
/// `-j` or on the order workers finish in). It may refine the unit (drop
/// excluded findings) before the unit is printed and kept in the result;
/// the result cache has stored it as analyzed.
using UnitReady =
    std::function<void(size_t Index, model::TranslationUnitResult &)>;

/// Analyzes \p Units: unchanged ones are replayed from the result cache,
/// the others run in worker processes, `-j` at a time, started in the order
/// of \p Units. With \p Scope enabled, the checks read the summaries of
/// the database's units (DatabaseSummaries.h), and a unit that calls
/// functions defined elsewhere is handed on once they are known. The result is
/// in the order of \p Units whatever order the workers finish in; \p Ready (may
/// be empty) sees each unit in that order as soon as it can. Progress
/// (`--progress`) goes to standard error, as do the workers' own messages, each
/// before its unit's \p Ready. \p Argc and \p Argv are the tool's own command
/// line, which workers repeat.
std::vector<model::TranslationUnitResult>
analyzeUnits(const SchedulerOptions &Tool, const CompilationSetup &Setup,
             llvm::ArrayRef<std::string> Units, const SummaryScope &Scope,
             clang::tidy::ClangTidyOptionsProvider &Provider, int Argc,
             const char **Argv, const UnitReady &Ready);

} // namespace libtorch_tidy::run

#endif // LIBTORCH_TIDY_DRIVER_RUN_UNITSCHEDULER_H
