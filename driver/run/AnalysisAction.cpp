//===--- AnalysisAction.cpp - The frontend action of one unit -------------===//
//
// Part of libtorch-tidy. SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

#include "run/AnalysisAction.h"
#include "analysis/UserCode.h"
#include "run/SkipPolicy.h"
#include "run/UnitAnalysis.h"
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
    // User code keeps its bodies; so does a function without a location,
    // which isUserCode() does not count as user code.
    if (!FD || FD->getLocation().isInvalid() ||
        libtorch::analysis::isUserCode(FD, Sources))
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

} // namespace

class AnalysisActionFactory::Action : public ASTFrontendAction {
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
      Factory.Dependencies->emplace_back(Name.str(),
                                         fastContentHash(Buffer->getBuffer()));
    }
    for (const std::string &Path : Factory.AbsentHeaders)
      Factory.Dependencies->emplace_back(Path, AbsentFileHash.str());
    llvm::sort(*Factory.Dependencies);
  }

private:
  AnalysisActionFactory &Factory;
};

AnalysisActionFactory::AnalysisActionFactory(
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

std::unique_ptr<FrontendAction> AnalysisActionFactory::create() {
  return std::make_unique<Action>(*this);
}

bool AnalysisActionFactory::runInvocation(
    std::shared_ptr<CompilerInvocation> Invocation, FileManager *Files,
    std::shared_ptr<PCHContainerOperations> PCHContainerOps,
    DiagnosticConsumer *DiagConsumer) {
  // As clang-tidy: define __clang_analyzer__.
  Invocation->getPreprocessorOpts().SetUpStaticAnalyzer = true;
  // Without this flag Sema never asks shouldSkipFunctionBody.
  Invocation->getFrontendOpts().SkipFunctionBodies = SkipSystemBodies;
  return FrontendActionFactory::runInvocation(
      std::move(Invocation), Files, std::move(PCHContainerOps), DiagConsumer);
}

} // namespace libtorch_tidy::run
