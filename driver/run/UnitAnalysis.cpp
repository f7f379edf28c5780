//===--- UnitAnalysis.cpp - Analyze one translation unit ------------------===//
//
// Part of libtorch-tidy. SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//
//
// The action below is clang-tidy 16's runClangTidy (ClangTidy.cpp) for one
// file: the same ClangTidyContext, ClangTidyDiagnosticConsumer (NOLINT,
// header and line filters, conflicting fixes), argument adjusters and
// ClangTidyASTConsumerFactory. We add SkippingConsumer around clang-tidy's
// consumer and record TORCH_VERSION from the preprocessor.
//
//===----------------------------------------------------------------------===//

#include "run/UnitAnalysis.h"
#include "analysis/UserCode.h"
#include "clang-tidy/ClangTidy.h"
#include "clang-tidy/ClangTidyDiagnosticConsumer.h"
#include "clang-tidy/ClangTidyModule.h"
#include "run/ErrorConversion.h"
#include "run/SkipPolicy.h"
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
#include <nlohmann/json.hpp>
#include <optional>
#include <set>
#include <tuple>

using namespace clang;
using namespace clang::tidy;
using namespace clang::tooling;
using namespace llvm;

namespace libtorch_tidy::run {
namespace {

/// Wraps clang-tidy's consumer so that the unit skips what our checks never
/// look at. Every matcher starts with `unless(isExpansionInSystemHeader())`:
/// LibTorch's and the standard library's code is never reported on, yet
/// parsing it and walking its AST are most of a LibTorch unit's time.
///
/// 1. Function bodies in system headers are not parsed, templates included:
///    an instantiation from user code then gets a declaration without a body,
///    which no check inspects. Kept: constexpr functions (constant evaluation
///    needs the body) and deduced return types (the type comes from the
///    body); Sema refuses to skip those, and we say so rather than rely on it.
/// 2. The matchers walk only the top-level declarations outside system
///    headers (ASTContext's traversal scope, as clangd does for clang-tidy),
///    unless findings in system headers were asked for.
/// A few standard checks need more of the unit (SkipPolicy.h): with one of
/// them enabled, the unit keeps (some) bodies or the whole traversal scope.
/// The checks that need the whole unit (SkipPolicy.h) come as a consumer of
/// their own, \p WholeUnit: it matches first, with the whole traversal
/// scope, then the other checks only user declarations.
class SkippingConsumer : public MultiplexConsumer {
public:
  static std::unique_ptr<SkippingConsumer>
  create(std::unique_ptr<ASTConsumer> Inner,
         std::unique_ptr<ASTConsumer> WholeUnit, const SourceManager &Sources,
         bool MatchSystemHeaders, SkipPolicy Policy) {
    ASTConsumer *InnerPtr = Inner.get();
    ASTConsumer *WholeUnitPtr = WholeUnit.get();
    return std::unique_ptr<SkippingConsumer>(new SkippingConsumer(
        wrap(std::move(Inner), std::move(WholeUnit)), InnerPtr, WholeUnitPtr,
        Sources, MatchSystemHeaders, Policy));
  }

  bool shouldSkipFunctionBody(Decl *D) override {
    if (Policy.SystemBodies == SkipPolicy::Bodies::KeepAll)
      return false;
    const auto *FD = dyn_cast_or_null<FunctionDecl>(D->getAsFunction());
    if (!FD || !inSystemHeader(FD))
      return false;
    if (FD->isConstexpr())
      return false;
    if (FD->getDeclaredReturnType()->getContainedDeducedType())
      return false;
    if (Policy.SystemBodies == SkipPolicy::Bodies::KeepForwarding &&
        hasForwardingReferenceParameter(*FD))
      return false;
    return true;
  }

  void HandleTranslationUnit(ASTContext &Context) override {
    if (WholeUnit)
      WholeUnit->HandleTranslationUnit(Context);
    if (!MatchSystemHeaders && (Policy.NarrowScope || WholeUnit)) {
      Context.setTraversalScope(libtorch::analysis::userTopLevelDecls(Context));
    }
    Inner->HandleTranslationUnit(Context);
  }

private:
  SkippingConsumer(std::vector<std::unique_ptr<ASTConsumer>> Consumers,
                   ASTConsumer *Inner, ASTConsumer *WholeUnit,
                   const SourceManager &Sources, bool MatchSystemHeaders,
                   SkipPolicy Policy)
      : MultiplexConsumer(std::move(Consumers)), Inner(Inner),
        WholeUnit(WholeUnit), Sources(Sources),
        MatchSystemHeaders(MatchSystemHeaders), Policy(Policy) {}

