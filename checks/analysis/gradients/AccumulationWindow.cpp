//===--- AccumulationWindow.cpp - Accumulation windows across epochs ------===//
//
// Part of libtorch-tidy. SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

#include "analysis/gradients/AccumulationWindow.h"
#include "analysis/gradients/GradientOrder.h"
#include "utils/AstWalk.h"
#include "clang/AST/Expr.h"
#include "clang/AST/ExprCXX.h"
#include "clang/Basic/SourceManager.h"
#include "llvm/ADT/SmallPtrSet.h"

namespace clang::tidy::libtorch::analysis {

namespace {

/// The variable or member \p E names, or null.
const ValueDecl *namedValue(const Expr *E) {
  E = E ? E->IgnoreParenImpCasts() : nullptr;
  if (const auto *Ref = dyn_cast_or_null<DeclRefExpr>(E))
    return dyn_cast<VarDecl>(Ref->getDecl());
  if (const auto *Member = dyn_cast_or_null<MemberExpr>(E))
    return dyn_cast<FieldDecl>(Member->getMemberDecl());
  return nullptr;
}

/// The variables and members \p S names; a member's base is not walked
/// (`state.step` names `step`, not `state`).
void collectNamed(const Stmt *S,
                  llvm::SmallPtrSetImpl<const ValueDecl *> &Out) {
  if (!S)
    return;
  if (const auto *E = dyn_cast<Expr>(S))
    if (const ValueDecl *D = namedValue(E)) {
      Out.insert(D);
      return;
    }
  for (const Stmt *Child : S->children())
    collectNamed(Child, Out);
}

const BinaryOperator *firstModulo(const Expr *E) {
  if (!E)
    return nullptr;
  E = E->IgnoreParenImpCasts();
  if (const auto *Binary = dyn_cast<BinaryOperator>(E)) {
    if (Binary->getOpcode() == BO_Rem)
      return Binary;
    if (const BinaryOperator *Found = firstModulo(Binary->getLHS()))
      return Found;
    return firstModulo(Binary->getRHS());
  }
  if (const auto *Unary = dyn_cast<UnaryOperator>(E))
    return firstModulo(Unary->getSubExpr());
  return nullptr;
}

/// Whether \p S (outside \p Skip) increments, decrements or assigns \p D.
bool writes(const Stmt *S, const ValueDecl *D, const Stmt *Skip = nullptr) {
  if (!S || S == Skip)
    return false;
  if (const auto *Unary = dyn_cast<UnaryOperator>(S))
    if (Unary->isIncrementDecrementOp() && namedValue(Unary->getSubExpr()) == D)
      return true;
  if (const auto *Binary = dyn_cast<BinaryOperator>(S))
    if (Binary->isAssignmentOp() && namedValue(Binary->getLHS()) == D)
      return true;
  for (const Stmt *Child : S->children())
    if (writes(Child, D, Skip))
      return true;
  return false;
}

bool isWithin(const Stmt *Inner, const Stmt *Outer, const SourceManager &SM) {
  const SourceLocation Loc = SM.getExpansionLoc(Inner->getBeginLoc());
  return SM.isPointWithin(Loc, SM.getExpansionLoc(Outer->getBeginLoc()),
                          SM.getExpansionLoc(Outer->getEndLoc()));
}

bool isDeclaredWithin(const ValueDecl *D, const Stmt *Outer,
                      const SourceManager &SM) {
  const auto *Var = dyn_cast<VarDecl>(D);
  // A member lives as long as its object; a static local keeps its value.
  if (!Var || Var->isStaticLocal())
    return false;
  const SourceLocation Loc = SM.getExpansionLoc(Var->getLocation());
  return SM.isPointWithin(Loc, SM.getExpansionLoc(Outer->getBeginLoc()),
                          SM.getExpansionLoc(Outer->getEndLoc()));
}

std::optional<int64_t> constantValue(const Expr *E, const ASTContext &Context) {
  Expr::EvalResult Result;
  if (!E || E->isValueDependent() || !E->EvaluateAsInt(Result, Context))
    return std::nullopt;
  return Result.Val.getInt().getExtValue();
}

/// `for (int b = 0; b < K; ++b)` with a constant K that \p Count divides:
/// every epoch ends on a full window.
bool runsWholeWindows(const Stmt *StepLoop, const Expr *Count,
                      const ASTContext &Context) {
  const auto *For = dyn_cast<ForStmt>(StepLoop);
  const std::optional<int64_t> N = constantValue(Count, Context);
  if (!For || !N || *N <= 0)
    return false;
  const auto *Init = dyn_cast_or_null<DeclStmt>(For->getInit());
  const auto *Index = Init && Init->isSingleDecl()
                          ? dyn_cast<VarDecl>(Init->getSingleDecl())
                          : nullptr;
  if (!Index || constantValue(Index->getInit(), Context) != 0)
    return false;
  const auto *Cond = dyn_cast_or_null<BinaryOperator>(For->getCond());
  const auto *Inc = dyn_cast_or_null<UnaryOperator>(For->getInc());
  if (!Cond || Cond->getOpcode() != BO_LT ||
      namedValue(Cond->getLHS()) != Index || !Inc || !Inc->isIncrementOp() ||
      namedValue(Inc->getSubExpr()) != Index)
    return false;
  const std::optional<int64_t> K = constantValue(Cond->getRHS(), Context);
  return K && *K % *N == 0;
}

/// The innermost loop around \p StepLoop in its own function, or null.
const Stmt *enclosingLoop(const Stmt *StepLoop, TrainingLoopModel &Loops) {
  const Stmt *Enclosing = nullptr;
  utils::forEachStmtAncestor(StepLoop, Loops.parents(),
                             [&Enclosing](const Stmt *Parent, const Stmt *) {
                               // A lambda's body runs where it is called:
                               // not followed.
                               if (isa<LambdaExpr>(Parent))
                                 return false;
                               if (utils::isLoop(Parent))
                                 Enclosing = Parent;
                               return !Enclosing;
                             });
  return Enclosing;
}

bool holdsLoop(const Stmt *S, TrainingLoopModel &Loops) {
  for (const Stmt *Child : S->children()) {
    if (!Child || isa<LambdaExpr>(Child))
      continue;
    if ((utils::isLoop(Child) && Loops.isTrainingLoop(Child)) ||
        holdsLoop(Child, Loops))
      return true;
  }
  return false;
}

} // namespace

bool holdsTrainingLoop(const Stmt *Loop, TrainingLoopModel &Loops) {
  const Stmt *Body = Loop ? utils::loopBody(Loop) : nullptr;
  if (!Body)
    return false;
  if (utils::isLoop(Body) && Loops.isTrainingLoop(Body))
    return true;
  return holdsLoop(Body, Loops);
}

const ValueDecl *accumulationCounter(const Expr *Condition) {
  const BinaryOperator *Modulo = firstModulo(Condition);
  if (!Modulo)
    return nullptr;
  llvm::SmallPtrSet<const ValueDecl *, 2> Named;
  collectNamed(Modulo->getLHS(), Named);
  return Named.size() == 1 ? *Named.begin() : nullptr;
}

std::optional<CrossEpochWindow> crossEpochWindow(const Stmt *StepLoop,
                                                 const IfStmt *Guard,
                                                 ASTContext &Context,
                                                 TrainingLoopModel &Loops) {
  if (!StepLoop || !Guard)
    return std::nullopt;
  const SourceManager &SM = Context.getSourceManager();
  const ValueDecl *Counter = accumulationCounter(Guard->getCond());
  // The counter must count micro-steps: advanced in the step loop.
  if (!Counter || !writes(StepLoop, Counter))
    return std::nullopt;
  const Stmt *EpochLoop = enclosingLoop(StepLoop, Loops);
  if (!EpochLoop || !Loops.isTrainingLoop(EpochLoop))
    return std::nullopt;
  // Declared in the epoch loop, or reset there: the window restarts.
  if (isDeclaredWithin(Counter, EpochLoop, SM) ||
      writes(EpochLoop, Counter, /*Skip=*/StepLoop))
    return std::nullopt;
  if (runsWholeWindows(StepLoop, accumulationCount(Guard->getCond()), Context))
    return std::nullopt;

  const Expr *EpochZero = nullptr;
  for (const GradEvent &Event : gradientEvents(EpochLoop, Context, Loops)) {
    const Stmt *Where = Event.Via ? Event.Via : Event.Call;
    if (isWithin(Where, StepLoop, SM))
      continue;
    // A step outside the batch loop flushes the partial window.
    if (Event.Kind == GradEventKind::Step)
      return std::nullopt;
    if (Event.Kind == GradEventKind::ZeroGrad && !Event.Via &&
        !Event.Unordered && !Event.PeriodicGuard && !EpochZero)
      EpochZero = Event.Call;
  }
  if (!EpochZero)
    return std::nullopt;
  return CrossEpochWindow{EpochLoop, Counter, EpochZero};
}

const GradEvent *zeroGradBeforeLastBackward(llvm::ArrayRef<GradEvent> Events,
                                            const GradEvent &Step,
                                            ASTContext &Context) {
  const IfStmt *StepGuard = Step.PeriodicGuard;
  if (!StepGuard || Step.Via || Step.Unordered)
    return nullptr;
  llvm::FoldingSetNodeID StepCondition;
  StepGuard->getCond()->Profile(StepCondition, Context, /*Canonical=*/true);
  const SourceManager &SM = Context.getSourceManager();
  auto Before = [&SM](const GradEvent &A, const GradEvent &B) {
    return SM.isBeforeInTranslationUnit(A.Call->getBeginLoc(),
                                        B.Call->getBeginLoc());
  };
  for (const GradEvent &Zero : Events) {
    if (Zero.Kind != GradEventKind::ZeroGrad || Zero.Via || Zero.Unordered ||
        !Zero.PeriodicGuard || Zero.PeriodicGuard == StepGuard ||
        !Before(Zero, Step))
      continue;
    // Another phase of the counter (`i % N == 0`) starts the window.
    llvm::FoldingSetNodeID ZeroCondition;
    Zero.PeriodicGuard->getCond()->Profile(ZeroCondition, Context,
                                           /*Canonical=*/true);
    if (ZeroCondition != StepCondition)
      continue;
    // A step() between them ends the previous window first: then the
    // zero_grad() comes after it and is right.
    bool StepBetween = false, BackwardBetween = false;
    for (const GradEvent &Event : Events) {
      if (Event.Via || Event.Unordered || !Before(Zero, Event) ||
          !Before(Event, Step))
        continue;
      if (Event.Kind == GradEventKind::Step)
        StepBetween = true;
      if (Event.Kind == GradEventKind::Backward && !Event.PeriodicGuard)
        BackwardBetween = true;
    }
    if (BackwardBetween && !StepBetween)
      return &Zero;
  }
  return nullptr;
}

} // namespace clang::tidy::libtorch::analysis
