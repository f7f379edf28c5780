//===--- Main.cpp - The libtorch-tidy command-line tool -------------------===//
//
// Part of libtorch-tidy. SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//
//
// A clang-tidy-compatible front end for the `libtorch` checks: the same
// flags where they overlap, `.clang-tidy` discovery, NOLINT, fixes and
// export-fixes, but LibTorch's default check set and documented exit codes
// (ExitCodes.h). Everything clang-tidy already does well is reused from its
// library; this file only wires options to it.
//
//===----------------------------------------------------------------------===//

#include "Catalog.h"
#include "CheckTable.h"
#include "CompilationSetup.h"
#include "ExitCodes.h"
#include "OptionsSetup.h"
#include "clang-tidy/ClangTidy.h"
#include "clang-tidy/ClangTidyDiagnosticConsumer.h"
#include "llvm/ADT/SmallString.h"
#include "llvm/Config/llvm-config.h"
#include "llvm/Support/CommandLine.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/InitLLVM.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/Process.h"
#include "llvm/Support/VirtualFileSystem.h"
#include "llvm/Support/raw_ostream.h"

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

/// Counts what the run reported, for the summary line and the exit code.
struct RunSummary {
  unsigned Findings = 0;
  unsigned Fixable = 0;
  unsigned ParseErrors = 0;
  unsigned FilesWithFindings = 0;
};

RunSummary summarize(ArrayRef<ClangTidyError> Errors) {
  RunSummary Summary;
  StringSet<> Files;
  for (const ClangTidyError &Error : Errors) {
    if (Error.DiagnosticName == "clang-diagnostic-error") {
      ++Summary.ParseErrors;
      continue;
    }
    ++Summary.Findings;
    Files.insert(Error.Message.FilePath);
    if (!Error.Message.Fix.empty())
      ++Summary.Fixable;
    else
      for (const auto &Note : Error.Notes)
        if (!Note.Fix.empty()) {
          ++Summary.Fixable;
          break;
        }
  }
  Summary.FilesWithFindings = Files.size();
  return Summary;
}

void printSuppressionStats(const ClangTidyStats &Stats) {
  if (!Stats.errorsIgnored())
    return;
  errs() << "Suppressed " << Stats.errorsIgnored() << " warnings (";
  StringRef Separator;
  auto Part = [&](unsigned Count, StringRef What) {
    if (!Count)
      return;
    errs() << Separator << Count << What;
    Separator = ", ";
  };
  Part(Stats.ErrorsIgnoredNonUserCode, " in non-user code");
  Part(Stats.ErrorsIgnoredLineFilter, " due to line filter");
  Part(Stats.ErrorsIgnoredNOLINT, " NOLINT");
  Part(Stats.ErrorsIgnoredCheckFilter, " with check filters");
  errs() << ").\n";
  if (Stats.ErrorsIgnoredNonUserCode)
    errs() << "Use -header-filter=.* to display errors from all non-system "
              "headers.\n";
}

/// Writes \p Errors' replacements as clang-tidy's export-fixes YAML, through
/// a temporary file renamed into place so no half-written file is left.
bool writeExportFixes(StringRef Path, StringRef MainFile,
                      const std::vector<ClangTidyError> &Errors) {
  if (Error E = writeToOutput(Path, [&](raw_ostream &OS) {
        exportReplacements(MainFile, Errors, OS);
        return Error::success();
      })) {
    errs() << "libtorch-tidy: error: cannot write '" << Path
           << "': " << toString(std::move(E))
           << "; choose a writable path for --export-fixes\n";
    return false;
  }
  return true;
}

int run(int Argc, const char **Argv) {
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
  Expected<std::unique_ptr<ClangTidyOptionsProvider>> Provider =
      createOptionsProvider(Tool, BaseFS);
  if (!Provider) {
    errs() << "libtorch-tidy: error: " << toString(Provider.takeError())
           << "\n";
    return ExitUsageError;
  }

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

  ClangTidyContext Context(std::move(*Provider),
                           /*AllowEnablingAnalyzerAlphaCheckers=*/false);
  std::vector<ClangTidyError> Errors =
      runClangTidy(Context, *Setup->Compilations, Setup->Files, BaseFS,
                   Tool.FixNotes, Tool.EnableCheckProfile);
  const RunSummary Summary = summarize(Errors);

  // As in clang-tidy: fixes are not applied to code that did not compile,
  // unless asked to.
  const bool DisableFixes = Summary.ParseErrors > 0 && !Tool.FixErrors;
  FixBehaviour Behaviour = Tool.FixNotes                  ? FB_FixNotes
                           : (Tool.Fix || Tool.FixErrors) ? FB_Fix
                                                          : FB_NoFix;
  unsigned WarningsAsErrors = 0;
  handleErrors(Errors, Context, DisableFixes ? FB_NoFix : Behaviour,
               WarningsAsErrors, BaseFS);

  if (!Tool.ExportFixes.empty() && !Errors.empty() &&
      !writeExportFixes(Tool.ExportFixes, FirstFile, Errors))
    return ExitUsageError;

  if (!Tool.Quiet) {
    printSuppressionStats(Context.getStats());
    if (DisableFixes && Behaviour != FB_NoFix)
      errs() << "Found compiler errors, but -fix-errors was not specified.\n"
                "Fixes have NOT been applied.\n";
    errs() << Summary.Findings
           << (Summary.Findings == 1 ? " finding" : " findings") << " in "
           << Summary.FilesWithFindings
           << (Summary.FilesWithFindings == 1 ? " file" : " files") << " ("
           << Summary.Fixable << " fixable)\n";
  }
  if (Summary.ParseErrors > 0)
    return ExitParseFailed;
  return Summary.Findings > 0 ? ExitFindings : ExitNoFindings;
}

} // namespace
} // namespace libtorch_tidy

int main(int Argc, const char **Argv) {
  // `libtorch-tidy verify ...` is the runtime harness, a separate program
  // installed next to this one (runtime-verify/harness).
  if (Argc > 1 && StringRef(Argv[1]) == "verify") {
    SmallString<256> Verify(sys::path::parent_path(sys::fs::getMainExecutable(
        Argv[0], reinterpret_cast<void *>(&libtorch_tidy::run))));
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
  return libtorch_tidy::run(Argc, Argv);
}