  static std::vector<std::unique_ptr<ASTConsumer>>
  wrap(std::unique_ptr<ASTConsumer> Inner,
       std::unique_ptr<ASTConsumer> WholeUnit) {
    std::vector<std::unique_ptr<ASTConsumer>> Consumers;
    Consumers.push_back(std::move(Inner));
    if (WholeUnit)
      Consumers.push_back(std::move(WholeUnit));
    return Consumers;
  }

  /// A declaration written by a macro expansion belongs where the macro was
  /// used: TORCH_MODULE(Net) in user code is user code.
  bool inSystemHeader(const Decl *D) const {
    return Sources.isInSystemHeader(Sources.getExpansionLoc(D->getLocation()));
  }

  /// A function template taking `T &&` (or a pack of them): what
  /// ExprMutationAnalyzer follows an argument into.
  static bool hasForwardingReferenceParameter(const FunctionDecl &FD) {
    if (!FD.getDescribedFunctionTemplate())
      return false;
    return llvm::any_of(FD.parameters(), [](const ParmVarDecl *Param) {
      QualType Type = Param->getType();
      if (const auto *Pack = Type->getAs<PackExpansionType>())
        Type = Pack->getPattern();
      const auto *Ref = Type->getAs<RValueReferenceType>();
      return Ref && !Ref->getPointeeType().getQualifiers() &&
             Ref->getPointeeType()->getAs<TemplateTypeParmType>();
    });
  }

  /// Owned by MultiplexConsumer; WholeUnit may be null.
  ASTConsumer *const Inner;
  ASTConsumer *const WholeUnit;
  const SourceManager &Sources;
  const bool MatchSystemHeaders;
  const SkipPolicy Policy;
};

/// Records the value of TORCH_VERSION ("1.13.0") when torch/version.h
/// defines it.
class VersionRecorder : public PPCallbacks {
public:
  explicit VersionRecorder(std::string &Version) : Version(Version) {}

  void MacroDefined(const Token &Name, const MacroDirective *MD) override {
    const IdentifierInfo *II = Name.getIdentifierInfo();
    if (!II || II->getName() != "TORCH_VERSION")
      return;
    const MacroInfo *MI = MD->getMacroInfo();
    if (MI->getNumTokens() != 1 ||
        !MI->getReplacementToken(0).is(tok::string_literal))
      return;
    const Token &Literal = MI->getReplacementToken(0);
    StringRef Spelling(Literal.getLiteralData(), Literal.getLength());
    Version = Spelling.trim('"').str();
  }

private:
  std::string &Version;
};

/// Records where a `__has_include` that found nothing looked: each such
/// path is a dependency of the unit's result, which a header created there
/// later makes stale (ccache's direct mode does the same).
class AbsentHeaderRecorder : public PPCallbacks {
public:
  AbsentHeaderRecorder(Preprocessor &PP, std::set<std::string> &Absent)
      : PP(PP), Absent(Absent) {}

  void HasInclude(SourceLocation Loc, StringRef FileName, bool IsAngled,
                  OptionalFileEntryRef File,
                  SrcMgr::CharacteristicKind) override {
    if (File || FileName.empty() || sys::path::is_absolute(FileName))
      return;
    SourceManager &SM = PP.getSourceManager();
    if (!IsAngled)
      if (const FileEntry *Includer =
              SM.getFileEntryForID(SM.getFileID(SM.getExpansionLoc(Loc))))
        add(Includer->getDir()->getName(), FileName);
    for (const DirectoryLookup &Dir :
         PP.getHeaderSearchInfo().search_dir_range())
      if (OptionalDirectoryEntryRef Entry = Dir.getDirRef())
        add(Entry->getName(), FileName);
  }

private:
  void add(StringRef Directory, StringRef FileName) {
    SmallString<256> Path(Directory);
    sys::path::append(Path, FileName);
    PP.getFileManager().makeAbsolutePath(Path);
    sys::path::remove_dots(Path, /*remove_dot_dot=*/true);
    Absent.insert(std::string(Path));
  }

