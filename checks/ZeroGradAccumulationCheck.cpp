//===--- ZeroGradAccumulationCheck.cpp - libtorch-tidy --------------------===//
//
// Part of libtorch-tidy. SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

#include "ZeroGradAccumulationCheck.h"
#include "analysis/gradients/LossScaling.h"
#include "analysis/vocabulary/LibTorchCalls.h"
#include "utils/AstWalk.h"
#include "utils/FixIts.h"
#include "utils/LoopMatchers.h"
#include "utils/References.h"
#include "utils/SourceText.h"
#include "clang/AST/ASTContext.h"
#include "clang/ASTMatchers/ASTMatchFinder.h"

using namespace clang::ast_matchers;
using clang::tidy::libtorch::analysis::GradEvent;
using clang::tidy::libtorch::analysis::GradEventKind;

namespace clang::tidy::libtorch {

namespace {

/// Where a finding at a gradient call goes: the method's name, else the
/// start of the call.
SourceLocation gradCallLoc(const Expr *Call) {
  const auto *Member =
      dyn_cast<MemberExpr>(cast<CXXMemberCallExpr>(Call)->getCallee());
  return Member ? Member->getMemberLoc() : Call->getBeginLoc();
}

} // namespace

void ZeroGradAccumulationCheck::registerUserCodeMatchers(MatchFinder *Finder) {
  utils::addLoopMatchers(*Finder, this);
}

void ZeroGradAccumulationCheck::check(const MatchFinder::MatchResult &Result) {
  if (const auto *Loop = Result.Nodes.getNodeAs<Stmt>("loop"))
    handle(Loop, *Result.Context);
}

void ZeroGradAccumulationCheck::handle(const Stmt *Loop, ASTContext &Context) {
  analysis::TrainingFacts &TU = trainingFacts(Context);
  if (!TU.Loops.isStepLoop(Loop))
    return;
  // Template patterns are checked in their instantiations, which the
  // matcher also visits; skip the dependent form.
  const FunctionDecl *Function =
      utils::enclosingFunction(Loop, parents(Context));
  if (Function && Function->isDependentContext())
    return;
  // A program that cannot use a GPU is not what this tool measures.
  if (TU.Devices.isGpuFreeProgram())
    return;

  llvm::SmallVector<GradEvent, 8> Events =
      analysis::gradientEvents(Loop, Context, TU.Loops);
  const analysis::StepPlacement Steps = analysis::placeSteps(Events);
  const GradEvent *GuardedStep = Steps.GuardedStep;

  // 3. A step with no reset anywhere in the loop: gradients pile up.
  if (Steps.FirstDirectStep && !Steps.AnyReset && Steps.AnyBackward) {
    const auto *Step = cast<CXXMemberCallExpr>(Steps.FirstDirectStep->Call);
    // step(closure): the closure decides (LBFGS-style code zeroes in it).
    const bool HasClosure =
        Step->getNumArgs() > 0 && !isa<CXXDefaultArgExpr>(Step->getArg(0));
    if (!HasClosure)
      diag(gradCallLoc(Step),
           "'step()' runs in a loop that never zeroes the gradients: "
           "backward() adds to them, so each step applies the sum of all "
           "gradients so far; call 'optimizer.zero_grad()' once per step");
    return;
  }

  // An epoch loop whose guarded step() comes after its batch loop flushes
  // that loop's partial window (`if (n % accum != 0) step();`): it is not
  // an accumulation of its own, so patterns 1 and 4 do not apply.
  if (GuardedStep && !Steps.UnguardedStep &&
      analysis::holdsTrainingLoop(Loop, TU.Loops))
    return;

  if (GuardedStep && !Steps.UnguardedStep) {
    // 1. step() under `if (i % N == 0)`, zero_grad() on every micro-batch.
    bool Reported = false;
    for (const GradEvent &Event : Events)
      if (Event.Kind == GradEventKind::ZeroGrad && analysis::isOrdered(Event) &&
          !Event.PeriodicGuard) {
        diagnoseUnguardedZeroGrad(Event, *GuardedStep, Events, Context);
        Reported = true;
      }
    if (Reported)
      return;
    // 6. zero_grad() under the step's own condition, before the last
    // micro-batch's backward(): `(i + 1) % N == 0` on both.
    if (const GradEvent *Zero = analysis::zeroGradBeforeLastBackward(
            Events, *GuardedStep, Context)) {
      diag(gradCallLoc(Zero->Call),
           "'zero_grad()' runs under the same condition as 'step()', before "
           "the window's last 'backward()': it discards the gradients of the "
           "micro-batches before it, so each step applies one micro-batch's; "
           "zero them after 'step()' or on the window's first micro-batch");
      diag(GuardedStep->Call->getBeginLoc(),
           "the optimizer steps here, under the same condition",
           DiagnosticIDs::Note);
      return;
    }

    // 5. The window's counter runs across epochs, and the epoch loop zeroes
    // the gradients: the last partial window of each epoch is discarded.
    // Reported at the zero_grad(), the statement that loses the work; the
    // global counter is a common and sound choice on its own.
    const IfStmt *Guard = GuardedStep->PeriodicGuard;
    if (std::optional<analysis::CrossEpochWindow> Window =
            analysis::crossEpochWindow(Loop, Guard, Context, TU.Loops))
      diagnoseCrossEpochWindow(*Window, *Guard, Context);

    // 4. Correct structure (zero_grad() with the step, backward() on every
    // micro-batch), but the loss is not divided by the count.
    if (!analysis::runsUnderGuard(
            Events, {GradEventKind::ZeroGrad, GradEventKind::GradReset}, Guard))
      return;
    const Expr *Count = analysis::accumulationCount(Guard->getCond());
    // The learning rate divided by the count, or an optimizer that
    // normalizes the gradient's scale (Adam): the sum is already right.
    if (analysis::stepCompensatesForSum(
            cast<CXXMemberCallExpr>(GuardedStep->Call), Count, Context))
      return;
    for (const CXXMemberCallExpr *Backward :
         analysis::unscaledBackwards(Events, Function)) {
      const std::string CountText =
          utils::spelledText(Count, Context.getSourceManager(), getLangOpts());
      diag(gradCallLoc(Backward),
           "gradients are accumulated over '%0' micro-batches but the loss "
           "is not divided by it: each step applies the sum, multiplying the "
           "effective learning rate by '%0'; backward 'loss / %0'")
          << (CountText.empty() ? std::string("N") : CountText);
    }
    return;
  }

  // 2. zero_grad() between backward() and step() in one iteration.
  for (const GradEvent *Zero : analysis::zeroGradsBetweenBackwardAndStep(
           Events, Context.getSourceManager()))
    diag(gradCallLoc(Zero->Call),
         "'zero_grad()' runs between 'backward()' and 'step()': the step "
         "applies zero gradients and the backward pass is wasted; zero the "
         "gradients before the forward pass or after 'step()'");
}

void ZeroGradAccumulationCheck::diagnoseUnguardedZeroGrad(
    const GradEvent &Zero, const GradEvent &Step,
    llvm::ArrayRef<GradEvent> Events, ASTContext &Context) {
  const SourceManager &SM = Context.getSourceManager();
  const auto *ZeroCall = cast<CXXMemberCallExpr>(Zero.Call);
  const IfStmt *Guard = Step.PeriodicGuard;

  // The fix-it moves the statement into the guard's block, right after
  // step(); it is offered only when that is a mechanical edit of plain
  // file text, and the zero_grad() still compiles there.
  std::optional<std::pair<FixItHint, FixItHint>> Move;
  std::optional<utils::WholeStatement> ZeroStmt =
      utils::wholeStatement(ZeroCall, parents(Context));
  std::optional<utils::WholeStatement> StepStmt =
      utils::wholeStatement(Step.Call, parents(Context));
  if (ZeroStmt && StepStmt && isa<CompoundStmt>(ZeroStmt->Parent) &&
      StepStmt->Parent == Guard->getThen() &&
      isa<CompoundStmt>(StepStmt->Parent) &&
      !analysis::runsUnderGuard(Events, {GradEventKind::ZeroGrad}, Guard) &&
      utils::isRewritable(ZeroStmt->Statement->getSourceRange()) &&
      utils::isRewritable(StepStmt->Statement->getSourceRange()) &&
      utils::isRewritable(Guard->getSourceRange()) &&
      utils::localsDeclaredBefore(ZeroCall, Guard->getBeginLoc(), SM))
    Move = utils::statementMove(*ZeroStmt->Statement, *StepStmt->Statement, SM,
                                getLangOpts());

  {
    auto Diag = diag(gradCallLoc(ZeroCall),
                     "'zero_grad()' runs on every micro-batch but "
                     "'step()' only every few: the gradients being "
                     "accumulated are discarded before each step uses "
                     "them; zero them right after 'step()'");
    if (Move)
      Diag << Move->first << Move->second;
  }
  diag(Step.Call->getBeginLoc(),
       "the optimizer steps here, under a periodic "
       "guard",
       DiagnosticIDs::Note);
  if (!Move)
    diag(Step.Call->getBeginLoc(),
         "move the 'zero_grad()' call into this block, right after 'step()'",
         DiagnosticIDs::Note);
}

void ZeroGradAccumulationCheck::diagnoseCrossEpochWindow(
    const analysis::CrossEpochWindow &Window, const IfStmt &Guard,
    ASTContext &Context) {
  const std::string CountText =
      utils::spelledText(analysis::accumulationCount(Guard.getCond()),
                         Context.getSourceManager(), getLangOpts());
  diag(gradCallLoc(Window.EpochZeroGrad),
       "'zero_grad()' runs once per epoch, but the counter '%0' that makes "
       "'step()' run every '%1' micro-batches is not reset per epoch: an "
       "epoch that ends inside a window loses its partial gradients here; "
       "reset '%0' at the start of each epoch, or step on the partial window "
       "before the epoch ends")
      << Window.Counter->getName()
      << (CountText.empty() ? std::string("N") : CountText);
  diag(Guard.getCond()->getBeginLoc(),
       "'%0' is declared outside the epoch loop and counts across epochs",
       DiagnosticIDs::Note)
      << Window.Counter->getName();
}

} // namespace clang::tidy::libtorch
