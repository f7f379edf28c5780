//===--- AnalysisAction.cpp - The frontend action of one unit -------------===//
//
// Part of libtorch-tidy. SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

#include "run/AnalysisAction.h"
#include "Summaries.h"
#include "cache/DependencyRecording.h"
#include "preamble/PrecompiledPrefixes.h"
#include "preamble/SkipPolicy.h"
#include "run/UnitAnalysis.h"
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
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Path.h"

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
/// A few standard checks need more of the unit (preamble/SkipPolicy.h): with
/// one of them enabled, the unit keeps (some) bodies or the whole traversal
/// scope. The checks that need the whole unit (preamble/SkipPolicy.h) come as a
/// consumer of their own, \p WholeUnit: it matches first, with the whole
/// traversal scope, then the other checks only user declarations.
class SkippingConsumer : public MultiplexConsumer {
public:
  static std::unique_ptr<SkippingConsumer>
  create(std::unique_ptr<ASTConsumer> Inner,
         std::unique_ptr<ASTConsumer> WholeUnit, const SourceManager &Sources,
         bool MatchSystemHeaders, preamble::SkipPolicy Policy) {
    ASTConsumer *InnerPtr = Inner.get();
    ASTConsumer *WholeUnitPtr = WholeUnit.get();
    return std::unique_ptr<SkippingConsumer>(new SkippingConsumer(
        wrap(std::move(Inner), std::move(WholeUnit)), InnerPtr, WholeUnitPtr,
        Sources, MatchSystemHeaders, Policy));
  }

  bool shouldSkipFunctionBody(Decl *D) override {
    return preamble::skipsBody(D, Sources, Policy.SystemBodies);
  }

  void HandleTranslationUnit(ASTContext &Context) override {
    if (WholeUnit)
      WholeUnit->HandleTranslationUnit(Context);
    if (!MatchSystemHeaders && (Policy.NarrowScope || WholeUnit)) {
      Context.setTraversalScope(libtorch::utils::userTopLevelDecls(Context));
    }
    Inner->HandleTranslationUnit(Context);
  }

private:
  SkippingConsumer(std::vector<std::unique_ptr<ASTConsumer>> Consumers,
                   ASTConsumer *Inner, ASTConsumer *WholeUnit,
                   const SourceManager &Sources, bool MatchSystemHeaders,
                   preamble::SkipPolicy Policy)
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

  /// Owned by MultiplexConsumer; WholeUnit may be null.
  ASTConsumer *const Inner;
  ASTConsumer *const WholeUnit;
  const SourceManager &Sources;
  const bool MatchSystemHeaders;
  const preamble::SkipPolicy Policy;
};

/// The value of TORCH_VERSION ("1.13.0") as torch/version.h defines it;
/// empty for another definition. The spelling is asked of \p PP: a macro
/// read from a PCH has no token data of its own.
std::string versionOf(const Preprocessor &PP, const MacroInfo *MI) {
  if (!MI || MI->getNumTokens() != 1 ||
      !MI->getReplacementToken(0).is(tok::string_literal))
    return "";
  return StringRef(PP.getSpelling(MI->getReplacementToken(0))).trim('"').str();
}

/// Records the value of TORCH_VERSION when torch/version.h defines it. A
/// precompiled prefix defined it before the parse: EndSourceFileAction
/// asks the preprocessor then.
class VersionRecorder : public PPCallbacks {
public:
  VersionRecorder(const Preprocessor &PP, std::string &Version)
      : PP(PP), Version(Version) {}

  void MacroDefined(const Token &Name, const MacroDirective *MD) override {
    const IdentifierInfo *II = Name.getIdentifierInfo();
    if (II && II->getName() == "TORCH_VERSION")
      Version = versionOf(PP, MD->getMacroInfo());
  }

private:
  const Preprocessor &PP;
  std::string &Version;
};

/// Summarizes the main file's functions once the unit is parsed
/// (Summaries.h), for the units that call them.
class SummaryConsumer : public ASTConsumer {
public:
  SummaryConsumer(std::string &Out, std::vector<std::string> &CalledElsewhere)
      : Out(Out), CalledElsewhere(CalledElsewhere) {}
  void HandleTranslationUnit(ASTContext &Context) override {
    clang::tidy::libtorch::summaries::UnitSummaries Unit =
        clang::tidy::libtorch::summaries::summarizeUnit(Context);
    Out = std::move(Unit.Text);
    CalledElsewhere = std::move(Unit.CalledElsewhere);
  }

private:
  std::string &Out;
  std::vector<std::string> &CalledElsewhere;
};

} // namespace

