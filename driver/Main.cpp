//===--- Main.cpp - The libtorch-tidy command-line tool -------------------===//
//
// Part of libtorch-tidy. SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//
//
// A clang-tidy-compatible front end for the `libtorch` checks: the same
// flags where they overlap, `.clang-tidy` discovery, NOLINT, fixes and
// export-fixes, but LibTorch's default check set and documented exit codes
// (ExitCodes.h).
//
// The pipeline (runTool() below), each stage working on report::RunResult:
//   parse options -> collect units -> select units -> analyze units ->
//   filter findings -> fingerprints -> fixes -> output -> export-fixes ->
//   exit code.
//
//===----------------------------------------------------------------------===//

#include "CheckTable.h"
#include "CompilationSetup.h"
#include "ConfigQueries.h"
#include "ExitCodes.h"
#include "OptionsSetup.h"
#include "clang-tidy/ClangTidy.h"
#include "clang-tidy/ClangTidyDiagnosticConsumer.h"
#include "fix/FixApplier.h"
#include "report/Baseline.h"
#include "report/ExportFixesWriter.h"
#include "report/Findings.h"
#include "report/Merge.h"
#include "report/ReportStage.h"
#include "report/RunStatistics.h"
#include "report/TextWriter.h"
#include "run/UnitScheduler.h"
#include "select/UnitSelection.h"
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
#include <optional>
#include <set>
#include <thread>
#include <tuple>

#include <unistd.h>
#include <vector>

using namespace clang::tidy;
using namespace llvm;

namespace clang::tidy {
// Pulls in the `libtorch` module when the checks are linked statically.
extern volatile int LibTorchTidyModuleAnchorSource;
static int LLVM_ATTRIBUTE_UNUSED LibTorchTidyModuleAnchorDestination =
    LibTorchTidyModuleAnchorSource;
} // namespace clang::tidy

