//===--- GradientOrder.cpp - Gradient calls of one step loop --------------===//
//
// Part of libtorch-tidy. SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

#include "analysis/gradients/GradientOrder.h"
#include "analysis/vocabulary/LibTorchCalls.h"
#include "analysis/vocabulary/LibTorchNames.h"
#include "utils/AstWalk.h"
#include "clang/AST/ExprCXX.h"
#include "clang/AST/RecursiveASTVisitor.h"
#include "clang/Basic/SourceManager.h"
#include "llvm/ADT/SmallPtrSet.h"

namespace clang::tidy::libtorch::analysis {

namespace {

bool isGradAccessor(const Expr *E) {
  const CXXMethodDecl *Method = tensorMethodCalled(E->IgnoreParenImpCasts());
  return Method && Method->getIdentifier() &&
         (Method->getName() == "grad" || Method->getName() == "mutable_grad");
}

std::optional<GradEventKind> kindOf(const Expr *E) {
  if (isZeroGradCall(E))
    return GradEventKind::ZeroGrad;
  if (isGradResetCall(E))
    return GradEventKind::GradReset;
  if (isBackwardCall(E))
    return GradEventKind::Backward;
  if (isOptimizerStepCall(E))
    return GradEventKind::Step;
  return std::nullopt;
}

/// Collects the events of one body in traversal (= source) order.
class EventCollector : public RecursiveASTVisitor<EventCollector> {
public:
  EventCollector(ASTContext &Context, llvm::SmallVectorImpl<GradEvent> &Events)
      : Context(Context), Events(Events) {}

  bool shouldVisitLambdaBodies() const { return true; }