  Preprocessor &PP;
  std::set<std::string> &Absent;
};

class AnalysisActionFactory : public FrontendActionFactory {
public:
  AnalysisActionFactory(
      ClangTidyContext &Context, ClangTidyContext *WholeUnitContext,
      std::vector<std::string> EnabledChecks,
      IntrusiveRefCntPtr<vfs::OverlayFileSystem> BaseFS, bool SkipSystemBodies,
      std::string &LibTorchVersion,
      std::vector<std::pair<std::string, std::string>> *Dependencies)
      : Context(Context), ConsumerFactory(Context, BaseFS),
        EnabledChecks(std::move(EnabledChecks)),
        SkipSystemBodies(SkipSystemBodies), LibTorchVersion(LibTorchVersion),
        Dependencies(Dependencies) {
    if (WholeUnitContext)
      WholeUnitFactory.emplace(*WholeUnitContext, std::move(BaseFS));
  }

  std::unique_ptr<FrontendAction> create() override {
    return std::make_unique<Action>(*this);
  }

  bool runInvocation(std::shared_ptr<CompilerInvocation> Invocation,
                     FileManager *Files,
                     std::shared_ptr<PCHContainerOperations> PCHContainerOps,
                     DiagnosticConsumer *DiagConsumer) override {
    // As clang-tidy: define __clang_analyzer__.
    Invocation->getPreprocessorOpts().SetUpStaticAnalyzer = true;
    // Without this flag Sema never asks shouldSkipFunctionBody.
    Invocation->getFrontendOpts().SkipFunctionBodies = SkipSystemBodies;
    return FrontendActionFactory::runInvocation(
        std::move(Invocation), Files, std::move(PCHContainerOps), DiagConsumer);
  }

private:
  class Action : public ASTFrontendAction {
  public:
    explicit Action(AnalysisActionFactory &Factory) : Factory(Factory) {}
    std::unique_ptr<ASTConsumer> CreateASTConsumer(CompilerInstance &Compiler,
                                                   StringRef File) override {
      Compiler.getPreprocessor().addPPCallbacks(
          std::make_unique<VersionRecorder>(Factory.LibTorchVersion));
      if (Factory.Dependencies)
        Compiler.getPreprocessor().addPPCallbacks(
            std::make_unique<AbsentHeaderRecorder>(Compiler.getPreprocessor(),
                                                   Factory.AbsentHeaders));
      std::unique_ptr<ASTConsumer> Checks =
          Factory.ConsumerFactory.createASTConsumer(Compiler, File);
      if (!Factory.SkipSystemBodies)
        return Checks;
      // After the other one: the analyzer's options are the compiler's, and
      // the analyzer checks are among these.
      std::unique_ptr<ASTConsumer> WholeUnit;
      if (Factory.WholeUnitFactory)
        WholeUnit = Factory.WholeUnitFactory->createASTConsumer(Compiler, File);
      const bool MatchSystemHeaders =
          Factory.Context.getOptionsForFile(File).SystemHeaders.value_or(false);
      return SkippingConsumer::create(
          std::move(Checks), std::move(WholeUnit), Compiler.getSourceManager(),
          MatchSystemHeaders, skipPolicyFor(Factory.EnabledChecks));
    }

