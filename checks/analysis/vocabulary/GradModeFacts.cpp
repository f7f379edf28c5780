//===--- GradModeFacts.cpp - Where autograd is switched off ---------------===//
//
// Part of libtorch-tidy. SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

#include "analysis/vocabulary/GradModeFacts.h"
#include "analysis/vocabulary/LibTorchCalls.h"
#include "analysis/vocabulary/LibTorchNames.h"
#include "clang/AST/ExprCXX.h"
#include "clang/AST/RecursiveASTVisitor.h"

namespace clang::tidy::libtorch::analysis {

namespace {

/// The value of the first constructor argument of \p Variable, if it is a
/// constant; \p Default when the argument is left out.
std::optional<bool> firstArgument(const VarDecl *Variable, bool Default,
                                  const ASTContext &Context) {
  const Expr *Init = Variable->getInit();
  if (!Init)
    return Default;
  Init = Init->IgnoreImplicit();
  const auto *Construct = dyn_cast<CXXConstructExpr>(Init);
  if (!Construct)
    return std::nullopt;
  if (Construct->getNumArgs() == 0 ||
      isa<CXXDefaultArgExpr>(Construct->getArg(0)))
    return Default;
  bool Value = false;
  if (Construct->getArg(0)->isValueDependent() ||
      !Construct->getArg(0)->EvaluateAsBooleanCondition(Value, Context))
    return std::nullopt;
  return Value;
}

} // namespace

bool isNoGradGuard(const VarDecl *Variable, const ASTContext &Context) {
  if (!Variable || !Variable->hasLocalStorage())
    return false;
  const auto *Record = Variable->getType()->getAsCXXRecordDecl();
  if (!Record)
    return false;
  if (isSameOrDerivedFrom(Record, names::NoGradGuard))
    return true;
  // `torch::AutoGradMode guard(false);`: off only when we can see `false`.
  if (isSameOrDerivedFrom(Record, names::AutoGradMode))
    return firstArgument(Variable, /*Default=*/true, Context) ==
           std::optional<bool>(false);
  if (isSameOrDerivedFrom(Record, names::InferenceMode))
    return firstArgument(Variable, /*Default=*/true, Context) ==
           std::optional<bool>(true);
  return false;
}

bool holdsNoGradGuard(const Stmt *S, const ASTContext &Context) {
  struct Finder : RecursiveASTVisitor<Finder> {
    const ASTContext &Context;
    bool Found = false;
    explicit Finder(const ASTContext &Context) : Context(Context) {}
    bool VisitVarDecl(VarDecl *Variable) {
      Found = isNoGradGuard(Variable, Context);
      return !Found;
    }
  } Visitor(Context);
  if (S)
    Visitor.TraverseStmt(const_cast<Stmt *>(S));
  return Visitor.Found;
}

bool isCoveredByNoGradGuard(const Stmt *S, ASTContext &Context,
                            const utils::UserCodeParents &Index) {
  DynTypedNode Node = DynTypedNode::create(*S);
  while (true) {
    auto Parents = Index.get(Node);
    if (Parents.empty())
      return false;
    const DynTypedNode &Parent = Parents[0];
    // The enclosing function ends the walk; a lambda does not (the guard
    // of the function that defines it is usually alive when it runs).
    if (const auto *Function = Parent.get<FunctionDecl>()) {
      const auto *Method = dyn_cast<CXXMethodDecl>(Function);
      if (!Method || !Method->getParent()->isLambda())
        return false;
    }
    if (const auto *Block = Parent.get<CompoundStmt>()) {
      const Stmt *Child = Node.get<Stmt>();
      for (const Stmt *Before : Block->body()) {
        if (Before == Child)
          break;
        const auto *Declaration = dyn_cast<DeclStmt>(Before);
        if (!Declaration)
          continue;
        for (const Decl *D : Declaration->decls())
          if (isNoGradGuard(dyn_cast<VarDecl>(D), Context))
            return true;
      }
    }
    Node = Parent;
  }
}

} // namespace clang::tidy::libtorch::analysis
