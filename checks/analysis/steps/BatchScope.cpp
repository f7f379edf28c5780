//===--- BatchScope.cpp - Code run per training step or eval batch --------===//
//
// Part of libtorch-tidy. SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

#include "analysis/steps/BatchScope.h"
#include "analysis/vocabulary/GradModeFacts.h"
#include "analysis/vocabulary/LibTorchCalls.h"
#include "analysis/vocabulary/LibTorchNames.h"
#include "analysis/vocabulary/WalkDepths.h"
#include "clang-compat/ClangCompat.h"
#include "utils/AstWalk.h"
#include "utils/CallingContexts.h"
#include "utils/UserCode.h"
#include "clang/AST/ExprCXX.h"
#include "clang/AST/RecursiveASTVisitor.h"
#include "clang/AST/StmtCXX.h"
#include "clang/Basic/SourceManager.h"

namespace clang::tidy::libtorch::analysis {

namespace {

/// The last module `eval()` / `train()` call before \p Loop in \p Body is
/// `eval()`.
bool followsEval(const Stmt *Body, const Stmt *Loop, const SourceManager &SM) {
  struct Visitor : RecursiveASTVisitor<Visitor> {
    const SourceManager &SM;
    SourceLocation Before;
    const CXXMemberCallExpr *Last = nullptr;
    Visitor(const SourceManager &SM, SourceLocation Before)
        : SM(SM), Before(Before) {}
    bool VisitCXXMemberCallExpr(CXXMemberCallExpr *Call) {
      const CXXMethodDecl *Method = Call->getMethodDecl();
      if (!Method || !Method->getIdentifier() ||
          (Method->getName() != "eval" && Method->getName() != "train") ||
          !(isSameOrDerivedFrom(Method->getParent(), names::Module) ||
            isSameOrDerivedFrom(Method->getParent(), names::JitModule)) ||
          !SM.isBeforeInTranslationUnit(compat::beginOf(*Call), Before))
        return true;
      if (!Last || SM.isBeforeInTranslationUnit(compat::beginOf(*Last),
                                                compat::beginOf(*Call)))
        Last = Call;
      return true;
    }
  } V(SM, Loop->getBeginLoc());
  V.TraverseStmt(const_cast<Stmt *>(Body));
  return V.Last && V.Last->getMethodDecl()->getName() == "eval";
}

/// \p Lambda is handed to a transform (`transforms::Lambda<...>([](...) {
/// ... })`): its body runs in the data pipeline.
bool isGivenToTransform(const LambdaExpr &Lambda,
                        const utils::UserCodeParents &Parents) {
  // Through the conversions, temporaries and std::function wrappers that
  // stand between the lambda and the transform's constructor.
  bool Given = false;
  unsigned Hops = 0;
  utils::forEachAncestor(
      DynTypedNode::create(Lambda), Parents,
      [&](const DynTypedNode &Above, const DynTypedNode &) {
        const auto *Parent = Above.get<Expr>();
        if (Hops++ == ParentHops::LambdaToTransform || !Parent)
          return false;
        if (const auto *Construct = dyn_cast<CXXConstructExpr>(Parent))
          Given =
              isSameOrDerivedFrom(Construct->getType()->getAsCXXRecordDecl(),
                                  names::BatchTransform);
        return !Given;
      });
  return Given;
}

} // namespace

bool isDataPipelineFunction(const FunctionDecl *Function) {
  const auto *Method = dyn_cast_or_null<CXXMethodDecl>(Function);
  if (!Method || Method->getParent()->isLambda())
    return false;
  if (!Method->getIdentifier())
    return Method->getOverloadedOperator() == OO_Call &&
           isSameOrDerivedFrom(Method->getParent(), names::BatchTransform);
  StringRef Name = Method->getName();
  if (Name == "get" || Name == "get_batch")
    return isSameOrDerivedFrom(Method->getParent(), names::BatchDataset);
  return (Name == "apply" || Name == "apply_batch") &&
         isSameOrDerivedFrom(Method->getParent(), names::BatchTransform);
}

BatchScope::BatchScope(ASTContext &Context, TrainingLoopModel &Loops)
    : Context(Context), Loops(Loops) {}

std::optional<StepPath> BatchScope::perBatch(const Stmt *S) {
  if (!S || isInDataPipeline(S))
    return std::nullopt;
  return outsideDataPipeline(Loops.perIteration(S, [this](const Stmt *Loop) {
    return Loops.isStepLoop(Loop) || isEvaluationLoop(Loop);
  }));
}

std::optional<StepPath> outsideDataPipeline(std::optional<StepPath> Path) {
  if (!Path)
    return std::nullopt;
  // `dataset.get(i)` called from the loop itself: still the dataset's code.
  for (const CallExpr *Site : Path->Calls)
    if (isDataPipelineFunction(Site->getDirectCallee()))
      return std::nullopt;
  return Path;
}

unsigned BatchScope::forwardDistance(const Stmt *S) {
  if (!S)
    return Unreachable;
  if (isModuleComputation(S))
    return 0;
  unsigned Best = Unreachable;
  if (const auto *Call = dyn_cast<CallExpr>(S)) {
    unsigned ViaCall = functionForwardDistance(Call->getDirectCallee());
    if (ViaCall < Unreachable)
      Best = ViaCall + 1;
  }
  // A lambda's body runs where it is called, not where it is written.
  if (isa<LambdaExpr>(S))
    return Best;
  for (const Stmt *Child : S->children())
    Best = std::min(Best, forwardDistance(Child));
  return Best;
}

unsigned BatchScope::functionForwardDistance(const FunctionDecl *Function) {
  const FunctionDecl *Definition = nullptr;
  // LibTorch's own functions are not the user's evaluation code.
  if (!Function || !Function->hasBody(Definition) ||
      !utils::isUserCode(Definition, Context.getSourceManager()))
    return Unreachable;
  auto Known = ForwardDistance.find(Definition);
  if (Known != ForwardDistance.end())
    return Known->second;
  ForwardDistance[Definition] = Unreachable; // breaks recursion
  unsigned Distance = forwardDistance(Definition->getBody());
  if (Distance >= CallDepth::TrainingStep)
    Distance = Unreachable;
  ForwardDistance[Definition] = Distance;
  return Distance;
}

bool BatchScope::evaluates(const Stmt *Loop, const FunctionDecl *Function) {
  if (iteratesDataLoader(Loop))
    return true;
  const utils::UserCodeParents &Parents = Loops.parents();
  if (holdsNoGradGuard(utils::loopBody(Loop), Context) ||
      isCoveredByNoGradGuard(Loop, Context, Parents))
    return true;
  if (followsEval(Function->getBody(), Loop, Context.getSourceManager()))
    return true;
  // An inference helper called in the loop: a function of this TU that runs
  // the forward pass under a no-grad guard of its own (`detect(image)` in a
  // loop over image files).
  if (callsInferenceHelper(utils::loopBody(Loop)))
    return true;
  for (const CallExpr *Site : Loops.callSitesOf(Function))
    if (isCoveredByNoGradGuard(Site, Context, Parents))
      return true;
  return false;
}

bool BatchScope::callsInferenceHelper(const Stmt *S) {
  // A lambda's body runs where it is called, not where it is written.
  if (!S || isa<LambdaExpr>(S))
    return false;
  if (const auto *Call = dyn_cast<CallExpr>(S)) {
    const FunctionDecl *Definition = nullptr;
    const FunctionDecl *Callee = Call->getDirectCallee();
    if (Callee && Callee->hasBody(Definition) &&
        functionForwardDistance(Callee) < Unreachable) {
      auto Known = GuardedFunctions.try_emplace(Definition, false);
      if (Known.second)
        Known.first->second = holdsNoGradGuard(Definition->getBody(), Context);
      if (Known.first->second)
        return true;
    }
  }
  return llvm::any_of(S->children(), [this](const Stmt *Child) {
    return callsInferenceHelper(Child);
  });
}

bool BatchScope::isEvaluationLoop(const Stmt *Loop) {
  if (!utils::isLoop(Loop))
    return false;
  auto Known = EvaluationLoops.find(Loop);
  if (Known != EvaluationLoops.end())
    return Known->second;
  bool Result = false;
  const FunctionDecl *Function =
      utils::enclosingFunction(Loop, Loops.parents());
  const auto *Method = dyn_cast_or_null<CXXMethodDecl>(Function);
  if (Function && Function->getBody() && !Loops.isTrainingLoop(Loop) &&
      !(Method && isSameOrDerivedFrom(Method->getParent(), names::Module)))
    Result =
        forwardDistance(utils::loopBody(Loop)) <= CallDepth::TrainingStep &&
        evaluates(Loop, Function);
  EvaluationLoops[Loop] = Result;
  return Result;
}

bool BatchScope::isInDataPipeline(const Stmt *S) {
  return stmtInDataPipeline(S, 0);
}

bool BatchScope::stmtInDataPipeline(const Stmt *S, unsigned Depth) {
  const utils::UserCodeParents &Parents = Loops.parents();
  bool InPipeline = false;
  utils::forEachAncestor(
      DynTypedNode::create(*S), Parents,
      [&](const DynTypedNode &Parent, const DynTypedNode &) {
        if (const auto *Lambda = Parent.get<LambdaExpr>()) {
          // A lambda in a dataset's get() is the dataset's code: walk on.
          InPipeline = isGivenToTransform(*Lambda, Parents);
          return !InPipeline;
        }
        if (const auto *Function = Parent.get<FunctionDecl>()) {
          if (const auto *Method = dyn_cast<CXXMethodDecl>(Function);
              Method && Method->getParent()->isLambda())
            return true; // walk on to the LambdaExpr
          InPipeline = functionInDataPipeline(Function, Depth);
          return false;
        }
        return true;
      });
  return InPipeline;
}

bool BatchScope::functionInDataPipeline(const FunctionDecl *Function,
                                        unsigned Depth) {
  if (isDataPipelineFunction(Function))
    return true;
  // The memo below answers a recursive call ("not yet": false), and keeps
  // one answer per function whatever the depth it was reached at.
  utils::CallingContexts<TrainingLoopModel> Callers(
      Loops, CallDepth::TrainingStep, utils::Recursion::Followed);
  if (!Callers.canFollow(Depth))
    return false;
  const FunctionDecl *Canonical = Function->getCanonicalDecl();
  auto Known = Pipeline.find(Canonical);
  if (Known != Pipeline.end())
    return Known->second;
  Pipeline[Canonical] = false; // breaks recursion
  bool Result = Callers.anyCaller(
      Function, Depth, [this](const CallExpr *Site, unsigned Deeper) {
        return stmtInDataPipeline(Site, Deeper);
      });
  Pipeline[Canonical] = Result;
  return Result;
}

} // namespace clang::tidy::libtorch::analysis