    /// Keeps the bytes parsed of every user file (not system headers), and
    /// records every file the unit read with the hash of the content that
    /// was parsed. Neither is re-read later: an edit during the analysis
    /// must not pair new content with old offsets, in `--fix` or the cache.
    void EndSourceFileAction() override {
      const SourceManager &SM = getCompilerInstance().getSourceManager();
      for (unsigned I = 0, N = SM.local_sloc_entry_size(); I < N; ++I) {
        const SrcMgr::SLocEntry &Entry = SM.getLocalSLocEntry(I);
        if (!Entry.isFile() ||
            SrcMgr::isSystem(Entry.getFile().getFileCharacteristic()))
          continue;
        const SrcMgr::ContentCache &Content = Entry.getFile().getContentCache();
        std::optional<MemoryBufferRef> Buffer = Content.getBufferIfLoaded();
        if (!Content.OrigEntry || !Buffer)
          continue;
        auto [It, New] = Factory.Parsed.try_emplace(
            Content.OrigEntry->getName().str(), Buffer->getBuffer().str());
        // Two compile commands of the unit parsed two versions of the file
        // (it was edited in between): no version is safe to fix.
        if (!New && It->second != Buffer->getBuffer())
          Factory.Inconsistent.insert(It->first);
      }
      if (!Factory.Dependencies)
        return;
      for (auto It = SM.fileinfo_begin(), End = SM.fileinfo_end(); It != End;
           ++It) {
        std::optional<MemoryBufferRef> Buffer = It->second->getBufferIfLoaded();
        if (!Buffer)
          continue;
        StringRef Name = It->first->tryGetRealPathName();
        if (Name.empty())
          Name = It->first->getName();
        Factory.Dependencies->emplace_back(
            Name.str(), fastContentHash(Buffer->getBuffer()));
      }
      for (const std::string &Path : Factory.AbsentHeaders)
        Factory.Dependencies->emplace_back(Path, AbsentFileHash.str());
      llvm::sort(*Factory.Dependencies);
    }

  private:
    AnalysisActionFactory &Factory;
  };

