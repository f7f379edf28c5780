//===--- CheckCommand.cpp - The libtorch-tidy command-line run ------------===//
//
// Part of libtorch-tidy. SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//
//
// The pipeline, each stage working on model::RunResult:
//   set up the run (RunSetup.h) -> collect units -> select units ->
//   analyze units -> filter findings -> fingerprints -> fixes -> output ->
//   export-fixes -> exit code.
//
//===----------------------------------------------------------------------===//

#include "tool/CheckCommand.h"
#include "clang-compat/ClangCompat.h"
#include "clang-tidy/ClangTidy.h"
#include "clang-tidy/ClangTidyDiagnosticConsumer.h"
#include "config/CheckOptionValues.h"
#include "config/ConfigQueries.h"
#include "config/OptionsSetup.h"
#include "fix/FixApplier.h"
#include "fix/FixSelection.h"
#include "io/FileIO.h"
#include "model/ExitCodes.h"
#include "model/Findings.h"
#include "report/Baseline.h"
#include "report/CheckTable.h"
#include "report/ExportFixesWriter.h"
#include "report/ReportStage.h"
#include "report/RunStatistics.h"
#include "report/TextWriter.h"
#include "run/UnitScheduler.h"
#include "run/WorkerProcess.h"
#include "select/UnitSelection.h"
#include "tool/RunSetup.h"
#include "tool/SummaryExport.h"
#include "units/CompilationSetup.h"
#include "llvm/ADT/SmallString.h"
#include "llvm/ADT/StringSet.h"
#include "llvm/Config/llvm-config.h"
#include "llvm/Support/CommandLine.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/InitLLVM.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/Process.h"
#include "llvm/Support/VirtualFileSystem.h"
#include "llvm/Support/raw_ostream.h"
#include <algorithm>
#include <map>
#include <optional>
#include <set>
#include <thread>
#include <tuple>

#include <unistd.h>
#include <vector>

using namespace clang::tidy;
using namespace llvm;

