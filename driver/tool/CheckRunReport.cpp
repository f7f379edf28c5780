//===--- CheckRunReport.cpp - The run after the analysis ------------------===//
//
// Part of libtorch-tidy. SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

#include "io/FileIO.h"
#include "model/ExitCodes.h"
#include "report/Baseline.h"
#include "report/ExportFixesWriter.h"
#include "report/RunStatistics.h"
#include "tool/CheckRun.h"
#include "tool/SummaryExport.h"
#include "llvm/ADT/StringSet.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/raw_ostream.h"
#include <algorithm>

using namespace clang::tidy;
using namespace llvm;

namespace libtorch_tidy::tool {

using model::Finding;
using model::RunResult;
using model::TranslationUnitResult;

namespace {

/// Whether a finding makes the exit code 1 (`--fail-on`; findings of
/// --warnings-as-errors checks always do, as in clang-tidy).
bool countsForExit(const Finding &F, StringRef FailOn) {
  if (F.Severity == "error")
    return true;
  if (FailOn == "all")
    return true;
  if (FailOn == "none")
    return false;
  return F.Tier == FailOn;
}

} // namespace

/// `--diff`, fingerprints, then `--baseline` (driver/report/ReportStage.h);
/// `--exclude` filtered each unit as it was ready.
void CheckRun::filterFindings() {
  if (Selected->Changes)
    select::keepFindingsOnChangedLines(Run, *Selected->Changes);
  Sources.onlyAsParsed(Run);
  const unsigned InBaseline = report::fingerprintAndFilter(
      Run, ProjectRoot, Baseline ? &*Baseline : nullptr, Sources);
  Diagnostics = model::uniqueDiagnostics(Run, /*WithCompilerErrors=*/true);
  UniqueFindings = model::uniqueFindings(Run);
  // A baseline of another checkout or root matched nothing: say so, rather
  // than report every finding as new without a word.
  if (Baseline && InBaseline == 0 && !Baseline->empty() &&
      !UniqueFindings.empty() &&
      report::namesNoFileOf(BaselineFiles, Run,
                            Setup->Compilations->getAllFiles()))
    errs() << "libtorch-tidy: warning: the baseline '" << Tool.Baseline
           << "' matched no finding and names no file of this project (root '"
           << ProjectRoot
           << "'; taken in another checkout, with another --sarif-root, or "
              "from another directory): every finding counts as new; take "
              "baselines with the --sarif-root of the runs that use them\n";
  AnyUnitFailed = !model::unitsWithProblems(Run).empty();
}

/// Per unit (driver/fix/FixSelection.h, docs/fixes.md): a unit with
/// compiler errors contributes no fixes unless --fix-errors, and every
/// clean unit's fixes are applied. The FixApplier (driver/fix/) plans whole
/// fixes, skips and reports overlapping ones, and checks every file against
/// the digest of the bytes the analysis parsed before anything is written.
/// The files are written before the output, which then says which fixes
/// were written, and still shows the code as it was analyzed.
void CheckRun::applyFixes() {
  PlanIndex.assign(Diagnostics.size(), std::nullopt);
  if (!WantFixes)
    return;
  fix::FixOptions FixOptions;
  FixOptions.FixNotes = Tool.FixNotes;
  StyleContext.emplace(std::move(Provider));
  FixOptions.StyleFor = [&](StringRef File) {
    return StyleContext->getOptionsForFile(File).FormatStyle.value_or("none");
  };
  FixChoice = fix::selectFixes(Run, Diagnostics, Tool.FixErrors, Tool.FixNotes);
  std::vector<const Finding *> ToFix;
  for (size_t I = 0; I < Diagnostics.size(); ++I)
    if (FixChoice.Eligible[I]) {
      PlanIndex[I] = ToFix.size();
      ToFix.push_back(Diagnostics[I].Diagnostic);
    }
  Fixes = fix::applyFixes(Run, ToFix, FixOptions);
}

/// The report of the run in its format (unless the text streamed);
/// `--output` sends it to a file, written atomically (the summary line
/// stays on stderr). Then the units that failed, --export-fixes and
/// --export-summaries.
std::optional<int> CheckRun::writeOutputs() {
  std::string Rendered;
  if (!Streaming) {
    report::FixOutcomes Outcomes;
    for (size_t I = 0; I < Diagnostics.size(); ++I)
      if (PlanIndex[I])
        Outcomes.emplace(model::keyOf(*Diagnostics[I].Diagnostic),
                         Fixes.PerFinding[*PlanIndex[I]]);
    report::TextRendering Text;
    Text.Color = Color;
    Text.Outcomes = &Outcomes;
    Text.Originals = &Fixes.Originals;
    Rendered = report::renderReport(Run, Format, ProjectRoot, Sources, Text);
  }
  if (Error E = report::emitReport(Rendered, Tool.Output, outs())) {
    errs() << "libtorch-tidy: error: " << toString(std::move(E)) << "\n";
    return ExitUsageError;
  }
  for (const TranslationUnitResult *Unit : model::unitsWithProblems(Run)) {
    if (Unit->State == TranslationUnitResult::Status::Failed)
      errs() << "libtorch-tidy: error: '" << Unit->MainFile
             << "': " << Unit->FailureMessage << "\n";
    else if (!Unit->MissingHeaders.empty())
      errs() << "libtorch-tidy: warning: '" << Unit->MainFile
             << "': " << Unit->FailureMessage
             << "; install what provides it, or add its directory to the "
                "compile command\n";
  }
  if (std::optional<int> Done = exportFixes())
    return Done;
  return exportDatabaseSummaries();
}

/// clang-tidy's YAML.
std::optional<int> CheckRun::exportFixes() {
  if (Tool.ExportFixes.empty() || Diagnostics.empty())
    return std::nullopt;
  std::vector<report::ExportedDiagnostic> Export;
  Export.reserve(Diagnostics.size());
  for (const model::ReportedDiagnostic &R : Diagnostics)
    Export.push_back({R.Diagnostic, R.Unit->BuildDirectory});
  std::string Yaml;
  raw_string_ostream OS(Yaml);
  report::writeExportFixes(OS, FirstFile, Export);
  OS.flush();
  outs().flush();
  if (std::optional<std::string> Problem =
          io::writeFile(Tool.ExportFixes, Yaml, io::FileMode::Fresh)) {
    errs() << "libtorch-tidy: error: " << *Problem << " (--export-fixes)\n";
    return ExitUsageError;
  }
  return std::nullopt;
}

/// checks/Summaries.h's file.
std::optional<int> CheckRun::exportDatabaseSummaries() {
  if (Tool.ExportSummaries.empty())
    return std::nullopt;
  // The database's units, spelled as a unit's main file is; a command
  // line without a database (`--`) lists none, and keeps every entry.
  StringSet<> DatabaseUnits;
  for (const std::string &Entry : Setup->Compilations->getAllFiles()) {
    SmallString<256> File(Entry);
    sys::path::remove_dots(File, /*remove_dot_dot=*/true);
    DatabaseUnits.insert(File);
  }
  if (std::optional<std::string> Problem =
          exportSummaries(Tool.ExportSummaries, Run,
                          DatabaseUnits.empty() ? nullptr : &DatabaseUnits)) {
    errs() << "libtorch-tidy: error: " << *Problem << " (--export-summaries)\n";
    return ExitUsageError;
  }
  return std::nullopt;
}

void CheckRun::printStatistics() {
  // With --store-check-profile the units wrote clang-tidy's JSON instead.
  if (Tool.EnableCheckProfile && Tool.StoreCheckProfile.empty())
    report::printCheckProfile(Run, errs());
  if (Tool.Quiet)
    return;
  report::printSuppressionStats(Run, errs());
  for (const std::string &Conflict : Fixes.ConflictMessages)
    errs() << Conflict << "\n";
  const size_t Replayed =
      std::count_if(Run.Units.begin(), Run.Units.end(),
                    [](const TranslationUnitResult &U) { return U.FromCache; });
  if (Selected->Excluded)
    errs() << "libtorch-tidy: " << Selected->Excluded
           << (Selected->Excluded == 1 ? " unit" : " units")
           << " excluded (--exclude, libtorch-tidy.Exclude)\n";
  if (Replayed)
    errs() << "libtorch-tidy: " << Replayed << " of " << Run.Units.size()
           << (Run.Units.size() == 1 ? " unit" : " units")
           << " unchanged, results replayed from the cache\n";
  errs() << report::summaryLine(UniqueFindings) << "\n";
}

/// The statistics, what --fix did, and the exit code.
int CheckRun::finish() {
  unsigned WarningsAsErrors = 0;
  bool Failing = false;
  for (const Finding &F : UniqueFindings) {
    WarningsAsErrors += F.Severity == "error";
    Failing |= countsForExit(F, Tool.FailOn);
  }
  printStatistics();
  // What --fix did is said even with --quiet: a run that changes nothing
  // must not look like one that fixed everything.
  if (WantFixes) {
    for (const std::string &Reason : FixChoice.Reasons)
      errs() << "libtorch-tidy: " << Reason << "\n";
    if (Fixes.Suggested > 0 || FixChoice.Withheld > 0)
      errs() << "libtorch-tidy applied " << Fixes.AppliedReplacements << " of "
             << Fixes.Suggested << " suggested fixes"
             << (FixChoice.Withheld
                     ? "; " + std::to_string(FixChoice.Withheld) + " withheld"
                     : std::string())
             << ".\n";
  }
  // A file that cannot be fixed is an error even with --quiet.
  for (const std::string &Failure : Fixes.Errors)
    errs() << "libtorch-tidy: error: " << Failure << "\n";
  if (WarningsAsErrors)
    errs() << WarningsAsErrors << " warning"
           << (WarningsAsErrors == 1 ? "" : "s") << " treated as error"
           << (WarningsAsErrors == 1 ? "" : "s") << "\n";

  if (!Fixes.Errors.empty())
    return ExitUsageError;
  if (AnyUnitFailed)
    return ExitParseFailed;
  return Failing ? ExitFindings : ExitNoFindings;
}

} // namespace libtorch_tidy::tool
