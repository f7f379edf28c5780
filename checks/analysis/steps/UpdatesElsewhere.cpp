//===--- UpdatesElsewhere.cpp - Updates in other units --------------------===//
//
// Part of libtorch-tidy. SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//
//
// The training-loop model's view of other translation units
// (TrainingLoopModel.h): a call of a function defined elsewhere reaches the
// parameter updates its summary says (analysis/summaries/FunctionSummary.h),
// and what the model measures of this unit's functions is what their
// summaries say to the other units.
//
//===----------------------------------------------------------------------===//

#include "analysis/steps/TrainingLoopModel.h"
#include "analysis/summaries/CalledElsewhere.h"
#include "analysis/summaries/SummaryTable.h"
#include "analysis/vocabulary/WalkDepths.h"
#include "utils/AstWalk.h"
#include "clang/AST/ExprCXX.h"

namespace clang::tidy::libtorch::analysis {

namespace {

std::optional<unsigned> nearer(std::optional<unsigned> A,
                               std::optional<unsigned> B) {
  if (A && B)
    return std::min(*A, *B);
  return A ? A : B;
}

} // namespace

unsigned TrainingLoopModel::distanceElsewhere(const CallExpr &Call,
                                              bool SkipTrainingLoops,
                                              Update Kind) {
  if (!Summaries)
    return Unreachable;
  // The same callees, and only those, are the unit's CalledElsewhere
  // (summaries/FunctionSummary.h): a cached result depends on their answers.
  const FunctionDecl *Callee = calleeDefinedElsewhere(Call);
  if (!Callee || !utils::isUserCode(Callee, Context.getSourceManager()))
    return Unreachable;
  // Asked for each kind of update and each call of it: the USR and the
  // lookup once per callee.
  auto [Known, New] = CalleeUpdates.try_emplace(Callee->getCanonicalDecl());
  if (New)
    Known->second = Summaries().updatesOf(usrOf(Callee));
  const std::optional<SummarizedUpdates> &Updates = Known->second;
  if (!Updates)
    return Unreachable;
  const std::optional<unsigned> Backward =
      SkipTrainingLoops ? Updates->BackwardOutsideLoops : Updates->Backward;
  const std::optional<unsigned> Step =
      SkipTrainingLoops ? Updates->StepOutsideLoops : Updates->Step;
  std::optional<unsigned> Distance = Kind == Update::Backward ? Backward
                                     : Kind == Update::OptimizerStep
                                         ? Step
                                         : nearer(Backward, Step);
  return Distance ? *Distance + 1 : Unreachable;
}

SummarizedUpdates TrainingLoopModel::updatesOf(const FunctionDecl *Function) {
  const auto Measured = [&](bool SkipTrainingLoops,
                            Update Kind) -> std::optional<unsigned> {
    const unsigned Distance =
        functionUpdateDistance(Function, SkipTrainingLoops, Kind);
    if (Distance >= CallDepth::TrainingStep)
      return std::nullopt;
    return Distance;
  };
  SummarizedUpdates Updates;
  Updates.Backward = Measured(false, Update::Backward);
  Updates.BackwardOutsideLoops = Measured(true, Update::Backward);
  Updates.Step = Measured(false, Update::OptimizerStep);
  Updates.StepOutsideLoops = Measured(true, Update::OptimizerStep);
  return Updates;
}

std::optional<UpdateElsewhere>
TrainingLoopModel::updateElsewhere(const Stmt *Loop) {
  if (!Summaries || !utils::isLoop(Loop))
    return std::nullopt;
  auto Known = UpdatesElsewhere.find(Loop);
  if (Known != UpdatesElsewhere.end())
    return Known->second;
  std::optional<UpdateElsewhere> Found;
  for (const Stmt *Child : Loop->children()) {
    if (!Child || !utils::runsPerIteration(Loop, Child))
      continue;
    // A backward() or step() written in the loop says why it trains by
    // itself: no note.
    if (updateDistance(Child, /*SkipTrainingLoops=*/true) == 0) {
      Found.reset();
      break;
    }
    if (!Found)
      Found = findUpdateElsewhere(Child);
  }
  UpdatesElsewhere[Loop] = Found;
  return Found;
}

std::optional<UpdateElsewhere>
TrainingLoopModel::findUpdateElsewhere(const Stmt *S) {
  // Where a step loop's update counts: not in a lambda, not in a nested
  // training loop.
  if (!S || isa<LambdaExpr>(S) || (utils::isLoop(S) && isTrainingLoop(S)))
    return std::nullopt;
  if (const auto *Call = dyn_cast<CallExpr>(S)) {
    const bool Backward =
        distanceElsewhere(*Call, true, Update::Backward) < Unreachable;
    const bool Step =
        distanceElsewhere(*Call, true, Update::OptimizerStep) < Unreachable;
    if (Backward || Step)
      return UpdateElsewhere{Call, Backward, Step};
  }
  for (const Stmt *Child : S->children())
    if (std::optional<UpdateElsewhere> Found = findUpdateElsewhere(Child))
      return Found;
  return std::nullopt;
}

} // namespace clang::tidy::libtorch::analysis
