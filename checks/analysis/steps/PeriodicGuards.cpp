//===--- PeriodicGuards.cpp - Code that runs every N steps ----------------===//
//
// Part of libtorch-tidy. SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//
//
// The training-loop model's periodic guards (TrainingLoopModel.h): the
// conditions and early exits that make what they guard run every N steps
// rather than every step.
//
//===----------------------------------------------------------------------===//

#include "analysis/steps/TrainingLoopModel.h"
#include "utils/AstWalk.h"
#include "clang/AST/ExprCXX.h"
#include "clang/Basic/SourceManager.h"
#include "clang/Lex/Lexer.h"

namespace clang::tidy::libtorch::analysis {

namespace {

const Expr *stripNoise(const Expr *E) {
  return utils::stripWrappers(E, utils::ImplicitWrappers |
                                     utils::SubstTemplateParam);
}

bool isIntegerValue(const Expr *E) {
  return E && E->getType()->isIntegralOrEnumerationType() &&
         !E->getType()->isBooleanType();
}

/// A modulo of integers somewhere in \p E (`i % N`, `(step + 1) % N`).
bool containsIntegerModulo(const Expr *E) {
  E = stripNoise(E);
  if (!E)
    return false;
  if (const auto *Binary = dyn_cast<BinaryOperator>(E)) {
    if (Binary->getOpcode() == BO_Rem &&
        isIntegerValue(Binary->getLHS()->IgnoreImpCasts())) {
      // `x % 1` is always 0: it runs every step.
      if (const auto *Literal =
              dyn_cast<IntegerLiteral>(stripNoise(Binary->getRHS())))
        return Literal->getValue().ugt(1);
      return true;
    }
  }
  // An overloaded % on a tensor is a device value, not a counter.
  if (isa<CXXOperatorCallExpr>(E))
    return false;
  for (const Stmt *Child : E->children())
    if (const auto *ChildExpr = dyn_cast_or_null<Expr>(Child))
      if (containsIntegerModulo(ChildExpr))
        return true;
  return false;
}

bool containsModulo(const Stmt *S) {
  if (const auto *Binary = dyn_cast_or_null<BinaryOperator>(S))
    if (Binary->getOpcode() == BO_Rem)
      return true;
  for (const Stmt *Child :
       S ? S->children()
         : Stmt::const_child_range(Stmt::const_child_iterator(),
                                   Stmt::const_child_iterator()))
    if (containsModulo(Child))
      return true;
  return false;
}

/// `verbose`, `options.log`, `this->debug_`: a plain bool, not a tensor.
bool isPlainBoolFlag(const Expr *E) {
  E = stripNoise(E);
  if (!E || !E->getType()->isBooleanType())
    return false;
  return isa<DeclRefExpr>(E) || isa<MemberExpr>(E);
}

} // namespace

bool TrainingLoopModel::isPeriodicCondition(const Expr *Condition) const {
  const Expr *E = stripNoise(Condition);
  if (!E)
    return false;
  if (const auto *Unary = dyn_cast<UnaryOperator>(E))
    if (Unary->getOpcode() == UO_LNot)
      return isPeriodicCondition(Unary->getSubExpr());
  if (const auto *Binary = dyn_cast<BinaryOperator>(E)) {
    switch (Binary->getOpcode()) {
    case BO_LAnd:
    case BO_LOr:
      return isPeriodicCondition(Binary->getLHS()) ||
             isPeriodicCondition(Binary->getRHS());
    case BO_EQ:
      // `i == 0`, `step == last_step`: integers, not device values. A
      // modulo in it is judged as a modulo (`i % 1 == 0` is every step).
      if (!containsModulo(Binary) &&
          isIntegerValue(stripNoise(Binary->getLHS())) &&
          isIntegerValue(stripNoise(Binary->getRHS())))
        return true;
      [[fallthrough]];
    case BO_NE:
      return containsIntegerModulo(Binary->getLHS()) ||
             containsIntegerModulo(Binary->getRHS());
    case BO_Rem:
      return containsIntegerModulo(E);
    default:
      return false;
    }
  }
  return isPlainBoolFlag(E);
}

bool TrainingLoopModel::isSkippedPeriodically(const CompoundStmt &Block,
                                              const Stmt *Child) const {
  // `if (i % N != 0) continue;` before \p Child: what follows runs only when
  // the guard lets it through.
  for (const Stmt *Earlier : Block.body()) {
    if (Earlier == Child)
      return false;
    const auto *If = dyn_cast<IfStmt>(Earlier);
    if (!If || If->getElse() || !isPeriodicCondition(If->getCond()))
      continue;
    // `if (id == eos) break;`, `if (batch.size(0) == 0) continue;`: what
    // follows runs whenever the integers differ, on every iteration but
    // that one. (The same equality guards a block that runs once.)
    if (const auto *Equality =
            dyn_cast_or_null<BinaryOperator>(stripNoise(If->getCond()));
        Equality && Equality->getOpcode() == BO_EQ && !containsModulo(Equality))
      continue;
    if (isa_and_nonnull<ContinueStmt, BreakStmt, ReturnStmt>(
            utils::lastStatementOf(If->getThen())))
      return true;
  }
  return false;
}

bool TrainingLoopModel::isInGuardMacro(SourceLocation Loc) const {
  if (GuardMacros.empty())
    return false;
  const SourceManager &SM = Context.getSourceManager();
  while (Loc.isMacroID()) {
    StringRef Name =
        Lexer::getImmediateMacroName(Loc, SM, Context.getLangOpts());
    if (GuardMacros.contains(Name))
      return true;
    Loc = SM.getImmediateMacroCallerLoc(Loc);
  }
  return false;
}

} // namespace clang::tidy::libtorch::analysis