namespace libtorch_tidy {
namespace {

using report::Finding;
using report::RunResult;
using report::TranslationUnitResult;

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

int runTool(int Argc, const char **Argv) {
  // `libtorch-tidy merge <report>... -o <file>` joins shards' reports.
  if (Argc > 1 && StringRef(Argv[1]) == "merge")
    return report::runMergeCommand(ArrayRef<const char *>(Argv + 2, Argc - 2),
                                   outs(), errs());

  ToolOptions Tool;
  Expected<std::unique_ptr<clang::tooling::CompilationDatabase>> Fixed =
      parseCommandLine(Argc, Argv, Tool);
  if (!Fixed) {
    errs() << "libtorch-tidy: error: " << toString(Fixed.takeError()) << "\n";
    return ExitUsageError;
  }

  if (Tool.PrintCheckTable) {
    outs() << renderCheckTable();
    return ExitNoFindings;
  }

  auto BaseFS =
      makeIntrusiveRefCnt<vfs::OverlayFileSystem>(vfs::getRealFileSystem());
  if (Error E = applyVfsOverlay(Tool, *BaseFS)) {
    errs() << "libtorch-tidy: error: " << toString(std::move(E)) << "\n";
    return ExitUsageError;
  }
  Expected<std::unique_ptr<ClangTidyOptionsProvider>> Provider =
      createOptionsProvider(Tool, BaseFS);
  if (!Provider) {
    errs() << "libtorch-tidy: error: " << toString(Provider.takeError())
           << "\n";
    return ExitUsageError;
  }
  // --explain-config, --verify-config (ConfigQueries.h).
  if (std::optional<int> Code = runConfigQuery(Tool, **Provider))
    return *Code;

  // Collect the translation units (files named, or the whole database).
  Expected<CompilationSetup> Setup =
      setUpCompilations(Tool, std::move(*Fixed), Argv[0]);
  if (!Setup) {
    errs() << "libtorch-tidy: error: " << toString(Setup.takeError()) << "\n";
    return ExitUsageError;
  }

  if (Error E = checkDiscoveredConfigs(Tool, Setup->Files)) {
    errs() << "libtorch-tidy: error: " << toString(std::move(E)) << "\n";
    return ExitUsageError;
  }

  // Options are looked up for the first input, as clang-tidy does.
  StringRef FirstFile =
      Setup->Files.empty() ? StringRef("dummy") : StringRef(Setup->Files[0]);
  ClangTidyOptions Effective = (*Provider)->getOptions(FirstFile);
  std::vector<std::string> Enabled =
      getCheckNames(Effective, /*AllowEnablingAnalyzerAlphaCheckers=*/false);

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
  if (Enabled.empty()) {
    errs() << "libtorch-tidy: error: no checks are enabled for '" << FirstFile
           << "'; a .clang-tidy file or --checks disables them all: add "
              "'libtorch-*' to its Checks\n";
    return ExitUsageError;
  }
  if (Setup->Files.empty()) {
    errs() << "libtorch-tidy: error: no input files; name the sources to "
              "analyze, e.g. 'libtorch-tidy -p build src/train.cpp'\n";
    return ExitUsageError;
  }

  if (!Tool.WorkerUnit.empty())
    return run::runWorker(Tool, *Setup, std::move(*Provider), BaseFS);
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
  if (Error E = report::checkOutputPath(Tool.Output)) {
    errs() << "libtorch-tidy: error: " << toString(std::move(E)) << "\n";
    return ExitUsageError;
  }
  std::optional<std::set<std::string>> Baseline;
  if (!Tool.Baseline.empty()) {
    Expected<std::set<std::string>> Known = report::readBaseline(Tool.Baseline);
    if (!Known) {
      errs() << "libtorch-tidy: error: " << toString(Known.takeError()) << "\n";
      return ExitUsageError;
    }
    Baseline = std::move(*Known);
  }

  // --- Select units. ---
  // `--diff` and `--shard` (driver/select/). An empty selection is not an
  // error: nothing to do. Database entries that cannot be read take part in
  // the selection, and the selected ones are reported as failed units.
  std::vector<std::string> Candidates = Setup->Files;
  for (const UnusableInput &Unreadable : Setup->Unreadable)
    Candidates.push_back(Unreadable.File);
  Expected<select::UnitSelection> Selected = select::selectUnits(
      Candidates, Tool.Diff, Tool.Shard, *Setup->Compilations);
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

  // --- Analyze units into a RunResult. ---
  RunResult Run;
  Run.ToolVersion = LIBTORCH_TIDY_VERSION;
  Run.EnabledChecks = Enabled;
  Run.Units = run::analyzeUnits(Tool, *Setup, Units, **Provider, Argc, Argv);
  for (TranslationUnitResult &Unit : UnreadableUnits)
    Run.Units.push_back(std::move(Unit));
  for (const TranslationUnitResult &Unit : Run.Units)
    if (Run.LibTorchVersion.empty())
      Run.LibTorchVersion = Unit.LibTorchVersion;

  // --- Filter findings. ---
  // `--diff` keeps only findings on changed lines.
  if (Selected->Changes)
    select::keepFindingsOnChangedLines(Run, *Selected->Changes);

  // --- Fingerprints, then `--baseline` (driver/report/ReportStage.h). ---
  report::SourceFiles Sources;
  report::fingerprintAndFilter(Run, *ProjectRoot,
                               Baseline ? &*Baseline : nullptr, Sources);

  std::vector<report::ReportedDiagnostic> Diagnostics =
      report::uniqueDiagnostics(Run, /*WithCompilerErrors=*/true);
  std::vector<Finding> UniqueFindings = report::uniqueFindings(Run);
  const bool AnyUnitFailed = !report::unitsWithProblems(Run).empty();

  // --- Fixes. ---
  // As in clang-tidy: fixes are not applied to code that did not compile,
  // unless asked to.
  // The FixApplier (driver/fix/, docs/fixes.md) plans whole fixes, skips
  // and reports overlapping ones, and checks every file against the digest
  // the analysis recorded before anything is written.
  const bool WantFixes = Tool.Fix || Tool.FixErrors || Tool.FixNotes;
  const bool DisableFixes = AnyUnitFailed && !Tool.FixErrors;
  fix::FixPlan Fixes;
  std::optional<ClangTidyContext> StyleContext;
  fix::FixOptions FixOptions;
  FixOptions.FixNotes = Tool.FixNotes;
  if (WantFixes && !DisableFixes) {
    StyleContext.emplace(std::move(*Provider),
                         /*AllowEnablingAnalyzerAlphaCheckers=*/false);
    FixOptions.StyleFor = [&](StringRef File) {
      return StyleContext->getOptionsForFile(File).FormatStyle.value_or("none");
    };
    std::vector<const Finding *> ToFix;
    for (const report::ReportedDiagnostic &R : Diagnostics)
      ToFix.push_back(R.Diagnostic);
    Fixes = fix::prepareFixes(Run, ToFix, FixOptions);
  }

  // --- Output. ---
  // `--format=json|sarif` write `Run`, text the diagnostics; `--output`
  // sends either to a file, written atomically (the summary line stays on
  // stderr).
  const bool ToFile = !Tool.Output.empty() && Tool.Output != "-";
  const bool Color =
      !ToFile && Tool.Color.value_or(sys::Process::StandardOutHasColors());
  if (Color && !sys::Process::StandardOutIsDisplayed())
    sys::Process::UseANSIEscapeCodes(true);
  if (Tool.Color && !ToFile)
    outs().enable_colors(*Tool.Color);
  std::string Rendered;
  if (Format != report::OutputFormat::Text) {
    Rendered = report::renderReport(Run, Format, *ProjectRoot, Sources);
  } else {
    std::vector<report::TextDiagnostic> Text;
    for (size_t I = 0; I < Diagnostics.size(); ++I) {
      report::TextDiagnostic D;
      D.Diagnostic = Diagnostics[I].Diagnostic;
      D.BuildDirectory = Diagnostics[I].Unit->BuildDirectory;
      if (I < Fixes.PerFinding.size())
        D.FixOutcome = Fixes.PerFinding[I];
      Text.push_back(std::move(D));
    }
    raw_string_ostream OS(Rendered);
    OS.enable_colors(Color);
    report::writeText(OS, Text, Color);
  }
  if (Error E = report::emitReport(Rendered, Tool.Output, outs())) {
    errs() << "libtorch-tidy: error: " << toString(std::move(E)) << "\n";
    return ExitUsageError;
  }
  for (const TranslationUnitResult *Unit : report::unitsWithProblems(Run))
    if (Unit->State == TranslationUnitResult::Status::Failed)
      errs() << "libtorch-tidy: error: '" << Unit->MainFile
             << "': " << Unit->FailureMessage << "\n";

  // The files are written after the text output, which shows them as they
  // were analyzed.
  std::vector<std::string> FixFailures;
  if (!Fixes.Edits.empty() || !Fixes.Errors.empty())
    FixFailures = fix::writeFixes(Run, Fixes, FixOptions);

  // --- Export fixes (clang-tidy's YAML). ---
  if (!Tool.ExportFixes.empty() && !Diagnostics.empty()) {
    std::vector<report::ExportedDiagnostic> Export;
    for (const report::ReportedDiagnostic &R : Diagnostics)
      Export.push_back({R.Diagnostic, R.Unit->BuildDirectory});
    if (Error E = writeToOutput(Tool.ExportFixes, [&](raw_ostream &OS) {
          report::writeExportFixes(OS, FirstFile, Export);
          return Error::success();
        })) {
      errs() << "libtorch-tidy: error: cannot write '" << Tool.ExportFixes
             << "': " << toString(std::move(E))
             << "; choose a writable path for --export-fixes\n";
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
    if (Fixes.Total > 0) {
      if (!FixFailures.empty())
        errs() << "libtorch-tidy failed to apply suggested fixes.\n";
      else
        errs() << "libtorch-tidy applied " << Fixes.Applied << " of "
               << Fixes.Total << " suggested fixes.\n";
    }
    if (DisableFixes && WantFixes)
      errs() << "Found compiler errors, but -fix-errors was not specified.\n"
                "Fixes have NOT been applied.\n";
    const size_t Replayed = std::count_if(
        Run.Units.begin(), Run.Units.end(),
        [](const TranslationUnitResult &U) { return U.FromCache; });
    if (Replayed)
      errs() << "libtorch-tidy: " << Replayed << " of " << Run.Units.size()
             << (Run.Units.size() == 1 ? " unit" : " units")
             << " unchanged, results replayed from the cache\n";
    errs() << report::summaryLine(UniqueFindings) << "\n";
  }
  // A file that cannot be fixed is an error even with --quiet.
  for (const std::string &Failure : FixFailures)
    errs() << "libtorch-tidy: error: " << Failure << "\n";
  if (WarningsAsErrors)
    errs() << WarningsAsErrors << " warning"
           << (WarningsAsErrors == 1 ? "" : "s") << " treated as error"
           << (WarningsAsErrors == 1 ? "" : "s") << "\n";

  if (!FixFailures.empty())
    return ExitUsageError;
  if (AnyUnitFailed)
    return ExitParseFailed;
  return Failing ? ExitFindings : ExitNoFindings;
}

} // namespace
} // namespace libtorch_tidy

int main(int Argc, const char **Argv) {
  // `libtorch-tidy verify ...` is the runtime harness, a separate program
  // installed next to this one (runtime-verify/harness).
  if (Argc > 1 && StringRef(Argv[1]) == "verify") {
    SmallString<256> Verify(sys::path::parent_path(sys::fs::getMainExecutable(
        Argv[0], reinterpret_cast<void *>(&libtorch_tidy::runTool))));
    sys::path::append(Verify, "libtorch-tidy-verify");
    std::vector<char *> Args = {const_cast<char *>(Verify.c_str())};
    for (int I = 2; I < Argc; ++I)
      Args.push_back(const_cast<char *>(Argv[I]));
    Args.push_back(nullptr);
    execv(Verify.c_str(), Args.data());
    errs() << "libtorch-tidy: error: " << Verify
           << " cannot be run; install libtorch-tidy-verify next to "
              "libtorch-tidy\n";
    return libtorch_tidy::ExitUsageError;
  }
  InitLLVM X(Argc, Argv);
  return libtorch_tidy::runTool(Argc, Argv);
}
