//===--- AccumulationWindow.h - Accumulation windows across epochs -===//
//
// Part of libtorch-tidy. SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//
//
// Gradient accumulation guards `step()` with a micro-step counter
// (`if (++global_step % accum == 0) { step(); zero_grad(); }`). When the
// counter is declared outside the epoch loop and never reset in it, a
// window spans the epoch boundary; a `zero_grad()` the epoch loop runs
// outside its batch loop then discards the last incomplete window of each
// epoch.
//
// What is read, and why we stay silent otherwise:
// - the counter is the one variable (local, parameter or member) named left
//   of the guard's first `%`, advanced in the step loop; an expression of
//   several variables (`(epoch * n + i) % accum`) is not judged;
// - the epoch loop is the innermost loop around the step loop in the same
//   function body, and it must be a training loop; an epoch loop that calls
//   a `train_epoch()` holding the step loop is not followed;
// - a counter declared inside the epoch loop, or written there outside the
//   step loop (`global_step = 0;`), restarts per epoch;
// - a `step()` in the epoch loop outside the step loop is taken as the
//   epoch-end flush of the partial window (`if (n % accum != 0) step();`);
// - a step loop `for (int b = 0; b < K; ++b)` with K and the count N both
//   constants and K % N == 0 has no partial window; a batch count from a
//   data loader is never known, so it is not an exemption;
// - only a `zero_grad()` written in the epoch loop's body (not in a helper,
//   not under a condition) counts.
//
//===----------------------------------------------------------------------===//

#ifndef LIBTORCH_TIDY_CHECKS_ANALYSIS_GRADIENTS_ACCUMULATIONWINDOW_H
#define LIBTORCH_TIDY_CHECKS_ANALYSIS_GRADIENTS_ACCUMULATIONWINDOW_H

#include "analysis/gradients/GradientOrder.h"
#include "analysis/steps/TrainingLoopModel.h"
#include "clang/AST/ASTContext.h"
#include "clang/AST/Decl.h"
#include "clang/AST/Stmt.h"
#include <optional>

namespace clang::tidy::libtorch::analysis {

/// An accumulation window that runs across the epoch boundary.
struct CrossEpochWindow {
  /// The loop around the step loop, one iteration per epoch.
  const Stmt *EpochLoop = nullptr;
  /// The micro-step counter of the guard.
  const ValueDecl *Counter = nullptr;
  /// The `zero_grad()` the epoch loop runs outside the step loop.
  const Expr *EpochZeroGrad = nullptr;
};

/// The one variable or member left of the first `%` in \p Condition
/// (`++global_step % accum == 0`), or null.
const ValueDecl *accumulationCounter(const Expr *Condition);

/// Whether the body of \p Loop holds a training loop of its own (written in
/// it, not reached through a call): \p Loop is then an epoch loop, and a
/// guarded `step()` in it flushes the inner loop's partial window.
bool holdsTrainingLoop(const Stmt *Loop, TrainingLoopModel &Loops);

/// The window of the `step()` under \p Guard in \p StepLoop when it spans
/// epochs and the epoch loop zeroes the gradients (see the file comment).
std::optional<CrossEpochWindow> crossEpochWindow(const Stmt *StepLoop,
                                                 const IfStmt *Guard,
                                                 ASTContext &Context,
                                                 TrainingLoopModel &Loops);

/// The `zero_grad()` that empties the window right before its last
/// backward pass: in one iteration of \p Events (ordered, in the loop body)
/// it comes before a backward() that runs on every micro-batch, and that
/// backward() before \p Step, and the zero_grad()'s periodic guard has the
/// same condition as the step's (`if ((i + 1) % N == 0)` on both): on the
/// iteration that steps, it discards the N - 1 gradients accumulated before
/// and the step applies one micro-batch's. `if (i % N == 0) zero_grad();`
/// (the window's first micro-batch) is right and not returned. Null when
/// there is none.
const GradEvent *zeroGradBeforeLastBackward(llvm::ArrayRef<GradEvent> Events,
                                            const GradEvent &Step,
                                            ASTContext &Context);

} // namespace clang::tidy::libtorch::analysis

#endif // LIBTORCH_TIDY_CHECKS_ANALYSIS_GRADIENTS_ACCUMULATIONWINDOW_H