namespace libtorch_tidy::tool {
namespace {

using model::Finding;
using model::RunResult;
using model::TranslationUnitResult;

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

int runCheckCommand(const ToolOptions &Tool,
                    std::unique_ptr<clang::tooling::CompilationDatabase> Fixed,
                    int Argc, const char **Argv) {
  if (Tool.PrintCheckTable) {
    outs() << renderCheckTable();
    return ExitNoFindings;
  }

  Expected<RunConfiguration> Configured = configureRun(Tool);
  if (!Configured) {
    errs() << "libtorch-tidy: error: " << toString(Configured.takeError())
           << "\n";
    return ExitUsageError;
  }
  std::unique_ptr<ClangTidyOptionsProvider> &Provider = Configured->Provider;
  // --explain-config, --verify-config (ConfigQueries.h).
  if (std::optional<int> Code = runConfigQuery(Tool, *Provider))
    return *Code;

  // Collect the translation units (files named, or the whole database).
  Expected<CompilationSetup> Setup =
      setUpUnits(Tool, std::move(Fixed), Argv[0]);
  if (!Setup) {
    errs() << "libtorch-tidy: error: " << toString(Setup.takeError()) << "\n";
    return ExitUsageError;
  }
  // Misspelled options of our checks, once per run (not per worker).
  warnUnknownCheckOptions(Tool, Setup->Files, errs());

  // Options are looked up for the first input, as clang-tidy does.
  StringRef FirstFile =
      Setup->Files.empty() ? StringRef("dummy") : StringRef(Setup->Files[0]);
  ClangTidyOptions Effective = Provider->getOptions(FirstFile);
  std::vector<std::string> Enabled = clang::compat::enabledCheckNames(
      Effective, Tool.ExperimentalCustomChecks);

  if (Tool.ListChecks) {
    outs() << "Enabled checks:";
    for (const std::string &Check : Enabled)
      outs() << "\n    " << Check;
    outs() << "\n\n";
    return ExitNoFindings;
  }
  if (Tool.DumpConfig) {
    Effective.CheckOptions.clear();
    outs() << configurationAsText(
                  ClangTidyOptions::getDefaults().merge(Effective, 0))
           << "\n";
    return ExitNoFindings;
  }
  if (Enabled.empty() && Tool.AllowNoChecks) {
    outs() << "No checks enabled.\n"; // clang-tidy's words
    return ExitNoFindings;
  }
  if (Enabled.empty()) {
    errs() << "libtorch-tidy: error: no checks are enabled for '" << FirstFile
           << "'; a .clang-tidy file or --checks disables them all: add "
              "'libtorch-*' to its Checks\n";
    return ExitUsageError;
  }
  if (Setup->Files.empty()) {
    if (Tool.Diff && Tool.Sources.empty() && Tool.BuildPath.empty())
      errs() << "libtorch-tidy: error: --diff without source files needs "
                "the compilation database: pass -p <build dir> (the "
                "directory with compile_commands.json; in the "
                "libtorch-tidy-diff pre-commit hook, args: [-p=build])\n";
    else
      errs() << "libtorch-tidy: error: no input files; name the sources to "
                "analyze, e.g. 'libtorch-tidy -p build src/train.cpp'\n";
    return ExitUsageError;
  }

  // A CheckOptions value no check can read is the configuration's error,
  // not a finding of every unit.
  if (reportInvalidCheckOptionValues(*Provider, FirstFile, errs()))
    return ExitUsageError;
  // Fail on a bad --sarif-root or --baseline before analyzing anything.
  const report::OutputFormat Format = cantFail(
      report::parseOutputFormat(Tool.Format)); // validated by the parser
  Expected<std::string> ProjectRoot =
      report::resolveProjectRoot(Tool.SarifRoot);
  if (!ProjectRoot) {
    errs() << "libtorch-tidy: error: " << toString(ProjectRoot.takeError())
           << "\n";
    return ExitUsageError;
  }
  for (const std::string *Path : {&Tool.Output, &Tool.ExportFixes})
    if (Error E = report::checkOutputPath(*Path)) {
      errs() << "libtorch-tidy: error: " << toString(std::move(E)) << "\n";
      return ExitUsageError;
    }
  if (!Tool.ExportSummaries.empty())
    if (std::optional<std::string> Problem =
            summaryExportProblem(Tool.ExportSummaries)) {
      errs() << "libtorch-tidy: error: " << *Problem << "\n";
      return ExitUsageError;
    }
  std::optional<std::set<std::string>> Baseline;
  std::set<std::string> BaselineFiles;
  if (!Tool.Baseline.empty()) {
    // Read once: its fingerprints, and the files it names.
    Expected<nlohmann::json> Document =
        report::readBaselineDocument(Tool.Baseline);
    Expected<std::set<std::string>> Known =
        Document ? report::baselineFingerprints(*Document, Tool.Baseline)
                 : Expected<std::set<std::string>>(Document.takeError());
    if (!Known) {
      errs() << "libtorch-tidy: error: " << toString(Known.takeError()) << "\n";
      return ExitUsageError;
    }
    Baseline = std::move(*Known);
    BaselineFiles = report::baselineFiles(*Document, *ProjectRoot);
  }

  // --- Select units. ---
  // `--exclude`, `--diff` and `--shard` (driver/select/). An empty selection
  // is not an error: nothing to do. Database entries that cannot be read take
  // part in the selection, and the selected ones are reported as failed
  // units.
  std::vector<std::string> Candidates = Setup->Files;
  for (const UnusableInput &Unreadable : Setup->Unreadable)
    Candidates.push_back(Unreadable.File);
  SmallString<256> WorkingDir;
  if (std::error_code EC = sys::fs::current_path(WorkingDir)) {
    errs() << "libtorch-tidy: error: cannot read the working directory ("
           << EC.message() << "); run from a directory that exists\n";
    return ExitUsageError;
  }
  const select::ExcludeFilter Exclude = select::ExcludeFilter::create(
      Tool.Exclude, WorkingDir, Tool.ConfigFile, *Provider, Candidates);
  Expected<select::UnitSelection> Selected = select::selectUnits(
      Candidates, Exclude, Tool.Diff, Tool.Shard, *Setup->Compilations);
  if (!Selected) {
    errs() << "libtorch-tidy: error: " << toString(Selected.takeError())
           << "\n";
    return ExitUsageError;
  }
  std::vector<std::string> Units;
  std::vector<TranslationUnitResult> UnreadableUnits;
  for (std::string &Unit : Selected->Units) {
    auto Unreadable =
        llvm::find_if(Setup->Unreadable,
                      [&](const UnusableInput &U) { return U.File == Unit; });
    if (Unreadable == Setup->Unreadable.end()) {
      Units.push_back(std::move(Unit));
      continue;
    }
    TranslationUnitResult Failed;
    Failed.MainFile = Unit;
    Failed.State = TranslationUnitResult::Status::Failed;
    Failed.FailureMessage = Unreadable->Message;
    UnreadableUnits.push_back(std::move(Failed));
  }

  // Units are analyzed, and the text output printed, in path order
  // (report::TextOrder).
  std::stable_sort(Units.begin(), Units.end());

  // --- Output settings, needed before the analysis when text streams. ---
  const bool ToFile = !Tool.Output.empty() && Tool.Output != "-";
  const bool Color =
      !ToFile && Tool.Color.value_or(sys::Process::StandardOutHasColors());
  if (Color && !sys::Process::StandardOutIsDisplayed())
    sys::Process::UseANSIEscapeCodes(true);
  if (Tool.Color && !ToFile)
    outs().enable_colors(*Tool.Color);
  const bool WantFixes = Tool.Fix || Tool.FixErrors || Tool.FixNotes;
  // The text output on standard output is printed unit by unit, as soon as
  // the units before are done. What needs every unit first is printed at
  // the end: fixes (the FIX-IT notes say what was written), a baseline or
  // --diff (they filter the whole run), whole documents (JSON, SARIF) and
  // --output (written atomically).
  const bool Streaming = Format == report::OutputFormat::Text && !ToFile &&
                         !WantFixes && !Baseline && !Selected->Changes;
  report::TextOrder Order;
  if (Streaming)
    outs().enable_colors(Color);
  // `--exclude` drops findings in excluded headers (counted as non-user
  // code), unit by unit, before the unit is printed.
  const run::UnitReady Ready = [&](size_t, TranslationUnitResult &Unit) {
    select::dropExcludedFindings(Unit, Exclude);
    if (!Streaming)
      return;
    report::writeUnitText(outs(), Order, Unit, Color);
    outs().flush();
  };

  // --- Analyze units into a RunResult. ---
  RunResult Run;
  Run.ToolVersion = LIBTORCH_TIDY_VERSION;
  Run.EnabledChecks = Enabled;
  // What functions defined in the database's other units do
  // (run/DatabaseSummaries.h).
  run::SummaryScope Summaries;
  Summaries.Enabled = run::wantsDatabaseSummaries(Tool, *Provider, FirstFile);
  if (Summaries.Enabled) {
    // Left out as a unit would be: by --exclude or its own configuration.
    std::vector<std::string> Others =
        run::otherDatabaseUnits(*Setup->Compilations, Units);
    const select::ExcludeFilter OthersExcluded = select::ExcludeFilter::create(
        Tool.Exclude, WorkingDir, Tool.ConfigFile, *Provider, Others);
    llvm::erase_if(Others, [&](const std::string &File) {
      return OthersExcluded.excludes(File, File);
    });
    Summaries.OtherUnits = std::move(Others);
    Summaries.AnalyzeStale = Tool.Summaries == "current" && !Tool.Shard;
  }
  Run.Units = run::analyzeUnits(Tool, *Setup, Units, Summaries, *Provider, Argc,
                                Argv, Ready);
  // Streamed findings that did not reach standard output (a closed pipe,
  // a full disk) make the run an I/O error, not a run with findings.
  if (outs().has_error()) {
    std::error_code EC = outs().error();
    outs().clear_error();
    errs() << "libtorch-tidy: error: cannot write to standard output: "
           << EC.message() << "\n";
    return ExitUsageError;
  }
  for (TranslationUnitResult &Unit : UnreadableUnits)
    Run.Units.push_back(std::move(Unit));
  std::vector<std::string> Versions;
  for (const TranslationUnitResult &Unit : Run.Units)
    Versions.push_back(Unit.LibTorchVersion);
  Run.LibTorchVersion = model::libTorchVersions(Versions);

  // --- Filter findings. ---
  // (`--exclude` filtered each unit as it was ready.) `--diff` keeps only
  // findings on changed lines.
  if (Selected->Changes)
    select::keepFindingsOnChangedLines(Run, *Selected->Changes);

  // --- Fingerprints, then `--baseline` (driver/report/ReportStage.h). ---
  report::SourceFiles Sources;
  Sources.onlyAsParsed(Run);
  const unsigned InBaseline = report::fingerprintAndFilter(
      Run, *ProjectRoot, Baseline ? &*Baseline : nullptr, Sources);
  std::vector<model::ReportedDiagnostic> Diagnostics =
      model::uniqueDiagnostics(Run, /*WithCompilerErrors=*/true);
  std::vector<Finding> UniqueFindings = model::uniqueFindings(Run);
  // A baseline of another checkout or root matched nothing: say so, rather
  // than report every finding as new without a word.
  if (Baseline && InBaseline == 0 && !Baseline->empty() &&
      !UniqueFindings.empty() &&
      report::namesNoFileOf(BaselineFiles, Run,
                            Setup->Compilations->getAllFiles()))
    errs() << "libtorch-tidy: warning: the baseline '" << Tool.Baseline
           << "' matched no finding and names no file of this project (root '"
           << *ProjectRoot
           << "'; taken in another checkout, with another --sarif-root, or "
              "from another directory): every finding counts as new; take "
              "baselines with the --sarif-root of the runs that use them\n";
  const bool AnyUnitFailed = !model::unitsWithProblems(Run).empty();

  // --- Fixes. ---
  // Per unit (driver/fix/FixSelection.h, docs/fixes.md): a unit with
  // compiler errors contributes no fixes unless --fix-errors, and every
  // clean unit's fixes are applied. The FixApplier (driver/fix/) plans whole
  // fixes, skips and reports overlapping ones, and checks every file against
  // the digest of the bytes the analysis parsed before anything is written.
  // The files are written before the output, which then says which fixes
  // were written, and still shows the code as it was analyzed.
  fix::FixOutcome Fixes;
  fix::FixSelection FixChoice;
  // For each diagnostic, its index in the fixes applied, if it takes part.
  std::vector<std::optional<size_t>> PlanIndex(Diagnostics.size());
  std::optional<ClangTidyContext> StyleContext;
  if (WantFixes) {
    fix::FixOptions FixOptions;
    FixOptions.FixNotes = Tool.FixNotes;
    StyleContext.emplace(std::move(Provider));
    FixOptions.StyleFor = [&](StringRef File) {
      return StyleContext->getOptionsForFile(File).FormatStyle.value_or("none");
    };
    FixChoice =
        fix::selectFixes(Run, Diagnostics, Tool.FixErrors, Tool.FixNotes);
    std::vector<const Finding *> ToFix;
    for (size_t I = 0; I < Diagnostics.size(); ++I)
      if (FixChoice.Eligible[I]) {
        PlanIndex[I] = ToFix.size();
        ToFix.push_back(Diagnostics[I].Diagnostic);
      }
    Fixes = fix::applyFixes(Run, ToFix, FixOptions);
  }

  // --- Output. ---
  // The report of `Run` in its format (unless the text streamed);
  // `--output` sends it to a file, written atomically (the summary line
  // stays on stderr).
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
    Rendered = report::renderReport(Run, Format, *ProjectRoot, Sources, Text);
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

  // --- Export fixes (clang-tidy's YAML). ---
  if (!Tool.ExportFixes.empty() && !Diagnostics.empty()) {
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
  }

  // --- Export summaries (analysis/program/SummaryTable.h). ---
  if (!Tool.ExportSummaries.empty()) {
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
      errs() << "libtorch-tidy: error: " << *Problem
             << " (--export-summaries)\n";
      return ExitUsageError;
    }
  }

  unsigned WarningsAsErrors = 0;
  bool Failing = false;
  for (const Finding &F : UniqueFindings) {
    WarningsAsErrors += F.Severity == "error";
    Failing |= countsForExit(F, Tool.FailOn);
  }

  // With --store-check-profile the units wrote clang-tidy's JSON instead.
  if (Tool.EnableCheckProfile && Tool.StoreCheckProfile.empty())
    report::printCheckProfile(Run, errs());
  if (!Tool.Quiet) {
    report::printSuppressionStats(Run, errs());
    for (const std::string &Conflict : Fixes.ConflictMessages)
      errs() << Conflict << "\n";
    const size_t Replayed = std::count_if(
        Run.Units.begin(), Run.Units.end(),
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
