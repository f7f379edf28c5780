//===--- RecoveryFunctionGraph.cpp - Calls, for ParseRecovery -------------===//
//
// Part of libtorch-tidy. SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

#include "run/RecoveryFunctionGraph.h"
#include "analysis/vocabulary/LibTorchCalls.h"
#include "clang-compat/ClangCompat.h"
#include "utils/UserCode.h"
#include "clang/AST/RecursiveASTVisitor.h"
#include "clang/Lex/Lexer.h"
#include "llvm/ADT/STLExtras.h"
#include <algorithm>

using namespace clang;
using namespace llvm;

namespace libtorch_tidy::run {

namespace {

using Range = FunctionGraph::Range;

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
            {FunctionGraph::keyOf(Operator), *R});
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
    return Graph.SM.isInSystemHeader(Graph.SM.getExpansionLoc(D.getLocation()));
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
    std::optional<Range> R = F ? Graph.rangeOf(Source, Options) : std::nullopt;
    if (!R)
      return T();
    const size_t Index = Graph.Functions.size();
    Graph.Functions.push_back({*R, {}});
    Graph.IndexOf.try_emplace(FunctionGraph::keyOf(F), Index);
    Current.push_back(Index);
    const bool Result = T();
    Current.pop_back();
    return Result;
  }
  void record(const FunctionDecl *Callee, SourceRange Source) {
    if (!Callee || Current.empty())
      return;
    if (std::optional<Range> R = Graph.rangeOf(Source, Options))
      Graph.Functions[Current.back()].Calls.push_back(
          {FunctionGraph::keyOf(Callee), *R});
  }

  FunctionGraph &Graph;
  const LangOptions &Options;
  std::vector<size_t> Current;
};

} // namespace

FunctionGraph::FunctionGraph(ASTContext &Context)
    : SM(Context.getSourceManager()) {
  Builder B(*this, Context.getLangOpts());
  for (Decl *D : clang::tidy::libtorch::utils::userTopLevelDecls(Context))
    B.TraverseDecl(D);
}

std::optional<Range> FunctionGraph::rangeOf(SourceRange R,
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

const Decl *FunctionGraph::keyOf(const FunctionDecl *F) {
  if (const FunctionDecl *Pattern = F->getTemplateInstantiationPattern())
    F = Pattern;
  return F->getCanonicalDecl();
}

} // namespace libtorch_tidy::run
