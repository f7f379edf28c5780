//===--- ParseRecovery.cpp - Findings in code that did not parse ----------===//
//
// Part of libtorch-tidy. SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

#include "run/ParseRecovery.h"
#include "Catalog.h"
#include "analysis/LibTorchCalls.h"
#include "clang-compat/ClangCompat.h"
#include "report/Wording.h"
#include "utils/UserCode.h"
#include "clang/AST/RecursiveASTVisitor.h"
#include "clang/Basic/DiagnosticLex.h"
#include "clang/Basic/SourceManager.h"
#include "clang/Lex/Lexer.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/StringMap.h"
#include <algorithm>
#include <optional>

using namespace clang;
using namespace llvm;

namespace libtorch_tidy::run {

void recoverFromMissingHeaders(DiagnosticsEngine &Diagnostics) {
  Diagnostics.setSeverity(diag::err_pp_file_not_found, diag::Severity::Error,
                          SourceLocation());
}

void ErrorRecorder::BeginSourceFile(const LangOptions &Options,
                                    const Preprocessor *PP) {
  Inner.BeginSourceFile(Options, PP);
}
void ErrorRecorder::EndSourceFile() { Inner.EndSourceFile(); }
void ErrorRecorder::finish() { Inner.finish(); }
bool ErrorRecorder::IncludeInDiagnosticCounts() const {
  return Inner.IncludeInDiagnosticCounts();
}
void ErrorRecorder::clear() {
  DiagnosticConsumer::clear();
  Inner.clear();
}

void ErrorRecorder::HandleDiagnostic(DiagnosticsEngine::Level Level,
                                     const clang::Diagnostic &Info) {
  DiagnosticConsumer::HandleDiagnostic(Level, Info);
  if (Level >= DiagnosticsEngine::Error) {
    const unsigned Id = Info.getID();
    if (Id == diag::err_pp_file_not_found ||
        Id == diag::err_pp_file_not_found_angled_include_not_fatal ||
        Id == diag::err_pp_file_not_found_typo_not_fatal) {
      if (FirstMissingInclude.isInvalid())
        FirstMissingInclude = Info.getLocation();
      std::string Header = Info.getArgStdStr(0);
      if (!is_contained(MissingHeaders, Header))
        MissingHeaders.push_back(std::move(Header));
    } else if (Id == diag::fatal_too_many_errors ||
               Info.getLocation().isInvalid()) {
      Unbounded = true;
    } else {
      CodeErrors.push_back(Info.getLocation());
    }
  }
  Inner.HandleDiagnostic(Level, Info);
}

namespace {

/// The user functions with bodies, their calls to one another, and the
/// classes they belong to: template patterns, not instantiations (an
/// instantiation's code is its pattern's, and so are its errors' places).
class FunctionGraph {
public:
  struct Range {
    FileID File;
    unsigned Begin = 0;
    unsigned End = 0;
    /// Where it starts, for the order of the translation unit.
    SourceLocation Start;
    bool holds(FileID F, unsigned Offset) const {
      return F == File && Begin <= Offset && Offset < End;
    }
    bool holds(const Range &Inner) const {
      return Inner.File == File && Begin <= Inner.Begin && Inner.End <= End;
    }
  };
  struct Call {
    const Decl *Callee;
    Range Where;
  };
  struct Function {
    Range Body;
    std::vector<Call> Calls;
  };

  FunctionGraph(ASTContext &Context) : SM(Context.getSourceManager()) {
    Builder B(*this, Context.getLangOpts());
    for (Decl *D : clang::tidy::libtorch::utils::userTopLevelDecls(Context))
      B.TraverseDecl(D);
  }

  std::optional<Range> rangeOf(SourceRange R,
                               const LangOptions &Options) const {
    if (R.isInvalid())
      return std::nullopt;
    auto [BeginFile, Begin] = SM.getDecomposedExpansionLoc(R.getBegin());
    const SourceLocation EndToken = SM.getExpansionLoc(R.getEnd());
    auto [EndFile, End] = SM.getDecomposedLoc(EndToken);
    if (BeginFile != EndFile || BeginFile.isInvalid() || End < Begin)
      return std::nullopt;
    End += Lexer::MeasureTokenLength(EndToken, SM, Options);
    return Range{BeginFile, Begin, std::max(End, Begin + 1),
                 SM.getExpansionLoc(R.getBegin())};
  }

  /// Key of a function for the graph: its pattern's first declaration.
  static const Decl *keyOf(const FunctionDecl *F) {
    if (const FunctionDecl *Pattern = F->getTemplateInstantiationPattern())
      F = Pattern;
    return F->getCanonicalDecl();
  }

