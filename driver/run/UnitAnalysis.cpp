//===--- UnitAnalysis.cpp - Analyze one translation unit ------------------===//
//
// Part of libtorch-tidy. SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//
//
// The setup below is clang-tidy's runClangTidy (ClangTidy.cpp) for one
// file: the same ClangTidyContext, ClangTidyDiagnosticConsumer (NOLINT,
// header and line filters, conflicting fixes), argument adjusters and
// ClangTidyASTConsumerFactory. Its action (AnalysisAction.h) adds a consumer
// that skips system code and records TORCH_VERSION from the preprocessor.
//
//===----------------------------------------------------------------------===//

#include "run/UnitAnalysis.h"
#include "cache/ResultCache.h"
#include "clang-compat/ClangCompat.h"
#include "clang-tidy/ClangTidy.h"
#include "clang-tidy/ClangTidyDiagnosticConsumer.h"
#include "clang-tidy/ClangTidyModule.h"
#include "io/FileIO.h"
#include "preamble/PrecompiledPrefixes.h"
#include "preamble/SkipPolicy.h"
#include "run/AnalysisAction.h"
#include "run/DetachedPrefixBuild.h"
#include "run/ErrorConversion.h"
#include "run/ParseRecovery.h"
#include "run/UnitContexts.h"
#include "utils/UserCode.h"
#include "clang/AST/DeclTemplate.h"
#include "clang/Basic/SourceManager.h"
#include "clang/Frontend/CompilerInstance.h"
#include "clang/Frontend/FrontendActions.h"
#include "clang/Frontend/MultiplexConsumer.h"
#include "clang/Lex/HeaderSearch.h"
#include "clang/Lex/MacroInfo.h"
#include "clang/Lex/PPCallbacks.h"
#include "clang/Lex/Preprocessor.h"
#include "clang/Lex/PreprocessorOptions.h"
#include "clang/Tooling/ArgumentsAdjusters.h"
#include "clang/Tooling/Tooling.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/xxhash.h"
#include <optional>
#include <set>
#include <tuple>

using namespace clang;
using namespace clang::tidy;
using namespace clang::tooling;
using namespace llvm;

namespace libtorch_tidy::run {
namespace {

/// A unit's compile commands, each distinct one once. Databases list one
/// file several times with the same command (generators that merge
/// fragments, hand-written scripts); clang-tidy parses the unit once per
/// entry, each parse finding the same things again.
class DistinctCommands : public CompilationDatabase {
public:
  explicit DistinctCommands(const CompilationDatabase &Base) : Base(Base) {}

