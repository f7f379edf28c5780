//===--- CheckRun.cpp - The run up to the analysis ------------------------===//
//
// Part of libtorch-tidy. SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

#include "tool/CheckRun.h"
#include "clang-compat/ClangCompat.h"
#include "config/CheckOptionValues.h"
#include "config/ConfigQueries.h"
#include "model/ExitCodes.h"
#include "report/Baseline.h"
#include "run/DatabaseSummaries.h"
#include "tool/RunSetup.h"
#include "tool/SummaryExport.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Process.h"
#include "llvm/Support/raw_ostream.h"
#include <algorithm>

using namespace clang::tidy;
using namespace llvm;

namespace libtorch_tidy::tool {

using model::Finding;
using model::RunResult;
using model::TranslationUnitResult;

/// The configuration, the units, the checks enabled; the queries that end
/// the run there (--explain-config, --list-checks, --dump-config, ...).
std::optional<int> CheckRun::configure(
    std::unique_ptr<clang::tooling::CompilationDatabase> Fixed) {
  Expected<RunConfiguration> Configured = configureRun(Tool);
  if (!Configured) {
    errs() << "libtorch-tidy: error: " << toString(Configured.takeError())
           << "\n";
    return ExitUsageError;
  }
  Provider = std::move(Configured->Provider);
  // --explain-config, --verify-config (ConfigQueries.h).
  if (std::optional<int> Code = runConfigQuery(Tool, *Provider))
    return *Code;

  // Collect the translation units (files named, or the whole database).
  Expected<CompilationSetup> Collected =
      setUpUnits(Tool, std::move(Fixed), Argv[0]);
  if (!Collected) {
    errs() << "libtorch-tidy: error: " << toString(Collected.takeError())
           << "\n";
    return ExitUsageError;
  }
  Setup.emplace(std::move(*Collected));
  // Misspelled options of our checks, once per run (not per worker).
  warnUnknownCheckOptions(Tool, Setup->Files, errs());

  // Options are looked up for the first input, as clang-tidy does.
  FirstFile =
      Setup->Files.empty() ? StringRef("dummy") : StringRef(Setup->Files[0]);
  Effective = Provider->getOptions(FirstFile);
  Enabled = clang::compat::enabledCheckNames(Effective,
                                             Tool.ExperimentalCustomChecks);
  return answerQueries();
}

std::optional<int> CheckRun::answerQueries() {
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
  return std::nullopt;
}

/// What the run will write and compare with, checked before anything is
/// analyzed: option values, --sarif-root, the output files, --baseline.
std::optional<int> CheckRun::checkOutputs() {
  // A CheckOptions value no check can read is the configuration's error,
  // not a finding of every unit.
  if (reportInvalidCheckOptionValues(*Provider, FirstFile, errs()))
    return ExitUsageError;
  Format = cantFail(
      report::parseOutputFormat(Tool.Format)); // validated by the parser
  Expected<std::string> Root = report::resolveProjectRoot(Tool.SarifRoot);
  if (!Root) {
    errs() << "libtorch-tidy: error: " << toString(Root.takeError()) << "\n";
    return ExitUsageError;
  }
  ProjectRoot = std::move(*Root);
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
  return readBaseline();
}

std::optional<int> CheckRun::readBaseline() {
  if (Tool.Baseline.empty())
    return std::nullopt;
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
  BaselineFiles = report::baselineFiles(*Document, ProjectRoot);
  return std::nullopt;
}

/// `--exclude`, `--diff` and `--shard` (driver/select/). An empty selection
/// is not an error: nothing to do. Database entries that cannot be read take
/// part in the selection, and the selected ones are reported as failed
/// units.
std::optional<int> CheckRun::selectUnits() {
  std::vector<std::string> Candidates = Setup->Files;
  for (const UnusableInput &Unreadable : Setup->Unreadable)
    Candidates.push_back(Unreadable.File);
  if (std::error_code EC = sys::fs::current_path(WorkingDir)) {
    errs() << "libtorch-tidy: error: cannot read the working directory ("
           << EC.message() << "); run from a directory that exists\n";
    return ExitUsageError;
  }
  Exclude.emplace(select::ExcludeFilter::create(
      Tool.Exclude, WorkingDir, Tool.ConfigFile, *Provider, Candidates));
  Expected<select::UnitSelection> Selection = select::selectUnits(
      Candidates, *Exclude, Tool.Diff, Tool.Shard, *Setup->Compilations);
  if (!Selection) {
    errs() << "libtorch-tidy: error: " << toString(Selection.takeError())
           << "\n";
    return ExitUsageError;
  }
  Selected.emplace(std::move(*Selection));
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
  return std::nullopt;
}

/// What functions defined in the database's other units do
/// (run/DatabaseSummaries.h).
run::SummaryScope CheckRun::databaseSummaries() {
  run::SummaryScope Summaries;
  Summaries.Enabled = run::wantsDatabaseSummaries(Tool, *Provider, FirstFile);
  if (!Summaries.Enabled)
    return Summaries;
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
  return Summaries;
}

/// Analyzes the units into the RunResult, printing the text output unit by
/// unit when it streams.
std::optional<int> CheckRun::analyze() {
  // Output settings, needed before the analysis when text streams.
  const bool ToFile = !Tool.Output.empty() && Tool.Output != "-";
  Color = !ToFile && Tool.Color.value_or(sys::Process::StandardOutHasColors());
  if (Color && !sys::Process::StandardOutIsDisplayed())
    sys::Process::UseANSIEscapeCodes(true);
  if (Tool.Color && !ToFile)
    outs().enable_colors(*Tool.Color);
  WantFixes = Tool.Fix || Tool.FixErrors || Tool.FixNotes;
  // The text output on standard output is printed unit by unit, as soon as
  // the units before are done. What needs every unit first is printed at
  // the end: fixes (the FIX-IT notes say what was written), a baseline or
  // --diff (they filter the whole run), whole documents (JSON, SARIF) and
  // --output (written atomically).
  Streaming = Format == report::OutputFormat::Text && !ToFile && !WantFixes &&
              !Baseline && !Selected->Changes;
  if (Streaming)
    outs().enable_colors(Color);
  // `--exclude` drops findings in excluded headers (counted as non-user
  // code), unit by unit, before the unit is printed.
  const run::UnitReady Ready = [&](size_t, TranslationUnitResult &Unit) {
    select::dropExcludedFindings(Unit, *Exclude);
    if (!Streaming)
      return;
    report::writeUnitText(outs(), Order, Unit, Color);
    outs().flush();
  };

  Run.ToolVersion = LIBTORCH_TIDY_VERSION;
  Run.EnabledChecks = Enabled;
  Run.Units = run::analyzeUnits(Tool, *Setup, Units, databaseSummaries(),
                                *Provider, Argc, Argv, Ready);
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
  return std::nullopt;
}

} // namespace libtorch_tidy::tool