  const SourceManager &SM;
  std::vector<Function> Functions;
  DenseMap<const Decl *, size_t> IndexOf;
  /// Class definitions, with their range.
  std::vector<Range> Classes;
  /// Where user code calls a library function by a name whose lookup a
  /// user declaration could change (isOpenNameLibraryCall()).
  std::vector<SourceLocation> OpenNameLibraryCalls;

private:
  class Builder : public RecursiveASTVisitor<Builder> {
  public:
    Builder(FunctionGraph &Graph, const LangOptions &Options)
        : Graph(Graph), Options(Options) {}
    bool shouldVisitTemplateInstantiations() const { return false; }
    bool shouldVisitImplicitCode() const { return false; }

    bool TraverseDecl(Decl *D) {
      if (auto *Record = dyn_cast_or_null<CXXRecordDecl>(D))
        if (Record->isThisDeclarationADefinition())
          if (std::optional<Range> R =
                  Graph.rangeOf(Record->getSourceRange(), Options))
            Graph.Classes.push_back(*R);
      auto *F = dyn_cast_or_null<FunctionDecl>(D);
      if (!F || !F->doesThisDeclarationHaveABody())
        return RecursiveASTVisitor::TraverseDecl(D);
      return within(F, F->getSourceRange(),
                    [&] { return RecursiveASTVisitor::TraverseDecl(D); });
    }
    /// A lambda's body is a function of its own, which the function that
    /// defines the lambda calls (where it runs is not followed).
    bool TraverseLambdaExpr(LambdaExpr *Lambda) {
      const CXXMethodDecl *Operator = Lambda->getCallOperator();
      if (Operator && !Current.empty())
        if (std::optional<Range> R =
                Graph.rangeOf(Lambda->getSourceRange(), Options))
          Graph.Functions[Current.back()].Calls.push_back(
              {keyOf(Operator), *R});
      return within(Operator, Lambda->getSourceRange(), [&] {
        return RecursiveASTVisitor::TraverseLambdaExpr(Lambda);
      });
    }
    bool VisitCallExpr(CallExpr *Call) {
      if (const FunctionDecl *Callee = Call->getDirectCallee()) {
        record(Callee, Call->getSourceRange());
        if (isOpenNameLibraryCall(*Call, *Callee))
          Graph.OpenNameLibraryCalls.push_back(clang::compat::beginOf(*Call));
      }
      return true;
    }
    bool VisitCXXConstructExpr(CXXConstructExpr *Construct) {
      record(Construct->getConstructor(), Construct->getSourceRange());
      return true;
    }

  private:
    /// A call of a function declared in a system header by a name that a
    /// user declaration could take over: an unqualified name (overload
    /// resolution weighs every declaration in scope), `::f` (the global
    /// namespace is everybody's), or `ns::f` where `ns` is a namespace of
    /// the project and `f` is not declared in it but brought in by a
    /// using-directive or -declaration (a declaration in `ns` hides those).
    /// A library's own namespaces (`std::printf`, found through std's
    /// `using ::printf`) are the library's to declare in. Only a call that
    /// involves LibTorch matters to the checks (`strstr(path, ".jpg")` tells
    /// them nothing, whichever `strstr` it is).
    bool isOpenNameLibraryCall(const CallExpr &Call,
                               const FunctionDecl &Callee) const {
      if (isa<CXXOperatorCallExpr, CXXMemberCallExpr>(Call) ||
          isa<CXXMethodDecl>(Callee) ||
          !clang::tidy::libtorch::analysis::involvesLibTorch(Call))
        return false;
      const auto *Name =
          dyn_cast<DeclRefExpr>(Call.getCallee()->IgnoreParenImpCasts());
      return Name && isInSystemHeader(Callee) && mayBeTakenOver(*Name, Callee);
    }

    bool isInSystemHeader(const Decl &D) const {
      return Graph.SM.isInSystemHeader(
          Graph.SM.getExpansionLoc(D.getLocation()));
    }

    bool mayBeTakenOver(const DeclRefExpr &Name,
                        const FunctionDecl &Callee) const {
      if (!Name.hasQualifier())
        return true;
      const clang::compat::QualifierScope Scope =
          clang::compat::qualifierScopeOf(Name);
      if (Scope.Global)
        return true;
      // A class's member (only the class declares those), or a namespace
      // only a library declares.
      if (!Scope.Namespace ||
          llvm::all_of(Scope.Namespace->redecls(), [&](const NamespaceDecl *N) {
            return isInSystemHeader(*N);
          }))
        return false;
      // Found through a using-declaration, or declared in another
      // namespace than the one named (a using-directive brought it in).
      if (isa<UsingShadowDecl>(Name.getFoundDecl()))
        return true;
      // An inline namespace's members are the enclosing namespace's.
      auto Outermost = [](const DeclContext *Context) {
        Context = Context->getRedeclContext();
        while (Context->isInlineNamespace())
          Context = Context->getParent()->getRedeclContext();
        return Context;
      };
      return !Outermost(Callee.getDeclContext())
                  ->Equals(Outermost(Scope.Namespace));
    }