class AnalysisActionFactory::Action : public ASTFrontendAction {
public:
  explicit Action(AnalysisActionFactory &Factory) : Factory(Factory) {}

  /// A header that is not found does not end the parse: what follows its
  /// #include is analyzed too, and ParseRecovery leaves out what the
  /// missing declarations may have changed.
  bool BeginSourceFileAction(CompilerInstance &Compiler) override {
    recoverFromMissingHeaders(Compiler.getDiagnostics());
    return ASTFrontendAction::BeginSourceFileAction(Compiler);
  }
  std::unique_ptr<ASTConsumer> CreateASTConsumer(CompilerInstance &Compiler,
                                                 StringRef File) override {
    Compiler.getPreprocessor().addPPCallbacks(std::make_unique<VersionRecorder>(
        Compiler.getPreprocessor(), Factory.LibTorchVersion));
    if (Factory.Dependencies)
      Compiler.getPreprocessor().addPPCallbacks(
          std::make_unique<cache::AbsentHeaderRecorder>(
              Compiler.getPreprocessor(), Factory.AbsentHeaders));
    const PPCallbacks *Ours = Compiler.getPreprocessor().getPPCallbacks();
    ConsumerFactories &Factories = Factory.factoriesFor(Compiler);
    std::unique_ptr<ASTConsumer> Checks =
        Factories.Checks.createASTConsumer(Compiler, File);
    // After the other one: the analyzer's options are the compiler's, and
    // the analyzer checks are among these.
    std::unique_ptr<ASTConsumer> WholeUnit;
    if (Factory.SkipSystemBodies && Factories.WholeUnit)
      WholeUnit = Factories.WholeUnit->createASTConsumer(Compiler, File);
    if (Compiler.getPreprocessor().getPPCallbacks() != Ours) {
      Factory.ChecksWatchPreprocessor = true;
      // Stop before the parse: runInvocation parses again without the
      // prefix, whose preprocessor events these checks would miss.
      if (Factory.ParsingAgainstPrefix)
        return nullptr;
    }
    std::vector<std::unique_ptr<ASTConsumer>> Consumers;
    if (!Factory.SkipSystemBodies) {
      Consumers.push_back(std::move(Checks));
    } else {
      const bool MatchSystemHeaders =
          Factory.Context.getOptionsForFile(File).SystemHeaders.value_or(false);
      Consumers.push_back(SkippingConsumer::create(
          std::move(Checks), std::move(WholeUnit), Compiler.getSourceManager(),
          MatchSystemHeaders, preamble::skipPolicyFor(Factory.EnabledChecks)));
    }
    Consumers.push_back(std::make_unique<SummaryConsumer>(
        Factory.FunctionSummaries, Factory.CalledElsewhere));
    return std::make_unique<MultiplexConsumer>(std::move(Consumers));
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
    if (Factory.ParsingAgainstPrefix && !Factory.AppliedPrefixes.empty())
      if (std::optional<MemoryBufferRef> Main =
              SM.getBufferOrNone(SM.getMainFileID()))
        if (!(preamble::leadingSystemIncludes(Main->getBuffer()) ==
              Factory.AppliedPrefixes.back().Prefix))
          Factory.PrefixMismatch = true;
    if (Factory.Errors && Factory.Errors->sawErrors() &&
        getCompilerInstance().hasASTContext())
      Factory.Recovery.merge(ParseRecovery::of(
          getCompilerInstance().getASTContext(), *Factory.Errors));
    if (Factory.LibTorchVersion.empty()) {
      Preprocessor &PP = getCompilerInstance().getPreprocessor();
      if (IdentifierInfo *II = PP.getIdentifierInfo("TORCH_VERSION"))
        Factory.LibTorchVersion =
            versionOf(PP, PP.getMacroDefinition(II).getMacroInfo());
    }
    if (!Factory.Dependencies)
      return;
    // Each of the unit's compile commands adds what it read, and what the
    // build of its precompiled prefix read.
    for (cache::Dependency &D :
         cache::readDependencies(SM, Factory.AbsentHeaders))
      Factory.Dependencies->push_back(std::move(D));
    if (Factory.ParsingAgainstPrefix && !Factory.AppliedPrefixes.empty())
      for (const cache::Dependency &D :
           Factory.AppliedPrefixes.back().Entry.Dependencies)
        Factory.Dependencies->push_back(D);
    llvm::sort(*Factory.Dependencies);
    Factory.Dependencies->erase(
        std::unique(Factory.Dependencies->begin(), Factory.Dependencies->end()),
        Factory.Dependencies->end());
  }

private:
  AnalysisActionFactory &Factory;
};