  std::vector<CompileCommand>
  getCompileCommands(StringRef FilePath) const override {
    std::vector<CompileCommand> Distinct;
    for (CompileCommand &C : Base.getCompileCommands(FilePath))
      if (llvm::none_of(Distinct, [&](const CompileCommand &Kept) {
            return Kept.Directory == C.Directory &&
                   Kept.Filename == C.Filename &&
                   Kept.CommandLine == C.CommandLine;
          }))
        Distinct.push_back(std::move(C));
    return Distinct;
  }
  std::vector<std::string> getAllFiles() const override {
    return Base.getAllFiles();
  }
  std::vector<CompileCommand> getAllCompileCommands() const override {
    return Base.getAllCompileCommands();
  }

private:
  const CompilationDatabase &Base;
};

/// The findings of both of a unit's consumers, in clang-tidy's order (its
/// ClangTidyDiagnosticConsumer sorts so).
std::vector<ClangTidyError> takeErrors(ClangTidyDiagnosticConsumer &Main,
                                       ClangTidyDiagnosticConsumer *WholeUnit) {
  std::vector<ClangTidyError> Errors = Main.take();
  if (!WholeUnit)
    return Errors;
  for (ClangTidyError &E : WholeUnit->take())
    Errors.push_back(std::move(E));
  llvm::stable_sort(Errors,
                    [](const ClangTidyError &L, const ClangTidyError &R) {
                      return std::tie(L.Message.FilePath, L.Message.FileOffset,
                                      L.DiagnosticName, L.Message.Message) <
                             std::tie(R.Message.FilePath, R.Message.FileOffset,
                                      R.DiagnosticName, R.Message.Message);
                    });
  return Errors;
}

/// As clang-tidy: the compile command's directory, made absolute the way
/// ClangTool sets it as the working directory.
std::string buildDirectoryOf(llvm::ArrayRef<CompileCommand> Commands) {
  SmallString<256> Directory(
      Commands.empty() ? StringRef() : StringRef(Commands.front().Directory));
  sys::fs::make_absolute(Directory);
  sys::path::remove_dots(Directory, /*remove_dot_dot=*/true);
  return std::string(Directory);
}

/// Which precompiled prefix the unit used ("reused", "built", "rebuilt"),
/// and whether its findings may differ from a plain parse's.
void notePrefixes(const AnalysisActionFactory &Factory, int Status,
                  model::TranslationUnitResult &Unit, bool &PrefixUnsafe) {
  if (Factory.AppliedPrefixes.empty())
    return;
  const auto Any = [&](bool preamble::AppliedPrefix::*Flag) {
    return llvm::any_of(
        Factory.AppliedPrefixes,
        [Flag](const preamble::AppliedPrefix &P) { return P.*Flag; });
  };
  Unit.Preamble = Any(&preamble::AppliedPrefix::ReplacedDamaged) ? "rebuilt"
                  : Any(&preamble::AppliedPrefix::Built)         ? "built"
                                                                 : "reused";
  // A header of the prefix that is not guarded, or a main file edited
  // between the scan and the parse, would make the findings differ.
  PrefixUnsafe =
      !Unit.CompilerErrors.empty() || Status != 0 || Factory.PrefixMismatch;
}

/// The unit's state after the parse: compile errors, a failure, or done.
void noteState(const AnalysisActionFactory &Factory, int Status,
               bool HasCommand, model::TranslationUnitResult &Unit) {
  if (!Unit.CompilerErrors.empty()) {
    Unit.State = model::TranslationUnitResult::Status::CompileErrors;
    Unit.MissingHeaders = Factory.Recovery.missingHeaders();
    Unit.FailureMessage = compileErrorsSummary(Unit);
  } else if (Status != 0) {
    Unit.State = model::TranslationUnitResult::Status::Failed;
    Unit.FailureMessage =
        !HasCommand
            ? "it has no compile command in the database; add it (re-run "
              "the build system's configure step) or pass its flags after "
              "'--'"
            : "the compiler could not process it";
  }
}

model::TranslationUnitResult
analyzeOnce(const std::shared_ptr<ClangTidyOptionsProvider> &Shared,
            const CompilationDatabase &Compilations, StringRef File,
            const IntrusiveRefCntPtr<vfs::OverlayFileSystem> &BaseFS,
            const AnalysisSettings &Settings,
            std::vector<std::pair<std::string, std::string>> *Dependencies,
            preamble::PrecompiledPrefixes *Prefixes, bool &PrefixUnsafe) {
  model::TranslationUnitResult Unit;
  Unit.MainFile = File.str();
  UnitContexts Contexts = unitContexts(Shared, File, Settings);
  ClangTidyContext &Context = *Contexts.Main;
  DistinctCommands Commands(Compilations);
  ClangTool Tool(Commands, {File.str()},
                 std::make_shared<PCHContainerOperations>(), BaseFS);
  Tool.appendArgumentsAdjuster(clangTidyArgumentsAdjuster(Context));
  Tool.appendArgumentsAdjuster(getStripPluginsAdjuster());
  const std::string ProfileDir = enableProfiling(Contexts, Settings);

  ClangTidyDiagnosticConsumer DiagConsumer(Context, nullptr,
                                           /*RemoveIncompatibleErrors=*/true,
                                           Settings.FixNotes);
  const std::unique_ptr<DiagnosticsEngine> DE =
      clang::compat::attachDiagnosticsEngine(Context, DiagConsumer);
  Tool.setDiagnosticConsumer(&DiagConsumer);
  // The whole-unit checks' findings only: compiler diagnostics go to the
  // consumer above.
  std::unique_ptr<ClangTidyDiagnosticConsumer> WholeUnitDiags;
  std::unique_ptr<DiagnosticsEngine> WholeUnitDE;
  if (Contexts.WholeUnit) {
    WholeUnitDiags = std::make_unique<ClangTidyDiagnosticConsumer>(
        *Contexts.WholeUnit, nullptr, /*RemoveIncompatibleErrors=*/true,
        Settings.FixNotes);
    WholeUnitDE = clang::compat::attachDiagnosticsEngine(*Contexts.WholeUnit,
                                                         *WholeUnitDiags);
  }

  AnalysisActionFactory Factory(
      Context, Contexts.WholeUnit.get(), Contexts.Enabled, BaseFS,
      Settings.SkipSystemBodies, Unit.LibTorchVersion, Dependencies, Prefixes);
  Factory.BuildPrefixOnly = Settings.Prefix == worker::PrefixRole::BuildOnly;
  const int Status = Tool.run(&Factory);
  std::vector<ClangTidyError> Errors =
      takeErrors(DiagConsumer, WholeUnitDiags.get());
  if (!ProfileDir.empty())
    collectProfile(ProfileDir, Unit.CheckProfile);

  const std::vector<CompileCommand> UnitCommands =
      Compilations.getCompileCommands(File);
  Unit.BuildDirectory = buildDirectoryOf(UnitCommands);
  Unit.FunctionSummaries = std::move(Factory.FunctionSummaries);
  Unit.CalledElsewhere = std::move(Factory.CalledElsewhere);
  for (const std::string &File : Factory.Inconsistent)
    Factory.Parsed.erase(File);
  ErrorConverter Converter(Unit.BuildDirectory, Factory.Parsed);
  Converter.convert(Errors, Unit);
  Unit.Suppressed.UnparsedCode += leaveOutRecoveredFindings(
      Unit, Factory.Recovery,
      [&Converter](StringRef File) { return Converter.absolutePath(File); });
  addSuppressedCounts(Contexts, Unit);
  notePrefixes(Factory, Status, Unit, PrefixUnsafe);
  noteState(Factory, Status, !UnitCommands.empty(), Unit);
  return Unit;
}

/// Who builds the unit's missing prefix, and when.
preamble::BuildPolicy prefixBuildPolicy(const AnalysisSettings &Settings) {
  switch (Settings.Prefix) {
  case worker::PrefixRole::ReuseOnly:
    return preamble::BuildPolicy::Never;
  case worker::PrefixRole::BuildOnly:
    return preamble::BuildPolicy::Always;
  case worker::PrefixRole::Analyze:
  case worker::PrefixRole::BuildDetached:
    break;
  }
  return Settings.PreambleAlways ? preamble::BuildPolicy::Always
                                 : preamble::BuildPolicy::Auto;
}

} // namespace

model::TranslationUnitResult
analyzeUnit(std::unique_ptr<ClangTidyOptionsProvider> Options,
            const CompilationDatabase &Compilations, StringRef File,
            const IntrusiveRefCntPtr<vfs::OverlayFileSystem> &BaseFS,
            const AnalysisSettings &Settings,
            std::vector<std::pair<std::string, std::string>> *Dependencies) {
  std::shared_ptr<ClangTidyOptionsProvider> Shared(std::move(Options));
  std::optional<preamble::PrecompiledPrefixes> Prefixes;
  if (!Settings.PreambleDirectory.empty()) {
    preamble::PrefixSettings PrefixSettings;
    PrefixSettings.CacheDirectory = Settings.PreambleDirectory;
    PrefixSettings.Build = prefixBuildPolicy(Settings);
    PrefixSettings.SharedInRun = Settings.PreambleShared;
    PrefixSettings.CheckOverlay = Settings.PreambleOverlay;
    PrefixSettings.MaxBytes = Settings.PreambleMaxBytes;
    if (!Settings.PreambleNotice.empty())
      PrefixSettings.OnEvent = [Notice = Settings.PreambleNotice](
                                   const preamble::IncludePrefix &Prefix,
                                   preamble::PrefixEvent Event) {
        std::string Line = Event == preamble::PrefixEvent::Waiting ? "waiting"
                           : Event == preamble::PrefixEvent::Building
                               ? "building"
                               : "missing";
        for (const std::string &Header : Prefix.Headers)
          Line += " <" + Header + ">";
        // Best effort: the notice only feeds the editor's progress report
        // and its prefix builds.
        (void)io::writeFile(Notice, Line + "\n", io::FileMode::Owned);
      };
    if (Settings.Prefix == worker::PrefixRole::BuildDetached)
      PrefixSettings.OnFirstWanted = startDetachedPrefixBuild;
    PrefixSettings.ToolStamp = cache::toolIdentity(sys::fs::getMainExecutable(
        nullptr, reinterpret_cast<void *>(&cache::fastContentHash)));
    if (!PrefixSettings.ToolStamp.empty())
      Prefixes.emplace(std::move(PrefixSettings));
  }
  bool PrefixUnsafe = false;
  std::vector<cache::Dependency> Read;
  model::TranslationUnitResult Unit =
      analyzeOnce(Shared, Compilations, File, BaseFS, Settings,
                  Dependencies ? &Read : nullptr,
                  Prefixes ? &*Prefixes : nullptr, PrefixUnsafe);
  if (PrefixUnsafe) {
    // Parsed again as it is; what this parse says is the unit's result.
    Read.clear();
    Unit = analyzeOnce(Shared, Compilations, File, BaseFS, Settings,
                       Dependencies ? &Read : nullptr, nullptr, PrefixUnsafe);
  }
  if (Dependencies)
    *Dependencies = std::move(Read);
  return Unit;
}

} // namespace libtorch_tidy::run
