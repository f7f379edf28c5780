//===--- EvalWithoutNoGradCheck.cpp - libtorch-tidy -----------------------===//
//
// Part of libtorch-tidy. SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

#include "EvalWithoutNoGradCheck.h"
#include "analysis/EvaluationFacts.h"
#include "analysis/GradModeFacts.h"
#include "analysis/LibTorchCalls.h"
#include "analysis/LibTorchNames.h"
#include "analysis/LoopMatchers.h"
#include "analysis/SourceText.h"
#include "utils/AstWalk.h"
#include "utils/SourceLines.h"
#include "clang/AST/ASTContext.h"
#include "clang/ASTMatchers/ASTMatchFinder.h"

using namespace clang::ast_matchers;

namespace clang::tidy::libtorch {

namespace {

using analysis::TrainingLoopModel;

/// The last `eval()` / `train()` before \p Loop is `eval()`.
bool followsEval(const analysis::BodyFacts &Facts, const Stmt *Loop,
                 const SourceManager &SM) {
  const CXXMemberCallExpr *Last = nullptr;
  for (const CXXMemberCallExpr *Call : Facts.ModeCalls)
    if (SM.isBeforeInTranslationUnit(Call->getBeginLoc(), Loop->getBeginLoc()))
      Last = Call;
  return Last && Last->getMethodDecl()->getName() == "eval";
}

/// A result that can carry tensors (and their autograd graph) to a caller.
bool mayReturnTensors(const FunctionDecl *Function) {
  QualType Type = Function->getReturnType();
  return !Type->isVoidType() && !Type->isArithmeticType() &&
         !Type->isEnumeralType();
}

/// The calls of \p Function, and of its instantiations if it is a template.
llvm::SmallVector<const CallExpr *, 4> callersOf(const FunctionDecl *Function,
                                                 TrainingLoopModel &Loops) {
  llvm::SmallVector<const CallExpr *, 4> Calls;
  auto Add = [&](const FunctionDecl *F) {
    for (const CallExpr *Call : Loops.callSitesOf(F->getCanonicalDecl()))
      Calls.push_back(Call);
  };
  Add(Function);
  if (const FunctionTemplateDecl *Template =
          Function->getDescribedFunctionTemplate())
    for (const FunctionDecl *Instance : Template->specializations())
      Add(Instance);
  return Calls;
}

} // namespace

void EvalWithoutNoGradCheck::registerUserCodeMatchers(MatchFinder *Finder) {
  // Template code is matched as written and in each instantiation: in the
  // template, a forward pass on a dependent argument is not resolved yet.
  // check() reports each loop once, at the template's location.
  analysis::addLoopMatchers(*Finder, this);
}

void EvalWithoutNoGradCheck::check(const MatchFinder::MatchResult &Result) {
  const auto *Loop = Result.Nodes.getNodeAs<Stmt>("loop");
  ASTContext &Context = *Result.Context;
  const SourceManager &SM = *Result.SourceManager;
  // A loop spelled in a macro: neither the report nor the fix would be
  // where the user can act on it.
  if (Loop->getBeginLoc().isMacroID() ||
      ReportedLoops.get(Context).contains(Loop->getBeginLoc()) ||
      !analysis::runsModel(Loop, parents(Context)))
    return;
  analysis::TrainingFacts &TU = trainingFacts(Context);
  if (TU.Loops.isTrainingLoop(Loop))
    return;
  const Stmt *CallableBody = nullptr;
  bool InLambda = false;
  auto Outer =
      analysis::enclosingLoops(Loop, TU.Parents, CallableBody, InLambda);
  const FunctionDecl *Function = analysis::enclosingFunction(Loop, TU.Parents);
  if (!CallableBody || !Function || !Function->getBody())
    return;
  // Inside a training step, forward passes usually feed the step's loss
  // (an RNN unrolled over time, a teacher model): not an evaluation.
  for (const Stmt *Around : Outer)
    if (TU.Loops.isStepLoop(Around))
      return;
  if (TU.Loops.perStep(Loop))
    return;
  // A module's own forward() looping over its layers runs in whatever mode
  // its caller chose.
  if (const auto *Method = dyn_cast<CXXMethodDecl>(Function);
      Method &&
      analysis::isSameOrDerivedFrom(Method->getParent(), names::Module))
    return;
  // Guards: in the loop, before it in an enclosing block, or around a call
  // of the function.
  if (analysis::holdsNoGradGuard(utils::loopBody(Loop), Context) ||
      analysis::isCoveredByNoGradGuard(Loop, Context, TU.Parents))
    return;
  analysis::BodyFacts Body = analysis::bodyFacts(Function->getBody(), TU.Loops);
  if (Body.SetsGradMode || Body.MayTrain)
    return;
  auto Callers = callersOf(Function, TU.Loops);
  for (const CallExpr *Call : Callers)
    if (analysis::isCoveredByNoGradGuard(Call, Context, TU.Parents))
      return;
  // Evidence that the loop evaluates: the model was put in eval mode, or
  // the loop walks a data loader. In a function that also trains, only
  // eval() is evidence enough.
  bool AfterEval = followsEval(Body, Loop, SM);
  if (Body.Trains ? !AfterEval
                  : !(AfterEval || analysis::iteratesDataLoader(Loop)))
    return;
  // In a function that trains, a backward after the loop may use what the
  // loop computed (targets of a teacher model, outputs for a later loss).
  for (const CallExpr *Update : Body.Updates)
    if (SM.isBeforeInTranslationUnit(Loop->getEndLoc(), Update->getBeginLoc()))
      return;
  // Outputs returned to a caller that trains may feed its backward.
  if (!Body.Trains && mayReturnTensors(Function))
    for (const CallExpr *Call : Callers) {
      const FunctionDecl *Caller =
          analysis::enclosingFunction(Call, TU.Parents);
      if (!Caller || !Caller->getBody() ||
          analysis::bodyFacts(Caller->getBody(), TU.Loops).Trains)
        return;
    }

  ReportedLoops.get(Context).insert(Loop->getBeginLoc());
  auto Diag = diag(Loop->getBeginLoc(),
                   "evaluation loop runs the model with autograd on: every "
                   "forward pass records a graph for a backward that never "
                   "comes, costing GPU memory and time; declare "
                   "'torch::NoGradGuard no_grad;' before it");
  if (Body.HasNoGradName)
    return;
  // The guard goes at the top of the function, or of the loop body when
  // the function also trains, may train through a function we cannot see,
  // or the loop is in a lambda.
  const auto *Block = dyn_cast<CompoundStmt>(
      Body.Trains || Body.CallsUnseen || InLambda ? utils::loopBody(Loop)
                                                  : Function->getBody());
  if (!Block || Block->body_empty() ||
      FixedFunctions.get(Context).contains(Block->getBeginLoc()))
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
  FixedFunctions.get(Context).insert(Block->getBeginLoc());
}

} // namespace clang::tidy::libtorch