    template <typename Traverse>
    bool within(const FunctionDecl *F, SourceRange Source, Traverse T) {
      std::optional<Range> R =
          F ? Graph.rangeOf(Source, Options) : std::nullopt;
      if (!R)
        return T();
      const size_t Index = Graph.Functions.size();
      Graph.Functions.push_back({*R, {}});
      Graph.IndexOf.try_emplace(keyOf(F), Index);
      Current.push_back(Index);
      const bool Result = T();
      Current.pop_back();
      return Result;
    }
    void record(const FunctionDecl *Callee, SourceRange Source) {
      if (!Callee || Current.empty())
        return;
      if (std::optional<Range> R = Graph.rangeOf(Source, Options))
        Graph.Functions[Current.back()].Calls.push_back({keyOf(Callee), *R});
    }

    FunctionGraph &Graph;
    const LangOptions &Options;
    std::vector<size_t> Current;
  };
};

/// The innermost of \p Ranges that holds \p Offset of \p File, or npos.
template <typename GetRange, typename Container>
size_t innermost(const Container &Items, GetRange Get, FileID File,
                 unsigned Offset) {
  size_t Best = StringRef::npos;
  for (size_t I = 0; I < Items.size(); ++I) {
    const FunctionGraph::Range &R = Get(Items[I]);
    if (!R.holds(File, Offset))
      continue;
    if (Best == StringRef::npos ||
        R.End - R.Begin < Get(Items[Best]).End - Get(Items[Best]).Begin)
      Best = I;
  }
  return Best;
}

} // namespace

ParseRecovery ParseRecovery::of(ASTContext &Context,
                                const ErrorRecorder &Errors) {
  ParseRecovery Result;
  Result.MissingHeaders = Errors.MissingHeaders;
  Result.Everything = Errors.Unbounded;
  if (Result.Everything ||
      (Errors.CodeErrors.empty() && Errors.FirstMissingInclude.isInvalid()))
    return Result;

  const SourceManager &SM = Context.getSourceManager();
  FunctionGraph Graph(Context);
  // What did not parse: the errors, and the calls whose overload set a
  // missing header may have completed (the file comment says which).
  std::vector<SourceLocation> Unparsed = Errors.CodeErrors;
  if (Errors.FirstMissingInclude.isValid())
    for (SourceLocation Call : Graph.OpenNameLibraryCalls)
      if (SM.isBeforeInTranslationUnit(
              SM.getExpansionLoc(Errors.FirstMissingInclude),
              SM.getExpansionLoc(Call)))
        Unparsed.push_back(Call);
  if (Unparsed.empty())
    return Result;
  const auto BodyOf =
      [](const FunctionGraph::Function &F) -> const FunctionGraph::Range & {
    return F.Body;
  };
  const auto Itself =
      [](const FunctionGraph::Range &R) -> const FunctionGraph::Range & {
    return R;
  };

  // The broken functions: those that hold an error, and the functions of a
  // class that holds one outside them. An error outside every function
  // (in a class or at namespace scope: a declaration of an undeclared type)
  // breaks every function that comes after it in the unit too: C++ uses
  // only what was declared before, and the uses of an invalid declaration
  // vanish without errors of their own.
  std::vector<bool> IsBroken(Graph.Functions.size(), false);
  SourceLocation FirstOutside;
  for (SourceLocation Error : Unparsed) {
    const SourceLocation Where = SM.getExpansionLoc(Error);
    if (SM.isInSystemHeader(Where)) {
      Result.Everything = true;
      return Result;
    }
    auto [File, Offset] = SM.getDecomposedLoc(Where);
    const size_t Function = innermost(Graph.Functions, BodyOf, File, Offset);
    if (Function != StringRef::npos) {
      IsBroken[Function] = true;
      continue;
    }
    if (FirstOutside.isInvalid() ||
        SM.isBeforeInTranslationUnit(Where, FirstOutside))
      FirstOutside = Where;
    const size_t Class = innermost(Graph.Classes, Itself, File, Offset);
    if (Class == StringRef::npos)
      continue;
    for (size_t I = 0; I < Graph.Functions.size(); ++I)
      if (Graph.Classes[Class].holds(Graph.Functions[I].Body))
        IsBroken[I] = true;
  }
  if (FirstOutside.isValid())
    for (size_t I = 0; I < Graph.Functions.size(); ++I)
      if (SM.isBeforeInTranslationUnit(FirstOutside,
                                       Graph.Functions[I].Body.Start))
        IsBroken[I] = true;

  // Down: the broken functions and what they call, directly or not.
  // Reaching: the functions from which a broken one can be reached.
  const size_t N = Graph.Functions.size();
  std::vector<std::vector<size_t>> Callees(N), Callers(N);
  for (size_t I = 0; I < N; ++I)
    for (const FunctionGraph::Call &C : Graph.Functions[I].Calls) {
      auto It = Graph.IndexOf.find(C.Callee);
      if (It == Graph.IndexOf.end())
        continue;
      Callees[I].push_back(It->second);
      Callers[It->second].push_back(I);
    }
  const auto Closure = [&](const std::vector<std::vector<size_t>> &Edges) {
    std::vector<bool> In = IsBroken;
    std::vector<size_t> Work;
    for (size_t I = 0; I < N; ++I)
      if (In[I])
        Work.push_back(I);
    while (!Work.empty()) {
      const size_t I = Work.back();
      Work.pop_back();
      for (size_t Next : Edges[I])
        if (!In[Next]) {
          In[Next] = true;
          Work.push_back(Next);
        }
    }
    return In;
  };
  const std::vector<bool> Down = Closure(Callees);
  const std::vector<bool> Reaching = Closure(Callers);

  const auto SpanOf = [&](const FunctionGraph::Range &R) {
    OptionalFileEntryRef Entry = SM.getFileEntryRefForID(R.File);
    return Span{Entry ? Entry->getName().str() : std::string(), R.Begin, R.End};
  };
  for (size_t I = 0; I < N; ++I) {
    if (Down[I])
      Result.Broken.push_back(SpanOf(Graph.Functions[I].Body));
    for (const FunctionGraph::Call &C : Graph.Functions[I].Calls) {
      auto It = Graph.IndexOf.find(C.Callee);
      if (It != Graph.IndexOf.end() &&
          (Down[It->second] || Reaching[It->second]))
        Result.Broken.push_back(SpanOf(C.Where));
    }
  }
  return Result;
}

void ParseRecovery::merge(ParseRecovery Other) {
  Everything = Everything || Other.Everything;
  for (Span &S : Other.Broken)
    Broken.push_back(std::move(S));
  for (std::string &Header : Other.MissingHeaders)
    if (!is_contained(MissingHeaders, Header))
      MissingHeaders.push_back(std::move(Header));
}

bool ParseRecovery::mayBeInvented(
    StringRef CheckId, StringRef File, unsigned Offset,
    function_ref<std::string(StringRef)> AbsolutePath) const {
  if (Everything)
    return true;
  if (Broken.empty())
    return false;
  const clang::tidy::libtorch::CheckInfo *Check =
      clang::tidy::libtorch::findCheck(CheckId);
  if (Check && Check->Evidence == clang::tidy::libtorch::CheckEvidence::Unit)
    return true;
  return any_of(Broken, [&](const Span &S) {
    return S.Begin <= Offset && Offset < S.End && AbsolutePath(S.File) == File;
  });
}

unsigned
leaveOutRecoveredFindings(model::TranslationUnitResult &Unit,
                          const ParseRecovery &Recovery,
                          function_ref<std::string(StringRef)> AbsolutePath) {
  // Each file name resolved once (it may stat the file), not once per
  // finding and span.
  StringMap<std::string> Resolved;
  const auto Absolute = [&](StringRef File) -> std::string {
    auto [It, New] = Resolved.try_emplace(File);
    if (New)
      It->second = AbsolutePath(File);
    return It->second;
  };
  const size_t Before = Unit.Findings.size();
  llvm::erase_if(Unit.Findings, [&](const model::Finding &F) {
    // The compiler's own warnings are about what it parsed.
    if (StringRef(F.CheckId).starts_with("clang-diagnostic-"))
      return false;
    return Recovery.mayBeInvented(F.CheckId, F.Where.AbsoluteFile,
                                  F.Where.Offset, Absolute);
  });
  return Before - Unit.Findings.size();
}

std::string compileErrorsSummary(const model::TranslationUnitResult &Unit) {
  std::string Summary = report::countOf(Unit.CompilerErrors.size(),
                                        "compiler error", "compiler errors");
  const std::vector<std::string> &Missing = Unit.MissingHeaders;
  if (Missing.empty())
    return Summary;
  Summary += "; analyzed in part: ";
  for (size_t I = 0; I < Missing.size(); ++I)
    Summary += (I ? ", '" : "'") + Missing[I] + "'";
  Summary += Missing.size() == 1 ? " was not found" : " were not found";
  return Summary;
}

} // namespace libtorch_tidy::run
