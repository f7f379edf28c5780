//===--- ZeroGradAccumulationCheck.cpp - libtorch-tidy --------------------===//
//
// Part of libtorch-tidy. SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

#include "ZeroGradAccumulationCheck.h"
#include "analysis/LibTorchCalls.h"
#include "analysis/LoopMatchers.h"
#include "analysis/LossScaling.h"
#include "analysis/SourceText.h"
#include "utils/AstWalk.h"
#include "utils/References.h"
#include "utils/SourceLines.h"
#include "clang/AST/ASTContext.h"
#include "clang/ASTMatchers/ASTMatchFinder.h"
#include "clang/Lex/Lexer.h"

using namespace clang::ast_matchers;
using clang::tidy::libtorch::analysis::GradEvent;
using clang::tidy::libtorch::analysis::GradEventKind;

namespace clang::tidy::libtorch {

namespace {

/// A direct event in the loop body that one iteration runs in order.
bool isOrdered(const GradEvent &Event) {
  return !Event.Via && !Event.Unordered;
}

/// The statement that \p E is the whole of (an expression statement), when
/// its parent is a compound statement or an `if`'s then-branch; else null.
const Stmt *wholeStatement(const Expr *E,
                           const analysis::UserCodeParents &UserParents,
                           const Stmt **ParentOut) {
  // Parentheses end the walk: `(optimizer.zero_grad());` is left alone.
  utils::Above Up = utils::parentIgnoring(
      E, UserParents, utils::ImplicitWrappers & ~utils::Paren,
      utils::ParentChoice::First);
  const Stmt *Parent = Up.Parent.get<Stmt>();
  if (!Parent)
    return nullptr;
  if (isa<CompoundStmt>(Parent) ||
      (isa<IfStmt>(Parent) && cast<IfStmt>(Parent)->getThen() == Up.Child)) {
    *ParentOut = Parent;
    return Up.Child;
  }
  return nullptr;
}

/// The location just past the `;` that ends statement \p S, or invalid.
SourceLocation afterSemicolon(const Stmt *S, const SourceManager &SM,
                              const LangOptions &LangOpts) {
  return Lexer::findLocationAfterToken(S->getEndLoc(), tok::semi, SM, LangOpts,
                                       /*SkipTrailingWhitespaceAndNewLine=*/
                                       false);
}

} // namespace

void ZeroGradAccumulationCheck::registerUserCodeMatchers(MatchFinder *Finder) {
  analysis::addLoopMatchers(*Finder, this);
}

void ZeroGradAccumulationCheck::check(const MatchFinder::MatchResult &Result) {
  if (const auto *Loop = Result.Nodes.getNodeAs<Stmt>("loop"))
    checkLoop(Loop, *Result.Context);
}

void ZeroGradAccumulationCheck::checkLoop(const Stmt *Loop,
                                          ASTContext &Context) {
  analysis::TrainingFacts &TU = trainingFacts(Context);
  if (!TU.Loops.isStepLoop(Loop))
    return;
  // Template patterns are checked in their instantiations, which the
  // matcher also visits; skip the dependent form.
  const FunctionDecl *Function =
      analysis::enclosingFunction(Loop, parents(Context));
  if (Function && Function->isDependentContext())
    return;
  // A program that cannot use a GPU is not what this tool measures.
  if (TU.Devices.isGpuFreeProgram())
    return;

  llvm::SmallVector<GradEvent, 8> Events =
      analysis::gradientEvents(Loop, Context, TU.Loops);

  const GradEvent *GuardedStep = nullptr;
  const GradEvent *UnguardedStep = nullptr;
  const GradEvent *AnyDirectStep = nullptr;
  bool AnyReset = false, AnyBackward = false;
  for (const GradEvent &Event : Events) {
    switch (Event.Kind) {
    case GradEventKind::ZeroGrad:
    case GradEventKind::GradReset:
      AnyReset = true;
      break;
    case GradEventKind::Backward:
      AnyBackward = true;
      break;
    case GradEventKind::Step:
      if (Event.Via)
        break;
      if (!AnyDirectStep)
        AnyDirectStep = &Event;
      if (Event.Unordered)
        break;
      if (Event.PeriodicGuard &&
          analysis::accumulationCount(Event.PeriodicGuard->getCond())) {
        if (!GuardedStep)
          GuardedStep = &Event;
      } else if (!Event.PeriodicGuard && !UnguardedStep) {
        UnguardedStep = &Event;
      }
      break;
    }
  }

  // 3. A step with no reset anywhere in the loop: gradients pile up.
  if (AnyDirectStep && !AnyReset && AnyBackward) {
    const auto *Step = cast<CXXMemberCallExpr>(AnyDirectStep->Call);
    // step(closure): the closure decides (LBFGS-style code zeroes in it).
    const bool HasClosure =
        Step->getNumArgs() > 0 && !isa<CXXDefaultArgExpr>(Step->getArg(0));
    if (!HasClosure) {
      const auto *Member = dyn_cast<MemberExpr>(Step->getCallee());
      diag(Member ? Member->getMemberLoc() : Step->getBeginLoc(),
           "'step()' runs in a loop that never zeroes the gradients: "
           "backward() adds to them, so each step applies the sum of all "
           "gradients so far; call 'optimizer.zero_grad()' once per step");
    }
    return;
  }

  // An epoch loop whose guarded step() comes after its batch loop flushes
  // that loop's partial window (`if (n % accum != 0) step();`): it is not
  // an accumulation of its own, so patterns 1 and 4 do not apply.
  if (GuardedStep && !UnguardedStep &&
      analysis::holdsTrainingLoop(Loop, TU.Loops))
    return;

  if (GuardedStep && !UnguardedStep) {
    // 1. step() under `if (i % N == 0)`, zero_grad() on every micro-batch.
    bool Reported = false;
    for (const GradEvent &Event : Events)
      if (Event.Kind == GradEventKind::ZeroGrad && isOrdered(Event) &&
          !Event.PeriodicGuard)
        Reported |=
            reportUnguardedZeroGrad(Event, *GuardedStep, Events, Context);
    if (Reported)
      return;
    // 6. zero_grad() under the step's own condition, before the last
    // micro-batch's backward(): `(i + 1) % N == 0` on both.
    if (const GradEvent *Zero = analysis::zeroGradBeforeLastBackward(
            Events, *GuardedStep, Context)) {
      const auto *Call = cast<CXXMemberCallExpr>(Zero->Call);
      const auto *Member = dyn_cast<MemberExpr>(Call->getCallee());
      diag(Member ? Member->getMemberLoc() : Call->getBeginLoc(),
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
      reportCrossEpochWindow(*Window, *Guard, Context);

    // 4. Correct structure (zero_grad() with the step, backward() on every
    // micro-batch), but the loss is not divided by the count.
    bool ZeroWithStep = false;
    for (const GradEvent &Event : Events)
      if ((Event.Kind == GradEventKind::ZeroGrad ||
           Event.Kind == GradEventKind::GradReset) &&
          Event.PeriodicGuard == Guard)
        ZeroWithStep = true;
    if (!ZeroWithStep)
      return;
    const Expr *Count = analysis::accumulationCount(Guard->getCond());
    // The learning rate divided by the count, or an optimizer that
    // normalizes the gradient's scale (Adam): the sum is already right.
    if (analysis::stepCompensatesForSum(
            cast<CXXMemberCallExpr>(GuardedStep->Call), Count, Context))
      return;
    for (const GradEvent &Event : Events) {
      if (Event.Kind != GradEventKind::Backward || !isOrdered(Event) ||
          Event.PeriodicGuard)
        continue;
      const CXXMethodDecl *Method = analysis::tensorMethodCalled(Event.Call);
      if (!Method)
        continue; // torch::autograd::backward({...}): not read
      const auto *Call = cast<CXXMemberCallExpr>(Event.Call);
      if (!analysis::isProvablyUnscaledLoss(Call->getImplicitObjectArgument(),
                                            Function))
        continue;
      const auto *Member = dyn_cast<MemberExpr>(Call->getCallee());
      const std::string CountText = analysis::spelledText(
          Count, Context.getSourceManager(), getLangOpts());
      diag(Member ? Member->getMemberLoc() : Call->getBeginLoc(),
           "gradients are accumulated over '%0' micro-batches but the loss "
           "is not divided by it: each step applies the sum, multiplying the "
           "effective learning rate by '%0'; backward 'loss / %0'")
          << (CountText.empty() ? std::string("N") : CountText);
    }
    return;
  }

  // 2. zero_grad() between backward() and step() in one iteration.
  for (const GradEvent &Zero : Events) {
    if (Zero.Kind != GradEventKind::ZeroGrad || !isOrdered(Zero))
      continue;
    const SourceManager &SM = Context.getSourceManager();
    auto Before = [&](const GradEvent &A, const GradEvent &B) {
      return SM.isBeforeInTranslationUnit(A.Call->getBeginLoc(),
                                          B.Call->getBeginLoc());
    };
    // Only the closest backward() or step() before the zero_grad() counts:
    // in 'zero_grad(); backward(); step();' written twice in one iteration
    // (two optimizers of a GAN, or an unrolled or macro-generated step), the
    // second zero_grad() follows a step() and is correct.
    const GradEvent *Latest = nullptr;
    for (const GradEvent &Event : Events)
      if ((Event.Kind == GradEventKind::Backward ||
           Event.Kind == GradEventKind::Step) &&
          isOrdered(Event) && Event.PeriodicGuard == Zero.PeriodicGuard &&
          Before(Event, Zero) && (!Latest || Before(*Latest, Event)))
        Latest = &Event;
    if (!Latest || Latest->Kind != GradEventKind::Backward)
      continue;
    for (const GradEvent &Step : Events) {
      if (Step.Kind != GradEventKind::Step || !isOrdered(Step) ||
          Step.PeriodicGuard != Zero.PeriodicGuard || !Before(Zero, Step))
        continue;
      const auto *Call = cast<CXXMemberCallExpr>(Zero.Call);
      const auto *Member = dyn_cast<MemberExpr>(Call->getCallee());
      diag(Member ? Member->getMemberLoc() : Call->getBeginLoc(),
           "'zero_grad()' runs between 'backward()' and 'step()': the step "
           "applies zero gradients and the backward pass is wasted; zero the "
           "gradients before the forward pass or after 'step()'");
      break;
    }
  }
}

bool ZeroGradAccumulationCheck::reportUnguardedZeroGrad(
    const GradEvent &Zero, const GradEvent &Step,
    llvm::ArrayRef<GradEvent> Events, ASTContext &Context) {
  const SourceManager &SM = Context.getSourceManager();
  const LangOptions &LangOpts = getLangOpts();
  const auto *ZeroCall = cast<CXXMemberCallExpr>(Zero.Call);
  const auto *Member = dyn_cast<MemberExpr>(ZeroCall->getCallee());
  const SourceLocation Loc =
      Member ? Member->getMemberLoc() : ZeroCall->getBeginLoc();
  const IfStmt *Guard = Step.PeriodicGuard;

  // The fix-it moves the statement; it is offered only when that is a
  // mechanical edit of plain file text.
  FixItHint Remove, Insert;
  const Stmt *ZeroParent = nullptr, *StepParent = nullptr;
  const Stmt *ZeroStmt =
      wholeStatement(ZeroCall, parents(Context), &ZeroParent);
  const Stmt *StepStmt =
      wholeStatement(Step.Call, parents(Context), &StepParent);
  bool ZeroInGuard = false;
  for (const GradEvent &Event : Events)
    if (Event.Kind == GradEventKind::ZeroGrad && Event.PeriodicGuard == Guard)
      ZeroInGuard = true;
  if (ZeroStmt && StepStmt && isa<CompoundStmt>(ZeroParent) &&
      StepParent == Guard->getThen() && isa<CompoundStmt>(StepParent) &&
      !ZeroInGuard && analysis::isRewritable(ZeroStmt->getSourceRange()) &&
      analysis::isRewritable(StepStmt->getSourceRange()) &&
      analysis::isRewritable(Guard->getSourceRange()) &&
      utils::localsDeclaredBefore(ZeroCall, Guard->getBeginLoc(), SM)) {
    const SourceLocation ZeroEnd = afterSemicolon(ZeroStmt, SM, LangOpts);
    const SourceLocation StepEnd = afterSemicolon(StepStmt, SM, LangOpts);
    if (ZeroEnd.isValid() && StepEnd.isValid()) {
      const StringRef ZeroText = Lexer::getSourceText(
          CharSourceRange::getCharRange(ZeroStmt->getBeginLoc(), ZeroEnd), SM,
          LangOpts);
      // Remove the whole line when the statement is alone on it, from the
      // newline before it: the rewriter joins whitespace around a removal
      // and would eat the next line's indentation.
      // Any whitespace but a line break counts as blank here (a CRLF line
      // goes with its '\r').
      Remove = FixItHint::CreateRemoval(
          utils::wholeLines(ZeroStmt->getBeginLoc(), ZeroEnd, SM, " \t\v\f\r")
              .value_or(CharSourceRange::getCharRange(ZeroStmt->getBeginLoc(),
                                                      ZeroEnd)));
      // Indent like the step() statement.
      const std::optional<std::string> Indent =
          utils::indentationIfFirstOnLine(StepStmt->getBeginLoc(), SM);
      if (Indent && !ZeroText.empty())
        Insert = FixItHint::CreateInsertion(StepEnd,
                                            utils::lineBreakAt(StepEnd, SM) +
                                                *Indent + ZeroText.str());
      else
        Remove = FixItHint();
    }
  }

  {
    auto Diag = diag(Loc, "'zero_grad()' runs on every micro-batch but "
                          "'step()' only every few: the gradients being "
                          "accumulated are discarded before each step uses "
                          "them; zero them right after 'step()'");
    if (!Remove.isNull() && !Insert.isNull())
      Diag << Remove << Insert;
  }
  diag(Step.Call->getBeginLoc(),
       "the optimizer steps here, under a periodic "
       "guard",
       DiagnosticIDs::Note);
  if (Remove.isNull() || Insert.isNull())
    diag(Step.Call->getBeginLoc(),
         "move the 'zero_grad()' call into this block, right after 'step()'",
         DiagnosticIDs::Note);
  return true;
}

void ZeroGradAccumulationCheck::reportCrossEpochWindow(
    const analysis::CrossEpochWindow &Window, const IfStmt &Guard,
    ASTContext &Context) {
  const auto *Zero = cast<CXXMemberCallExpr>(Window.EpochZeroGrad);
  const auto *Member = dyn_cast<MemberExpr>(Zero->getCallee());
  const std::string CountText =
      analysis::spelledText(analysis::accumulationCount(Guard.getCond()),
                            Context.getSourceManager(), getLangOpts());
  diag(Member ? Member->getMemberLoc() : Zero->getBeginLoc(),
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
