//===--- EvalWithoutNoGradCheck.cpp - libtorch-tidy -----------------------===//
//
// Part of libtorch-tidy. SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

#include "EvalWithoutNoGradCheck.h"
#include "analysis/steps/EvaluationCalls.h"
#include "analysis/steps/EvaluationFacts.h"
#include "analysis/steps/OuterWrites.h"
#include "analysis/vocabulary/GradModeFacts.h"
#include "analysis/vocabulary/LibTorchCalls.h"
#include "analysis/vocabulary/LibTorchNames.h"
#include "clang-compat/ClangCompat.h"
#include "utils/AstWalk.h"
#include "utils/LoopMatchers.h"
#include "utils/SourceLines.h"
#include "utils/SourceText.h"
#include "clang/AST/ASTContext.h"
#include "clang/ASTMatchers/ASTMatchFinder.h"

using namespace clang::ast_matchers;

namespace clang::tidy::libtorch {

namespace {

/// A result that can carry tensors (and their autograd graph) to a caller.
bool mayReturnTensors(const FunctionDecl *Function) {
  return analysis::mayHoldTensors(Function->getReturnType());
}

} // namespace

void EvalWithoutNoGradCheck::registerUserCodeMatchers(MatchFinder *Finder) {
  // Template code is matched as written and in each instantiation: in the
  // template, a forward pass on a dependent argument is not resolved yet.
  // check() reports each loop once, at the template's location.
  utils::addLoopMatchers(*Finder, this);
  // An evaluation function without a loop starts with its eval() call.
  const auto EvalCall = cxxMemberCallExpr(callee(cxxMethodDecl(
      hasName("eval"), ofClass(isSameOrDerivedFrom(names::Module)))));
  Finder->addMatcher(EvalCall.bind("eval"), this);
}

void EvalWithoutNoGradCheck::check(const MatchFinder::MatchResult &Result) {
  ASTContext &Context = *Result.Context;
  if (const auto *Eval = Result.Nodes.getNodeAs<CXXMemberCallExpr>("eval"))
    return checkEvaluationFunction(*Eval, Context);
  const auto *Loop = Result.Nodes.getNodeAs<Stmt>("loop");
  // A loop spelled in a macro: neither the report nor the fix would be
  // where the user can act on it.
  if (Loop->getBeginLoc().isMacroID() ||
      Reported.get(Context).contains(Loop->getBeginLoc()) ||
      !analysis::runsModel(Loop, parents(Context)))
    return;
  if (trainingFacts(Context).Loops.isTrainingLoop(Loop))
    return checkPeriodicPasses(Loop, Context);
  if (std::optional<EvaluationLoop> Evaluation = evaluationLoop(Loop, Context))
    diagnoseEvaluationLoop(*Evaluation, Context);
}

std::optional<EvalWithoutNoGradCheck::EvaluationLoop>
EvalWithoutNoGradCheck::evaluationLoop(const Stmt *Loop, ASTContext &Context) {
  const SourceManager &SM = Context.getSourceManager();
  analysis::TrainingFacts &TU = trainingFacts(Context);
  const Stmt *CallableBody = nullptr;
  EvaluationLoop Found{Loop};
  auto Outer =
      analysis::enclosingLoops(Loop, TU.Parents, CallableBody, Found.InLambda);
  Found.Function = utils::enclosingFunction(Loop, TU.Parents);
  if (!CallableBody || !Found.Function || !Found.Function->getBody())
    return std::nullopt;
  // Inside a training step, forward passes usually feed the step's loss
  // (an RNN unrolled over time, a teacher model): not an evaluation.
  for (const Stmt *Around : Outer)
    if (TU.Loops.isStepLoop(Around))
      return std::nullopt;
  if (TU.Loops.perStep(Loop))
    return std::nullopt;
  // A module's own forward() looping over its layers runs in whatever mode
  // its caller chose.
  if (analysis::isModuleMethod(Found.Function))
    return std::nullopt;
  // Guards: in the loop, before it in an enclosing block, or around a call
  // of the function.
  if (analysis::holdsNoGradGuard(utils::loopBody(Loop), Context) ||
      analysis::isCoveredByNoGradGuard(Loop, Context, TU.Parents))
    return std::nullopt;
  // A lambda called by name (`evaluate()` in the epoch loop) is judged as
  // a function of its own, unless it hands tensors to its captures: then
  // the function around it decides, as if the lambda's body were inline.
  const FunctionDecl *Callable = Found.Function;
  Found.Judged = Found.Function->getBody();
  const FunctionDecl *Lambda = utils::enclosingCallable(Loop, TU.Parents);
  if (const auto *Method = dyn_cast_or_null<CXXMethodDecl>(Lambda);
      Method && Method->getParent()->isLambda()) {
    Found.InLambda = true;
    if (!analysis::callersOf(Lambda, TU.Loops).empty() &&
        !analysis::findOuterTensorWrite(CallableBody)) {
      Callable = Lambda;
      Found.Judged = CallableBody;
    }
  }
  Found.Body = analysis::bodyFacts(Found.Judged, TU.Loops);
  if (Found.Body.SetsGradMode || Found.Body.MayTrain)
    return std::nullopt;
  auto Callers = analysis::callersOf(Callable, TU.Loops);
  for (const CallExpr *Call : Callers)
    if (analysis::isCoveredByNoGradGuard(Call, Context, TU.Parents))
      return std::nullopt;
  // Evidence that the loop evaluates: eval mode (here, or before a call of
  // a function that switches no mode), or a walk over a data loader; in a
  // function that trains, over one it never trains on, after its training.
  Found.ModeCall = analysis::lastModeCallBefore(Found.Body, Loop, SM);
  if (!Found.ModeCall && !Found.Body.Trains)
    Found.ModeCall = evalCallBeforeCallers(Callers, TU, SM);
  Found.AfterEval = analysis::isEvalCall(Found.ModeCall);
  if (Found.Body.Trains
          ? !(Found.AfterEval ||
              analysis::walksHeldOutLoader(Loop, Found.Judged, TU.Loops, SM))
          : !(Found.AfterEval || analysis::iteratesDataLoader(Loop)))
    return std::nullopt;
  // In a function that trains, a backward after the loop may use what the
  // loop computed (targets of a teacher model, outputs for a later loss).
  for (const CallExpr *Update : Found.Body.Updates)
    if (SM.isBeforeInTranslationUnit(Loop->getEndLoc(),
                                     compat::beginOf(*Update)))
      return std::nullopt;
  // Outputs returned to a caller that trains may feed its backward.
  if (!Found.Body.Trains)
    for (const CallExpr *Call : Callers) {
      const FunctionDecl *Caller = utils::enclosingFunction(Call, TU.Parents);
      if (Caller && Caller->getBody() &&
          !analysis::bodyFacts(Caller->getBody(), TU.Loops).Trains)
        continue;
      if (mayReturnTensors(Callable))
        return std::nullopt;
      if (!Found.TrainingCaller &&
          analysis::isInTrainingLoop(Call, TU.Parents, TU.Loops))
        Found.TrainingCaller = Call;
    }
  return Found;
}

const CXXMemberCallExpr *EvalWithoutNoGradCheck::evalCallBeforeCallers(
    llvm::ArrayRef<const CallExpr *> Callers, analysis::TrainingFacts &TU,
    const SourceManager &SM) {
  for (const CallExpr *Call : Callers)
    if (const FunctionDecl *Caller = utils::enclosingFunction(Call, TU.Parents);
        Caller && Caller->getBody())
      if (const CXXMemberCallExpr *Before = analysis::lastModeCallBefore(
              analysis::bodyFacts(Caller->getBody(), TU.Loops), Call, SM);
          analysis::isEvalCall(Before))
        return Before;
  return nullptr;
}

void EvalWithoutNoGradCheck::diagnoseEvaluationLoop(
    const EvaluationLoop &Evaluation, ASTContext &Context) {
  analysis::TrainingFacts &TU = trainingFacts(Context);
  const Stmt *Loop = Evaluation.Loop;
  const FunctionDecl *Function = Evaluation.Function;
  Reported.get(Context).insert(Loop->getBeginLoc());
  {
    auto Diag = diag(Loop->getBeginLoc(),
                     "evaluation loop runs the model with autograd on: every "
                     "forward pass records a graph for a backward that never "
                     "comes, costing GPU memory and time; declare "
                     "'torch::NoGradGuard no_grad;' before it");
    // The guard goes at the top of the function, or of the loop body when
    // the function also trains, may train through a function we cannot
    // see, or the loop is in a lambda.
    bool NoGradName =
        Evaluation.Body.HasNoGradName ||
        (Evaluation.Judged != Function->getBody() &&
         analysis::bodyFacts(Function->getBody(), TU.Loops).HasNoGradName);
    if (!NoGradName)
      insertGuard(Diag,
                  Evaluation.Body.Trains || Evaluation.Body.CallsUnseen ||
                          Evaluation.InLambda
                      ? utils::loopBody(Loop)
                      : Function->getBody(),
                  Context);
  }
  if (Evaluation.AfterEval)
    diag(Evaluation.ModeCall->getExprLoc(),
         "'eval()' switches dropout and batch norm to inference behaviour; "
         "it does not turn autograd off",
         DiagnosticIDs::Note);
  if (Evaluation.TrainingCaller)
    diag(compat::beginOf(*Evaluation.TrainingCaller),
         "the evaluation runs from this call in a training loop",
         DiagnosticIDs::Note);
}

void EvalWithoutNoGradCheck::checkPeriodicPasses(const Stmt *Loop,
                                                 ASTContext &Context) {
  analysis::TrainingFacts &TU = trainingFacts(Context);
  const FunctionDecl *Function = utils::enclosingFunction(Loop, TU.Parents);
  if (!Function || !Function->getBody())
    return;
  std::optional<analysis::BodyFacts> Body;
  for (const analysis::PeriodicPass &Pass :
       analysis::periodicPasses(Loop, TU.Loops)) {
    // A pass spelled in a macro; one already reported from another
    // instantiation of a template; a pass under a guard.
    if (!compat::beginOf(*Pass.Forward).isFileID() ||
        Reported.get(Context).contains(Pass.Block->getBeginLoc()) ||
        analysis::isCoveredByNoGradGuard(Pass.Forward, Context, TU.Parents))
      continue;
    if (!Body)
      Body = analysis::bodyFacts(Function->getBody(), TU.Loops);
    if (Body->SetsGradMode)
      return;
    Reported.get(Context).insert(Pass.Block->getBeginLoc());
    auto Diag = diag(compat::beginOf(*Pass.Forward),
                     "forward pass every few iterations of a training loop "
                     "runs with autograd on, yet no backward pass uses its "
                     "output: it records a graph and keeps its activations "
                     "for nothing; declare 'torch::NoGradGuard no_grad;' at "
                     "the top of its block");
    if (!Body->HasNoGradName)
      insertGuard(Diag, Pass.Block, Context);
  }
}

void EvalWithoutNoGradCheck::checkEvaluationFunction(
    const CXXMemberCallExpr &Eval, ASTContext &Context) {
  analysis::TrainingFacts &TU = trainingFacts(Context);
  const FunctionDecl *Function = utils::enclosingFunction(&Eval, TU.Parents);
  // One report per function, whichever of its eval() calls matched.
  if (!Function || !Function->getBody() ||
      Reported.get(Context).contains(Function->getBody()->getBeginLoc()))
    return;
  std::optional<analysis::EvaluationPass> Pass =
      analysis::evaluationPass(Function, TU.Loops, Context);
  if (!Pass || !compat::beginOf(*Pass->Forward).isFileID())
    return;
  Reported.get(Context).insert(Function->getBody()->getBeginLoc());
  {
    auto Diag = diag(compat::beginOf(*Pass->Forward),
                     "%0 evaluates: it puts the model in eval mode and runs "
                     "its forward pass with autograd on, and no caller on "
                     "the path from the training loop turns gradients off; "
                     "each call records a graph for a backward that never "
                     "comes; declare 'torch::NoGradGuard no_grad;' at the "
                     "top of the function")
                << Function;
    if (!analysis::bodyFacts(Function->getBody(), TU.Loops).HasNoGradName)
      insertGuard(Diag, Function->getBody(), Context);
  }
  diag(Pass->Eval->getExprLoc(),
       "'eval()' switches dropout and batch norm to inference behaviour; "
       "it does not turn autograd off",
       DiagnosticIDs::Note);
  for (const CallExpr *Call : Pass->Calls)
    diag(compat::beginOf(*Call),
         Call == Pass->Calls.front()
             ? "the evaluation runs from this call in a training loop, with "
               "no guard around it"
             : "called here, with no guard around the call",
         DiagnosticIDs::Note);
}

void EvalWithoutNoGradCheck::insertGuard(DiagnosticBuilder &Diag,
                                         const Stmt *At, ASTContext &Context) {
  const SourceManager &SM = Context.getSourceManager();
  const auto *Block = dyn_cast_or_null<CompoundStmt>(At);
  if (!Block || Block->body_empty() ||
      FixedBlocks.get(Context).contains(Block->getBeginLoc()))
    return;
  const Stmt *First = Block->body_front();
  if (!First->getBeginLoc().isFileID())
    return;
  std::optional<std::string> Indent =
      utils::indentationIfFirstOnLine(First->getBeginLoc(), SM);
  Diag << FixItHint::CreateInsertion(
      First->getBeginLoc(),
      Indent ? "torch::NoGradGuard no_grad;" +
                   utils::lineBreakAt(First->getBeginLoc(), SM) + *Indent
             : "torch::NoGradGuard no_grad; ");
  FixedBlocks.get(Context).insert(Block->getBeginLoc());
}

} // namespace clang::tidy::libtorch
