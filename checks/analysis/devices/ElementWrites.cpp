//===--- ElementWrites.cpp - Scalar writes into tensor elements -----------===//
//
// Part of libtorch-tidy. SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

#include "analysis/devices/ElementWrites.h"
#include "analysis/vocabulary/LibTorchCalls.h"
#include "analysis/vocabulary/LibTorchNames.h"
#include "utils/AstWalk.h"
#include "clang/AST/ExprCXX.h"
#include "clang/AST/StmtCXX.h"
#include "llvm/ADT/SmallPtrSet.h"

namespace clang::tidy::libtorch::analysis {

namespace {

bool isScalarParameter(const FunctionDecl *Function, unsigned Index) {
  return Function && Function->getNumParams() > Index &&
         isRecordNamed(Function->getParamDecl(Index)->getType(), names::Scalar);
}

/// A subscript of a tensor: `t[i]` (any Tensor::operator[] overload).
const CXXOperatorCallExpr *tensorSubscript(const Expr *E) {
  const auto *Op =
      dyn_cast_or_null<CXXOperatorCallExpr>(E ? E->IgnoreImplicit() : nullptr);
  if (!Op || Op->getOperator() != OO_Subscript || Op->getNumArgs() != 2)
    return nullptr;
  const auto *Method = dyn_cast_or_null<CXXMethodDecl>(Op->getDirectCallee());
  if (!Method || !isSameOrDerivedFrom(Method->getParent(), names::TensorBase))
    return nullptr;
  return Op;
}

/// Fills \p Write from the subscript chain \p Target (`t[i][j]`).
bool readSubscripts(const Expr *Target, ElementWrite &Write) {
  const CXXOperatorCallExpr *Subscript = tensorSubscript(Target);
  if (!Subscript)
    return false;
  while (Subscript) {
    Write.Indices.insert(Write.Indices.begin(), Subscript->getArg(1));
    Write.Tensor = Subscript->getArg(0)->IgnoreImplicit();
    Subscript = tensorSubscript(Write.Tensor);
  }
  return true;
}

void collectVariables(const Stmt *S,
                      llvm::SmallPtrSetImpl<const VarDecl *> &Out) {
  if (!S)
    return;
  if (const auto *Ref = dyn_cast<DeclRefExpr>(S))
    if (const auto *Var = dyn_cast<VarDecl>(Ref->getDecl()))
      Out.insert(Var);
  for (const Stmt *Child : S->children())
    collectVariables(Child, Out);
}

const VarDecl *variableOf(const Expr *E) {
  const auto *Ref =
      dyn_cast_or_null<DeclRefExpr>(E ? E->IgnoreParenImpCasts() : nullptr);
  return Ref ? dyn_cast<VarDecl>(Ref->getDecl()) : nullptr;
}

/// Variables \p S increments, decrements or assigns.
void collectWritten(const Stmt *S,
                    llvm::SmallPtrSetImpl<const VarDecl *> &Out) {
  if (!S)
    return;
  if (const auto *Unary = dyn_cast<UnaryOperator>(S)) {
    if (Unary->isIncrementDecrementOp())
      if (const VarDecl *Var = variableOf(Unary->getSubExpr()))
        Out.insert(Var);
  } else if (const auto *Binary = dyn_cast<BinaryOperator>(S)) {
    if (Binary->isAssignmentOp())
      if (const VarDecl *Var = variableOf(Binary->getLHS()))
        Out.insert(Var);
  } else if (const auto *Decl = dyn_cast<DeclStmt>(S)) {
    for (const auto *D : Decl->decls())
      if (const auto *Var = dyn_cast<VarDecl>(D))
        Out.insert(Var);
  }
  for (const Stmt *Child : S->children())
    collectWritten(Child, Out);
}

/// The variables that change from one iteration of \p Loop to the next.
llvm::SmallPtrSet<const VarDecl *, 4> iterationVariables(const Stmt *Loop) {
  llvm::SmallPtrSet<const VarDecl *, 4> Vars;
  if (const auto *Range = dyn_cast<CXXForRangeStmt>(Loop))
    Vars.insert(Range->getLoopVariable());
  // Written anywhere in the loop (its header included), or declared in it:
  // a local of the body is a new value on each iteration.
  collectWritten(Loop, Vars);
  return Vars;
}

std::optional<int64_t> constantValue(const Expr *E, const ASTContext &Context) {
  Expr::EvalResult Result;
  if (!E || E->isValueDependent() ||
      !E->EvaluateAsInt(Result, const_cast<ASTContext &>(Context)))
    return std::nullopt;
  return Result.Val.getInt().getExtValue();
}

/// `for (int c = 0; c < 3; ++c)`: a constant trip count up to
/// MaxSmallTripCount.
bool isSmallConstantLoop(const Stmt *Loop, const ASTContext &Context) {
  const auto *For = dyn_cast<ForStmt>(Loop);
  if (!For)
    return false;
  const auto *Init = dyn_cast_or_null<DeclStmt>(For->getInit());
  const auto *Index = Init && Init->isSingleDecl()
                          ? dyn_cast<VarDecl>(Init->getSingleDecl())
                          : nullptr;
  const auto *Cond = dyn_cast_or_null<BinaryOperator>(For->getCond());
  const auto *Inc = dyn_cast_or_null<UnaryOperator>(For->getInc());
  if (!Index || !Cond || !Inc || !Inc->isIncrementOp() ||
      variableOf(Inc->getSubExpr()) != Index ||
      variableOf(Cond->getLHS()) != Index)
    return false;
  const std::optional<int64_t> First = constantValue(Index->getInit(), Context);
  const std::optional<int64_t> Bound = constantValue(Cond->getRHS(), Context);
  if (!First || !Bound)
    return false;
  int64_t Trips;
  if (Cond->getOpcode() == BO_LT)
    Trips = *Bound - *First;
  else if (Cond->getOpcode() == BO_LE)
    Trips = *Bound - *First + 1;
  else
    return false;
  return Trips <= MaxSmallTripCount;
}

} // namespace

std::optional<ElementWrite> elementWrite(const Expr *E) {
  ElementWrite Write;
  Write.Write = E;
  if (const auto *Op = dyn_cast_or_null<CXXOperatorCallExpr>(E)) {
    // `t[i] = v`, `t[i] += v`, ...: the overloads that take a Scalar.
    if (!Op->isAssignmentOp() || Op->getNumArgs() != 2)
      return std::nullopt;
    const auto *Method = dyn_cast_or_null<CXXMethodDecl>(Op->getDirectCallee());
    if (!Method ||
        !isSameOrDerivedFrom(Method->getParent(), names::TensorBase) ||
        !isScalarParameter(Method, 0))
      return std::nullopt;
    if (!readSubscripts(Op->getArg(0), Write))
      return std::nullopt;
    return Write;
  }
  const auto *Call = dyn_cast_or_null<CXXMemberCallExpr>(E);
  const CXXMethodDecl *Method = Call ? tensorMethodCalled(Call) : nullptr;
  if (!Method || !Method->getIdentifier())
    return std::nullopt;
  if (Method->getName() == "fill_" && isScalarParameter(Method, 0)) {
    if (!readSubscripts(Call->getImplicitObjectArgument(), Write))
      return std::nullopt;
    return Write;
  }
  if (Method->getName() == "index_put_" && Call->getNumArgs() == 2 &&
      isScalarParameter(Method, 1)) {
    Write.Tensor = Call->getImplicitObjectArgument()->IgnoreParenImpCasts();
    Write.Indices.push_back(Call->getArg(0));
    return Write;
  }
  return std::nullopt;
}

const Stmt *indexLoop(const ElementWrite &Write,
                      const utils::UserCodeParents &Parents,
                      const ASTContext &Context) {
  llvm::SmallPtrSet<const VarDecl *, 4> IndexVars;
  for (const Expr *Index : Write.Indices)
    collectVariables(Index, IndexVars);
  if (IndexVars.empty())
    return nullptr;
  const Stmt *Loop = nullptr;
  // Not past the function, nor into a lambda whose caller we do not know.
  utils::forEachStmtAncestor(
      Write.Write, Parents, [&](const Stmt *Parent, const Stmt *) {
        if (isa<LambdaExpr>(Parent))
          return false;
        if (utils::isLoop(Parent) && !isSmallConstantLoop(Parent, Context)) {
          const llvm::SmallPtrSet<const VarDecl *, 4> Changing =
              iterationVariables(Parent);
          if (llvm::any_of(IndexVars, [&Changing](const VarDecl *Var) {
                return Changing.contains(Var);
              }))
            Loop = Parent;
        }
        return !Loop;
      });
  return Loop;
}

} // namespace clang::tidy::libtorch::analysis
