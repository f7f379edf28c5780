//===--- CallerPaths.h - Loops that run a function, via calls --*- C++ -*-===//
//
// Part of libtorch-tidy. SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//
//
// How a statement comes to run on every iteration of a loop when the loop
// reaches it through a chain of calls: the step calls `compute_loss()`,
// which calls `detection_loss()`, which calls a logging helper. The walk is
// TrainingLoopModel::perIteration's (the same periodic guards, the same
// loops, lambdas run where they are called), with these differences:
//
// - It follows up to CallDepth::CallerChain calls (TrainingLoopModel
//   follows CallDepth::TrainingStep).
// - What it learns about a function is kept: a function's callers are
//   walked once per translation unit however many statements in it ask,
//   and a walk that failed for good (not cut short by the depth bound or by
//   recursion) is not repeated.
// - A recursive call (a function reached again while its own callers are
//   being walked) is not followed: "not per iteration" for that chain.
//
// - Constructed with StepEntries::Accepted, a walk that reaches a
//   training-step function that nothing in this TU calls ends there
//   (TrainingLoopModel::isStepEntry): StepPath::StepFunction is that
//   function and StepPath::StepLoop is null.
//
// Only the call sites TrainingLoopModel::callSitesOf indexes are followed
// (CallSiteIndex.h: calls with a callee known statically, and virtual calls
// into the overrides they may run): function pointers, std::function and
// other TUs are not seen.
//
//===----------------------------------------------------------------------===//

#ifndef LIBTORCH_TIDY_CHECKS_ANALYSIS_STEPS_CALLERPATHS_H
#define LIBTORCH_TIDY_CHECKS_ANALYSIS_STEPS_CALLERPATHS_H

#include "analysis/steps/BatchScope.h"
#include "analysis/steps/TrainingLoopModel.h"
#include "analysis/vocabulary/WalkDepths.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/DenseSet.h"
#include <functional>
#include <optional>

namespace clang::tidy::libtorch::analysis {

class CallerPaths {
public:
  using LoopFilter = std::function<bool(const Stmt *Loop)>;

  /// \p IsRepeatedLoop: the loops whose iterations count (step loops, or
  /// step and evaluation loops).
  CallerPaths(TrainingLoopModel &Loops, LoopFilter IsRepeatedLoop,
              StepEntries Entries = StepEntries::Ignored);

  /// How \p S runs on every iteration of the innermost accepted loop
  /// around it, through at most CallDepth::CallerChain calls and without a
  /// periodic guard on the way; nothing if it does not. StepPath::Calls lists
  /// the calls, outermost first.
  std::optional<StepPath> perIteration(const Stmt *S);

  /// How a call of \p Callable (a function or a lambda's call operator)
  /// happens on every iteration: the path ends with that call.
  std::optional<StepPath> callPerIteration(const FunctionDecl *Callable);

private:
  /// \p Depth: calls already walked below \p S. \p CutShort is set when
  /// the answer "nothing" may be due to the depth bound or recursion.
  std::optional<StepPath> walk(const Stmt *S, unsigned Depth, bool &CutShort);
  std::optional<StepPath> viaCallers(const FunctionDecl *Callable,
                                     unsigned Depth, bool &CutShort);

  TrainingLoopModel &Loops;
  LoopFilter IsRepeatedLoop;
  StepEntries Entries;
  /// Per callable (canonical): how a call of it runs per iteration, or
  /// nothing when no chain of callers leads to a loop.
  llvm::DenseMap<const FunctionDecl *, std::optional<StepPath>> Known;
  /// The callables whose callers are being walked.
  llvm::DenseSet<const FunctionDecl *> InProgress;
};

/// BatchScope::perBatch through chains of calls up to CallDepth::CallerChain
/// deep: on every training step or evaluation batch, and not in the data
/// pipeline. One per TU (the memo of CallerPaths lives as long). With
/// StepEntries::Accepted, a training-step function that nothing in this TU
/// calls counts as a step.
class BatchCallPaths {
public:
  BatchCallPaths(BatchScope &Scope, TrainingLoopModel &Loops,
                 StepEntries Entries = StepEntries::Ignored);

  /// How \p S runs on every training step or evaluation batch; nothing when
  /// it runs less often, or in the data pipeline.
  std::optional<StepPath> perBatch(const Stmt *S);

private:
  BatchScope &Scope;
  CallerPaths Callers;
};

} // namespace clang::tidy::libtorch::analysis

#endif // LIBTORCH_TIDY_CHECKS_ANALYSIS_STEPS_CALLERPATHS_H
