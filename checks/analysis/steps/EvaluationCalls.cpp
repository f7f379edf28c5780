//===--- EvaluationCalls.cpp - Evaluation functions without a loop --------===//
//
// Part of libtorch-tidy. SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

#include "analysis/steps/EvaluationCalls.h"
#include "analysis/steps/EvaluationFacts.h"
#include "analysis/steps/OuterWrites.h"
#include "analysis/vocabulary/GradModeFacts.h"
#include "analysis/vocabulary/LibTorchCalls.h"
#include "analysis/vocabulary/WalkDepths.h"
#include "utils/CallingContexts.h"
#include "clang/AST/RecursiveASTVisitor.h"

namespace clang::tidy::libtorch::analysis {

namespace {

/// The walk up the callers of unguardedCallFromTrainingLoop.
class UnguardedCallerWalk {
public:
  UnguardedCallerWalk(TrainingLoopModel &Loops, ASTContext &Context)
      : Loops(Loops), Context(Context) {}

  bool walk(const FunctionDecl *Callable, unsigned Depth,
            llvm::SmallVectorImpl<const CallExpr *> &Chain) {
    return Callers.anyCaller(
        Callable, Depth, [&](const CallExpr *Call, unsigned Deeper) {
          // A guard around this call covers everything below it.
          if (isCoveredByNoGradGuard(Call, Context, Loops.parents()))
            return false;
          const FunctionDecl *Caller =
              utils::enclosingCallable(Call, Loops.parents());
          if (!Caller || !Caller->getBody() ||
              bodyFacts(Caller->getBody(), Loops).SetsGradMode)
            return false;
          const Stmt *Body = nullptr;
          bool InLambda = false;
          bool InTrainingLoop = false;
          for (const Stmt *Loop :
               enclosingLoops(Call, Loops.parents(), Body, InLambda))
            InTrainingLoop |= Loops.isTrainingLoop(Loop);
          if (!InTrainingLoop && !walk(Caller, Deeper, Chain))
            return false;
          Chain.push_back(Call);
          return true;
        });
  }

private:
  TrainingLoopModel &Loops;
  ASTContext &Context;
  /// A function whose callers are being walked is not walked again from a
  /// recursive call: that chain answers "no".
  utils::CallingContexts<TrainingLoopModel> Callers{
      Loops, CallDepth::CallerChain, utils::Recursion::Cut};
};

/// The module forward calls of \p Body outside any loop or lambda of the
/// function, in source order; \p InLoop is set when a loop of the function
/// runs one.
llvm::SmallVector<const CallExpr *, 2>
straightForwardCalls(const Stmt *Body, const utils::UserCodeParents &Parents,
                     bool &InLoop) {
  struct Visitor : RecursiveASTVisitor<Visitor> {
    const utils::UserCodeParents &Parents;
    llvm::SmallVector<const CallExpr *, 2> Calls;
    bool InLoop = false;
    explicit Visitor(const utils::UserCodeParents &Parents)
        : Parents(Parents) {}
    bool TraverseLambdaExpr(LambdaExpr * /*Lambda*/) { return true; }
    bool VisitCallExpr(CallExpr *Call) {
      if (!isModuleForwardCall(Call))
        return true;
      const Stmt *Around = nullptr;
      bool Lambda = false;
      if (!enclosingLoops(Call, Parents, Around, Lambda).empty())
        InLoop = true;
      else if (!Lambda)
        Calls.push_back(Call);
      return true;
    }
  } V(Parents);
  V.TraverseStmt(const_cast<Stmt *>(Body));
  InLoop = V.InLoop;
  return V.Calls;
}

} // namespace

std::optional<llvm::SmallVector<const CallExpr *, 4>>
unguardedCallFromTrainingLoop(const FunctionDecl *Callable,
                              TrainingLoopModel &Loops, ASTContext &Context) {
  llvm::SmallVector<const CallExpr *, 4> Chain;
  UnguardedCallerWalk Walk(Loops, Context);
  // The walk adds each call after the calls above it: outermost first.
  if (!Walk.walk(Callable, 0, Chain))
    return std::nullopt;
  return Chain;
}

std::optional<EvaluationPass> evaluationPass(const FunctionDecl *Function,
                                             TrainingLoopModel &Loops,
                                             ASTContext &Context) {
  const auto *Method = dyn_cast<CXXMethodDecl>(Function);
  // A lambda is judged with the function around it; a module's own method
  // runs in whatever mode its caller chose; a template as written names no
  // forward pass on a dependent argument yet.
  if (!Function->getBody() || Function->isDependentContext() ||
      (Method && Method->getParent()->isLambda()) || isModuleMethod(Function))
    return std::nullopt;
  const Stmt *Body = Function->getBody();
  bool InLoop = false;
  llvm::SmallVector<const CallExpr *, 2> Forwards =
      straightForwardCalls(Body, Loops.parents(), InLoop);
  // A loop of its own that runs the model is an evaluation loop, reported
  // as such.
  if (Forwards.empty() || InLoop)
    return std::nullopt;
  BodyFacts Facts = bodyFacts(Body, Loops);
  if (Facts.Trains || Facts.MayTrain || Facts.SetsGradMode)
    return std::nullopt;
  const SourceManager &SM = Context.getSourceManager();
  const CXXMemberCallExpr *Eval =
      lastModeCallBefore(Facts, Forwards.front(), SM);
  if (!isEvalCall(Eval))
    return std::nullopt;
  // Outputs that leave the function may feed a backward pass of a caller.
  if (mayHoldTensors(Function->getReturnType()) || findOuterTensorWrite(Body))
    return std::nullopt;
  for (const CallExpr *Forward : Forwards)
    if (isCoveredByNoGradGuard(Forward, Context, Loops.parents()))
      return std::nullopt;
  if (Loops.perStep(Forwards.front(), StepEntries::Accepted))
    return std::nullopt;
  std::optional<llvm::SmallVector<const CallExpr *, 4>> Calls =
      unguardedCallFromTrainingLoop(Function, Loops, Context);
  if (!Calls)
    return std::nullopt;
  return EvaluationPass{Forwards.front(), Eval, std::move(*Calls)};
}

} // namespace clang::tidy::libtorch::analysis