  bool VisitStmt(Stmt *S) {
    const auto *E = dyn_cast<Expr>(S);
    if (!E || !(isa<CallExpr>(E)))
      return true;
    if (std::optional<GradEventKind> Kind = kindOf(E)) {
      Events.push_back({*Kind, E, Via, nullptr, false});
      return true;
    }
    const auto *Call = cast<CallExpr>(E);
    const FunctionDecl *Callee = Call->getDirectCallee();
    if (!Callee || Depth >= CallDepth::TrainingStep)
      return true;
    const FunctionDecl *Definition = nullptr;
    if (!Callee->hasBody(Definition) || !Definition->getBody() ||
        Context.getSourceManager().isInSystemHeader(
            Definition->getLocation()) ||
        !Active.insert(Definition).second)
      return true;
    // Events in a helper are placed at the call in the loop body.
    const CallExpr *SavedVia = Via;
    if (!Via)
      Via = Call;
    ++Depth;
    TraverseStmt(Definition->getBody());
    --Depth;
    Via = SavedVia;
    Active.erase(Definition);
    return true;
  }

private:
  ASTContext &Context;
  llvm::SmallVectorImpl<GradEvent> &Events;
  const CallExpr *Via = nullptr;
  unsigned Depth = 0;
  llvm::SmallPtrSet<const FunctionDecl *, 4> Active;
};

} // namespace

const Expr *accumulationCount(const Expr *Condition) {
  if (!Condition)
    return nullptr;
  const Expr *E = Condition->IgnoreParenImpCasts();
  if (const auto *Binary = dyn_cast<BinaryOperator>(E)) {
    if (Binary->getOpcode() == BO_Rem)
      return Binary->getRHS()->IgnoreParenImpCasts();
    if (const Expr *Found = accumulationCount(Binary->getLHS()))
      return Found;
    return accumulationCount(Binary->getRHS());
  }
  if (const auto *Unary = dyn_cast<UnaryOperator>(E))
    return accumulationCount(Unary->getSubExpr());
  return nullptr;
}

bool isZeroGradCall(const Expr *E) {
  const auto *Call = dyn_cast_or_null<CXXMemberCallExpr>(E);
  if (!Call)
    return false;
  const CXXMethodDecl *Method = Call->getMethodDecl();
  if (!Method || !Method->getIdentifier() || Method->getName() != "zero_grad")
    return false;
  return isSameOrDerivedFrom(Method->getParent(), names::Optimizer) ||
         isSameOrDerivedFrom(Method->getParent(), names::Module);
}

bool isGradResetCall(const Expr *E) {
  if (const auto *Call = dyn_cast_or_null<CXXMemberCallExpr>(E)) {
    const CXXMethodDecl *Method = Call->getMethodDecl();
    if (!Method || !Method->getIdentifier())
      return false;
    StringRef Name = Method->getName();
    if (Name != "zero_" && Name != "reset" && Name != "fill_" &&
        Name != "detach_" && Name != "undefined")
      return false;
    return isGradAccessor(Call->getImplicitObjectArgument());
  }
  // p.mutable_grad() = torch::Tensor();
  if (const auto *Op = dyn_cast_or_null<CXXOperatorCallExpr>(E))
    return Op->getOperator() == OO_Equal && Op->getNumArgs() == 2 &&
           isGradAccessor(Op->getArg(0));
  return false;
}

llvm::SmallVector<GradEvent, 8> gradientEvents(const Stmt *StepLoop,
                                               ASTContext &Context,
                                               TrainingLoopModel &Loops) {
  llvm::SmallVector<GradEvent, 8> Events;
  const Stmt *Body = utils::loopBody(StepLoop);
  if (!Body)
    return Events;
  EventCollector(Context, Events).TraverseStmt(const_cast<Stmt *>(Body));

  // Where each event sits between the loop and itself.
  for (GradEvent &Event : Events) {
    const Stmt *Start = Event.Via ? Event.Via : Event.Call;
    utils::forEachAncestor(
        DynTypedNode::create(*Start), Loops.parents(),
        [&](const DynTypedNode &Above, const DynTypedNode &Below) {
          const auto *Parent = Above.get<Stmt>();
          const auto *Child = Below.get<Stmt>();
          if (!Parent || Parent == StepLoop) {
            // Not a statement: a lambda's call operator, reached from a
            // LambdaExpr we cannot see from here. Its body runs when called.
            if (!Parent)
              Event.Unordered = true;
            return false;
          }
          if (const auto *If = dyn_cast<IfStmt>(Parent)) {
            if (If->getCond() != Child) {
              // Only a modulo guard runs every N iterations; `if (verbose)` or
              // `if (i == 0)` may run never or once, so it is not ordered.
              if (If->getThen() == Child &&
                  Loops.isPeriodicCondition(If->getCond()) &&
                  accumulationCount(If->getCond())) {
                if (!Event.PeriodicGuard)
                  Event.PeriodicGuard = If;
              } else {
                Event.Unordered = true;
              }
            }
          } else if (isa<SwitchStmt, ConditionalOperator,
                         BinaryConditionalOperator, LambdaExpr>(Parent) ||
                     utils::isLoop(Parent)) {
            Event.Unordered = true;
          } else if (const auto *Logical = dyn_cast<BinaryOperator>(Parent)) {
            if (Logical->isLogicalOp() && Logical->getRHS() == Child)
              Event.Unordered = true;
          }
          return true;
        });
  }
  return Events;
}

bool isOrdered(const GradEvent &Event) {
  return !Event.Via && !Event.Unordered;
}

StepPlacement placeSteps(llvm::ArrayRef<GradEvent> Events) {
  StepPlacement Placement;
  for (const GradEvent &Event : Events) {
    switch (Event.Kind) {
    case GradEventKind::ZeroGrad:
    case GradEventKind::GradReset:
      Placement.AnyReset = true;
      break;
    case GradEventKind::Backward:
      Placement.AnyBackward = true;
      break;
    case GradEventKind::Step:
      if (Event.Via)
        break;
      if (!Placement.FirstDirectStep)
        Placement.FirstDirectStep = &Event;
      if (Event.Unordered)
        break;
      if (Event.PeriodicGuard &&
          accumulationCount(Event.PeriodicGuard->getCond())) {
        if (!Placement.GuardedStep)
          Placement.GuardedStep = &Event;
      } else if (!Event.PeriodicGuard && !Placement.UnguardedStep) {
        Placement.UnguardedStep = &Event;
      }
      break;
    }
  }
  return Placement;
}

bool runsUnderGuard(llvm::ArrayRef<GradEvent> Events,
                    std::initializer_list<GradEventKind> Kinds,
                    const IfStmt *Guard) {
  return llvm::any_of(Events, [&](const GradEvent &Event) {
    return llvm::is_contained(Kinds, Event.Kind) &&
           Event.PeriodicGuard == Guard;
  });
}

llvm::SmallVector<const GradEvent *, 2>
zeroGradsBetweenBackwardAndStep(llvm::ArrayRef<GradEvent> Events,
                                const SourceManager &SM) {
  auto Before = [&](const GradEvent &A, const GradEvent &B) {
    return SM.isBeforeInTranslationUnit(A.Call->getBeginLoc(),
                                        B.Call->getBeginLoc());
  };
  llvm::SmallVector<const GradEvent *, 2> Found;
  for (const GradEvent &Zero : Events) {
    if (Zero.Kind != GradEventKind::ZeroGrad || !isOrdered(Zero))
      continue;
    const GradEvent *Latest = nullptr;
    for (const GradEvent &Event : Events)
      if ((Event.Kind == GradEventKind::Backward ||
           Event.Kind == GradEventKind::Step) &&
          isOrdered(Event) && Event.PeriodicGuard == Zero.PeriodicGuard &&
          Before(Event, Zero) && (!Latest || Before(*Latest, Event)))
        Latest = &Event;
    if (!Latest || Latest->Kind != GradEventKind::Backward)
      continue;
    if (llvm::any_of(Events, [&](const GradEvent &Step) {
          return Step.Kind == GradEventKind::Step && isOrdered(Step) &&
                 Step.PeriodicGuard == Zero.PeriodicGuard && Before(Zero, Step);
        }))
      Found.push_back(&Zero);
  }
  return Found;
}

} // namespace clang::tidy::libtorch::analysis
