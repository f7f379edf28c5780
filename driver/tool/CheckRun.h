//===--- CheckRun.h - One run of the checks, stage by stage -----*- C++ -*-===//
//
// Part of libtorch-tidy. SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//
//
// The CLI's pipeline (runCheckCommand), each stage working on
// model::RunResult: configure (the configuration, the units, the checks,
// the queries that end the run there) -> check the outputs -> select units
// -> analyze units (CheckRun.cpp) -> filter findings and fingerprints ->
// fixes -> output, export-fixes, export-summaries -> exit code
// (CheckRunReport.cpp).
//
//===----------------------------------------------------------------------===//

#ifndef LIBTORCH_TIDY_DRIVER_TOOL_CHECKRUN_H
#define LIBTORCH_TIDY_DRIVER_TOOL_CHECKRUN_H

#include "clang-tidy/ClangTidy.h"
#include "clang-tidy/ClangTidyDiagnosticConsumer.h"
#include "config/OptionsSetup.h"
#include "fix/FixApplier.h"
#include "fix/FixSelection.h"
#include "model/Findings.h"
#include "report/ReportStage.h"
#include "report/TextWriter.h"
#include "run/UnitScheduler.h"
#include "select/Exclude.h"
#include "select/UnitSelection.h"
#include "units/CompilationSetup.h"
#include "clang/Tooling/CompilationDatabase.h"
#include "llvm/ADT/SmallString.h"
#include <memory>
#include <optional>
#include <set>
#include <string>
#include <vector>

namespace libtorch_tidy::tool {

/// One run of the checks, stage by stage (the file comment). Each stage
/// returns the run's exit code when the run ends there (an error, or a
/// query such as --list-checks), nothing when the next stage follows.
class CheckRun {
public:
  CheckRun(const ToolOptions &Tool, int Argc, const char **Argv)
      : Tool(Tool), Argc(Argc), Argv(Argv) {}

  std::optional<int>
  configure(std::unique_ptr<clang::tooling::CompilationDatabase> Fixed);
  std::optional<int> checkOutputs();
  std::optional<int> selectUnits();
  std::optional<int> analyze();
  void filterFindings();
  void applyFixes();
  std::optional<int> writeOutputs();
  int finish();

private:
  std::optional<int> answerQueries();
  std::optional<int> readBaseline();
  run::SummaryScope databaseSummaries();
  std::optional<int> exportFixes();
  std::optional<int> exportDatabaseSummaries();
  void printStatistics();

  const ToolOptions &Tool;
  const int Argc;
  const char **const Argv;

  // configure
  std::unique_ptr<clang::tidy::ClangTidyOptionsProvider> Provider;
  std::optional<CompilationSetup> Setup;
  llvm::StringRef FirstFile;
  clang::tidy::ClangTidyOptions Effective;
  std::vector<std::string> Enabled;
  // checkOutputs
  report::OutputFormat Format = report::OutputFormat::Text;
  std::string ProjectRoot;
  std::optional<std::set<std::string>> Baseline;
  std::set<std::string> BaselineFiles;
  // selectUnits
  llvm::SmallString<256> WorkingDir;
  std::optional<select::ExcludeFilter> Exclude;
  std::optional<select::UnitSelection> Selected;
  std::vector<std::string> Units;
  std::vector<model::TranslationUnitResult> UnreadableUnits;
  // analyze
  bool Color = false;
  bool WantFixes = false;
  bool Streaming = false;
  report::TextOrder Order;
  model::RunResult Run;
  // filterFindings
  report::SourceFiles Sources;
  std::vector<model::ReportedDiagnostic> Diagnostics;
  std::vector<model::Finding> UniqueFindings;
  bool AnyUnitFailed = false;
  // applyFixes
  fix::FixOutcome Fixes;
  fix::FixSelection FixChoice;
  /// For each diagnostic, its index in the fixes applied, if it takes part.
  std::vector<std::optional<size_t>> PlanIndex;
  std::optional<clang::tidy::ClangTidyContext> StyleContext;
};

} // namespace libtorch_tidy::tool

#endif // LIBTORCH_TIDY_DRIVER_TOOL_CHECKRUN_H
