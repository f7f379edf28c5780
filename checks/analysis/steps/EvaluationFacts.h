//===--- EvaluationFacts.h - What an evaluation loop does -------*- C++ -*-===//
//
// Part of libtorch-tidy. SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//
//
// A loop that runs a model without training it, with autograd on, records
// graphs nobody uses (libtorch-eval-without-no-grad). What decides it: the
// loops around the loop, whether its body runs the model itself, and what
// the function around it does (trains, calls code we cannot see, sets the
// grad mode, switches modules to eval()).
//
// Not every evaluation is a loop of its own: a training loop that samples
// from its generator every N steps (`if (step % 200 == 0) { auto images =
// generator->forward(noise); ... }`) runs a *periodic pass*, whose outputs
// stay in the guarded block and never reach a backward pass.
//
//===----------------------------------------------------------------------===//

#ifndef LIBTORCH_TIDY_CHECKS_ANALYSIS_STEPS_EVALUATIONFACTS_H
#define LIBTORCH_TIDY_CHECKS_ANALYSIS_STEPS_EVALUATIONFACTS_H

#include "analysis/steps/TrainingLoopModel.h"
#include "utils/UserCode.h"
#include "clang/AST/ExprCXX.h"
#include "llvm/ADT/SmallVector.h"

namespace clang::tidy::libtorch::analysis {

/// The loops around \p S, innermost first, up to the function or lambda
/// that holds it; \p Body is set to that function's or lambda's body, and
/// \p InLambda says which.
llvm::SmallVector<const Stmt *, 4>
enclosingLoops(const Stmt *S, const utils::UserCodeParents &UserParents,
               const Stmt *&Body, bool &InLambda);

/// A loop around \p Call in its function is a training loop (the walk
/// passes declarations: `auto [loss, acc] = test(model, loader);`).
bool isInTrainingLoop(const CallExpr *Call,
                      const utils::UserCodeParents &UserParents,
                      TrainingLoopModel &Loops);

/// The calls of \p Function, and of its instantiations if it is a
/// template.
llvm::SmallVector<const CallExpr *, 4> callersOf(const FunctionDecl *Function,
                                                 TrainingLoopModel &Loops);

/// What a function body does that matters here.
struct BodyFacts {
  /// Calls a backward pass or optimizer step or holds a training loop,
  /// itself or in a function of this TU that it calls (a few calls deep).
  bool Trains = false;
  /// Calls a user function whose body this TU does not have: it may train.
  bool CallsUnseen = false;
  /// Names `backward` / `step` on a type that is not known yet (template
  /// code): it may train, we cannot tell.
  bool MayTrain = false;
  /// Turns gradients off by `GradMode::set_enabled(false)` or similar.
  bool SetsGradMode = false;
  /// Declares a variable named `no_grad`: the fix-it would clash with it.
  bool HasNoGradName = false;
  /// Backward passes and optimizer steps called directly, in source order.
  llvm::SmallVector<const CallExpr *, 4> Updates;
  /// `eval()` / `train()` calls on modules, in source order.
  llvm::SmallVector<const CXXMemberCallExpr *, 4> ModeCalls;
};

/// What \p Body does, following calls into functions of this TU up to
/// CallDepth::TrainingStep deep (\p Depth: calls already followed).
BodyFacts bodyFacts(const Stmt *Body, TrainingLoopModel &Loops,
                    unsigned Depth = 0);

/// The loop's body calls a module's forward outside any loop or lambda of
/// its own: it is the loop that runs the model.
bool runsModel(const Stmt *Loop, const utils::UserCodeParents &UserParents);

/// Whether \p Loop, in \p Body of a function that trains, walks held-out
/// data after the training: it iterates a data loader held by a local
/// variable that no training loop of \p Body iterates and no call of \p Body
/// is given (a training function of this or another unit could walk it), and
/// it starts after every training loop of \p Body has ended.
bool walksHeldOutLoader(const Stmt *Loop, const Stmt *Body,
                        TrainingLoopModel &Loops, const SourceManager &SM);

/// The last `eval()` / `train()` call of \p Facts before \p S, or null.
const CXXMemberCallExpr *lastModeCallBefore(const BodyFacts &Facts,
                                            const Stmt *S,
                                            const SourceManager &SM);

/// A call of `eval()` (not `train()`) on a module.
bool isEvalCall(const CXXMemberCallExpr *ModeCall);

/// A forward pass that a training loop runs every few iterations only, for
/// outputs that no backward pass can see.
struct PeriodicPass {
  /// The then-branch of the periodic `if` that holds the forward pass.
  const Stmt *Block = nullptr;
  /// The first forward pass of the block.
  const CallExpr *Forward = nullptr;
};

/// The periodic passes of the training loop \p Loop: forward passes in its
/// own body (not in a loop or lambda of their own) in the then-branch of an
/// `if` with a periodic condition (TrainingLoopModel::isPeriodicCondition),
/// where that branch reaches no backward pass or optimizer step (itself or
/// through the functions of this TU it calls), sets no grad mode, and writes
/// no tensor into anything declared outside it (findOuterTensorWrite). One
/// per block.
llvm::SmallVector<PeriodicPass, 2> periodicPasses(const Stmt *Loop,
                                                  TrainingLoopModel &Loops);

} // namespace clang::tidy::libtorch::analysis

#endif // LIBTORCH_TIDY_CHECKS_ANALYSIS_STEPS_EVALUATIONFACTS_H