AnalysisActionFactory::AnalysisActionFactory(
    ClangTidyContext &Context, ClangTidyContext *WholeUnitContext,
    std::vector<std::string> EnabledChecks,
    IntrusiveRefCntPtr<vfs::OverlayFileSystem> BaseFS, bool SkipSystemBodies,
    std::string &LibTorchVersion,
    std::vector<std::pair<std::string, std::string>> *Dependencies,
    preamble::PrecompiledPrefixes *Prefixes)
    : Context(Context), WholeUnitContext(WholeUnitContext),
      BaseFS(std::move(BaseFS)), Textual(Context, WholeUnitContext, nullptr),
      EnabledChecks(std::move(EnabledChecks)),
      SkipSystemBodies(SkipSystemBodies), LibTorchVersion(LibTorchVersion),
      Dependencies(Dependencies), Prefixes(Prefixes) {}

AnalysisActionFactory::ConsumerFactories::ConsumerFactories(
    ClangTidyContext &Context, ClangTidyContext *WholeUnitContext,
    IntrusiveRefCntPtr<vfs::OverlayFileSystem> BaseFS)
    : Checks(Context, BaseFS) {
  if (WholeUnitContext)
    WholeUnit.emplace(*WholeUnitContext, std::move(BaseFS));
}

AnalysisActionFactory::ConsumerFactories &
AnalysisActionFactory::factoriesFor(CompilerInstance &Compiler) {
  if (!preamble::usesHeaderModules(Compiler.getInvocation()))
    return Textual;
  if (!Modular)
    Modular.emplace(Context, WholeUnitContext, BaseFS);
  return *Modular;
}

std::unique_ptr<FrontendAction> AnalysisActionFactory::create() {
  return std::make_unique<Action>(*this);
}

bool AnalysisActionFactory::runInvocation(
    std::shared_ptr<CompilerInvocation> Invocation, FileManager *Files,
    std::shared_ptr<PCHContainerOperations> PCHContainerOps,
    DiagnosticConsumer *DiagConsumer) {
  // One parse: every diagnostic goes on to clang-tidy's consumer, and the
  // errors' places, valid only while this parse's SourceManager lives, are
  // kept for ParseRecovery (Action::EndSourceFileAction).
  const auto Parse = [&](std::shared_ptr<CompilerInvocation> Parsed) {
    ErrorRecorder Recorder(*DiagConsumer);
    Errors = &Recorder;
    const bool Ran = FrontendActionFactory::runInvocation(
        std::move(Parsed), Files, PCHContainerOps, &Recorder);
    Errors = nullptr; // the recorder ends here
    return Ran;
  };
  // As clang-tidy: define __clang_analyzer__.
  Invocation->getPreprocessorOpts().SetUpStaticAnalyzer = true;
  // Without this flag Sema never asks shouldSkipFunctionBody.
  Invocation->getFrontendOpts().SkipFunctionBodies = SkipSystemBodies;
  if (BuildPrefixOnly && !Prefixes)
    return true; // no cache to build it in
  if (!Prefixes || ChecksWatchPreprocessor)
    return Parse(std::move(Invocation));

  auto Plain = std::make_shared<CompilerInvocation>(*Invocation);
  std::optional<preamble::SkipPolicy::Bodies> SkipBodies;
  if (SkipSystemBodies)
    SkipBodies = preamble::skipPolicyFor(EnabledChecks).SystemBodies;
  std::optional<preamble::AppliedPrefix> Applied =
      Prefixes->apply(*Invocation, *Files, PCHContainerOps, SkipBodies);
  if (BuildPrefixOnly) {
    // Built (or found) for the analyses to come; this one ends here.
    if (Applied)
      AppliedPrefixes.push_back(std::move(*Applied));
    return true;
  }
  if (Applied) {
    AppliedPrefixes.push_back(std::move(*Applied));
    ParsingAgainstPrefix = true;
    const bool Succeeded = Parse(std::move(Invocation));
    ParsingAgainstPrefix = false;
    if (!ChecksWatchPreprocessor)
      return Succeeded;
    // The action stopped before the parse (CreateASTConsumer).
    AppliedPrefixes.pop_back();
  }
  return Parse(std::move(Plain));
}

} // namespace libtorch_tidy::run