  ClangTidyContext &Context;
  ClangTidyASTConsumerFactory ConsumerFactory;
  std::optional<ClangTidyASTConsumerFactory> WholeUnitFactory;
  std::vector<std::string> EnabledChecks;
  bool SkipSystemBodies;
  std::string &LibTorchVersion;
  std::vector<std::pair<std::string, std::string>> *Dependencies;

public:
  /// What the compiler parsed of each user file (EndSourceFileAction).
  ParsedContents Parsed;
  /// Files parsed with different content by two compile commands.
  std::set<std::string> Inconsistent;
  /// Paths where `__has_include` found nothing (AbsentHeaderRecorder).
  std::set<std::string> AbsentHeaders;
};

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

/// \p Inner's options with \p Checks added after every source: the checks
/// of one of a unit's two contexts (SkippingConsumer).
class ChecksRestriction : public ClangTidyOptionsProvider {
public:
  ChecksRestriction(std::shared_ptr<ClangTidyOptionsProvider> Inner,
                    std::string Checks)
      : Inner(std::move(Inner)), Checks(std::move(Checks)) {}
  const ClangTidyGlobalOptions &getGlobalOptions() override {
    return Inner->getGlobalOptions();
  }
  std::vector<OptionsSource> getRawOptions(StringRef FileName) override {
    std::vector<OptionsSource> Raw = Inner->getRawOptions(FileName);
    if (!Checks.empty()) {
      ClangTidyOptions Restriction;
      Restriction.Checks = Checks;
      Raw.emplace_back(std::move(Restriction), "libtorch-tidy");
    }
    return Raw;
  }

private:
  std::shared_ptr<ClangTidyOptionsProvider> Inner;
  std::string Checks;
};

/// Reads the per-check times clang-tidy's profiler stored as JSON under
/// \p Dir (one file per unit) into \p Profile, then removes them.
void collectProfile(StringRef Dir, std::map<std::string, double> &Profile) {
  std::error_code EC;
  for (sys::fs::directory_iterator It(Dir, EC), End; !EC && It != End;
       It.increment(EC)) {
    ErrorOr<std::unique_ptr<MemoryBuffer>> Text =
        MemoryBuffer::getFile(It->path());
    if (Text) {
      nlohmann::json J = nlohmann::json::parse((*Text)->getBuffer().begin(),
                                               (*Text)->getBuffer().end(),
                                               nullptr, /*exceptions=*/false);
      if (J.is_object() && J.contains("profile") && J["profile"].is_object())
        for (const auto &[Key, Value] : J["profile"].items()) {
          // "time.clang-tidy.<check>.wall"
          StringRef Name(Key);
          if (!Name.consume_front("time.clang-tidy.") ||
              !Name.consume_back(".wall") || !Value.is_number())
            continue;
          Profile[Name.str()] += Value.get<double>();
        }
    }
    sys::fs::remove(It->path());
  }
  sys::fs::remove(Dir);
}

} // namespace

std::string fastContentHash(StringRef Bytes) {
  return utohexstr(xxHash64(Bytes), /*LowerCase=*/true);
}

report::TranslationUnitResult
analyzeUnit(std::unique_ptr<ClangTidyOptionsProvider> Options,
            const CompilationDatabase &Compilations, StringRef File,
            IntrusiveRefCntPtr<vfs::OverlayFileSystem> BaseFS,
            const AnalysisSettings &Settings,
            std::vector<std::pair<std::string, std::string>> *Dependencies) {
  report::TranslationUnitResult Unit;
  Unit.MainFile = File.str();

  // The checks that need the whole unit match in a context of their own
  // when other checks run too (SkippingConsumer).
  std::shared_ptr<ClangTidyOptionsProvider> Shared(std::move(Options));
  const ClangTidyOptions ForFile = Shared->getOptions(File);
  std::vector<std::string> Enabled =
      getCheckNames(ForFile, /*AllowEnablingAnalyzerAlphaCheckers=*/false);
  std::string WholeUnitChecks, OtherChecks;
  size_t WholeUnitCount = 0;
  if (Settings.SkipSystemBodies && !ForFile.SystemHeaders.value_or(false))
    for (const std::string &Check : Enabled)
      if (needsWholeUnit(Check)) {
        WholeUnitChecks += "," + Check;
        OtherChecks += ",-" + Check;
        ++WholeUnitCount;
      }
  const bool Split = WholeUnitCount > 0 && WholeUnitCount < Enabled.size();
  ClangTidyContext Context(
      std::make_unique<ChecksRestriction>(Shared, Split ? OtherChecks : ""),
      /*AllowEnablingAnalyzerAlphaCheckers=*/false);
  std::unique_ptr<ClangTidyContext> WholeUnitContext;
  if (Split)
    WholeUnitContext = std::make_unique<ClangTidyContext>(
        std::make_unique<ChecksRestriction>(Shared, "-*" + WholeUnitChecks),
        /*AllowEnablingAnalyzerAlphaCheckers=*/false);
  DistinctCommands Commands(Compilations);
  ClangTool Tool(Commands, {File.str()},
                 std::make_shared<PCHContainerOperations>(), BaseFS);
  // --extra-arg(-before) and ExtraArgs from .clang-tidy, as clang-tidy.
  Tool.appendArgumentsAdjuster(
      [&Context](const CommandLineArguments &Args, StringRef Filename) {
        ClangTidyOptions Opts = Context.getOptionsForFile(Filename);
        CommandLineArguments Adjusted = Args;
        if (Opts.ExtraArgsBefore) {
          auto I = Adjusted.begin();
          if (I != Adjusted.end() && !StringRef(*I).startswith("-"))
            ++I; // Skip compiler binary name, if it is there.
          Adjusted.insert(I, Opts.ExtraArgsBefore->begin(),
                          Opts.ExtraArgsBefore->end());
        }
        if (Opts.ExtraArgs)
          Adjusted.insert(Adjusted.end(), Opts.ExtraArgs->begin(),
                          Opts.ExtraArgs->end());
        return Adjusted;
      });
  Tool.appendArgumentsAdjuster(getStripPluginsAdjuster());

  SmallString<128> ProfileDir;
  if (Settings.EnableCheckProfile) {
    std::string Prefix = Settings.StoreCheckProfile;
    if (Prefix.empty() &&
        !sys::fs::createUniqueDirectory("libtorch-tidy-profile", ProfileDir))
      Prefix = std::string(ProfileDir);
    for (ClangTidyContext *C : {&Context, WholeUnitContext.get()}) {
      if (!C)
        continue;
      if (!Prefix.empty())
        C->setProfileStoragePrefix(Prefix);
      C->setEnableProfiling(true);
    }
  }

  ClangTidyDiagnosticConsumer DiagConsumer(Context, nullptr,
                                           /*RemoveIncompatibleErrors=*/true,
                                           Settings.FixNotes);
  DiagnosticsEngine DE(new DiagnosticIDs(), new DiagnosticOptions(),
                       &DiagConsumer, /*ShouldOwnClient=*/false);
  Context.setDiagnosticsEngine(&DE);
  Tool.setDiagnosticConsumer(&DiagConsumer);
  // The whole-unit checks' findings only: compiler diagnostics go to the
  // consumer above.
  std::unique_ptr<ClangTidyDiagnosticConsumer> WholeUnitDiags;
  std::unique_ptr<DiagnosticsEngine> WholeUnitDE;
  if (WholeUnitContext) {
    WholeUnitDiags = std::make_unique<ClangTidyDiagnosticConsumer>(
        *WholeUnitContext, nullptr, /*RemoveIncompatibleErrors=*/true,
        Settings.FixNotes);
    WholeUnitDE = std::make_unique<DiagnosticsEngine>(
        new DiagnosticIDs(), new DiagnosticOptions(), WholeUnitDiags.get(),
        /*ShouldOwnClient=*/false);
    WholeUnitContext->setDiagnosticsEngine(WholeUnitDE.get());
  }

  AnalysisActionFactory Factory(Context, WholeUnitContext.get(), Enabled,
                                BaseFS, Settings.SkipSystemBodies,
                                Unit.LibTorchVersion, Dependencies);
  const int Status = Tool.run(&Factory);
  std::vector<ClangTidyError> Errors = DiagConsumer.take();
  if (WholeUnitDiags) {
    // In clang-tidy's order (its ClangTidyDiagnosticConsumer sorts so).
    for (ClangTidyError &E : WholeUnitDiags->take())
      Errors.push_back(std::move(E));
    llvm::stable_sort(
        Errors, [](const ClangTidyError &L, const ClangTidyError &R) {
          return std::tie(L.Message.FilePath, L.Message.FileOffset,
                          L.DiagnosticName, L.Message.Message) <
                 std::tie(R.Message.FilePath, R.Message.FileOffset,
                          R.DiagnosticName, R.Message.Message);
        });
  }

  if (!ProfileDir.empty())
    collectProfile(ProfileDir, Unit.CheckProfile);

  // As clang-tidy: the compile command's directory, made absolute the way
  // ClangTool sets it as the working directory.
  std::vector<CompileCommand> UnitCommands =
      Compilations.getCompileCommands(File);
  SmallString<256> BuildDirectory(
      UnitCommands.empty() ? StringRef()
                           : StringRef(UnitCommands.front().Directory));
  sys::fs::make_absolute(BuildDirectory);
  sys::path::remove_dots(BuildDirectory, /*remove_dot_dot=*/true);
  Unit.BuildDirectory = std::string(BuildDirectory);
  for (const std::string &File : Factory.Inconsistent)
    Factory.Parsed.erase(File);
  ErrorConverter Converter(Unit.BuildDirectory, Factory.Parsed);
  Converter.convert(Errors, Unit);

  for (ClangTidyContext *C : {&Context, WholeUnitContext.get()}) {
    if (!C)
      continue;
    const ClangTidyStats &Stats = C->getStats();
    Unit.Suppressed.NoLint += Stats.ErrorsIgnoredNOLINT;
    Unit.Suppressed.NonUserCode += Stats.ErrorsIgnoredNonUserCode;
    Unit.Suppressed.LineFilter += Stats.ErrorsIgnoredLineFilter;
    Unit.Suppressed.CheckFilter += Stats.ErrorsIgnoredCheckFilter;
  }

  if (!Unit.CompilerErrors.empty()) {
    Unit.State = report::TranslationUnitResult::Status::CompileErrors;
    Unit.FailureMessage =
        std::to_string(Unit.CompilerErrors.size()) +
        (Unit.CompilerErrors.size() == 1 ? " compiler error"
                                         : " compiler errors");
  } else if (Status != 0) {
    Unit.State = report::TranslationUnitResult::Status::Failed;
    Unit.FailureMessage =
        UnitCommands.empty()
            ? "it has no compile command in the database; add it (re-run "
              "the build system's configure step) or pass its flags after "
              "'--'"
            : "the compiler could not process it";
  }
  return Unit;
}

} // namespace libtorch_tidy::run
