//===--- GradientOrder.h - Gradient calls of one step loop ------*- C++ -*-===//
//
// Part of libtorch-tidy. SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//
//
// The gradient events of one step loop, in the order one iteration runs
// them: zeroing (`Optimizer::zero_grad`, `Module::zero_grad`), other resets
// (`p.grad().zero_()`, `p.mutable_grad().reset()`, assigning to
// `p.mutable_grad()`), backward passes and optimizer steps.
//
// The ordering is the source order of the loop body's statements. For
// straight-line code in one iteration that is the execution order; the model
// marks what it cannot order instead of guessing:
// - an event under a conditional (if/switch/?:) that is not a periodic guard,
//   in a nested loop, or in a lambda is `Unordered`: it may run zero, one or
//   many times, or later (a closure passed to step()), so checks must not
//   use its position;
// - an event reached through a function of this TU called in the body
//   (up to CallDepth::TrainingStep) is placed at that call (`Via`);
// - `break`, `continue`, `return`, `goto` and exceptions are not modelled:
//   code after them is assumed to run.
// A CFG-based ordering (clang-tidy's utils::ExprSequence) answers "is A
// sequenced before B" for one evaluation, but it does not say whether both
// run in the same iteration or under which guard, which is what the
// accumulation patterns need; the guard is recorded here explicitly.
//
//===----------------------------------------------------------------------===//

#ifndef LIBTORCH_TIDY_CHECKS_ANALYSIS_GRADIENTS_GRADIENTORDER_H
#define LIBTORCH_TIDY_CHECKS_ANALYSIS_GRADIENTS_GRADIENTORDER_H

#include "analysis/steps/TrainingLoopModel.h"
#include "clang/AST/ASTContext.h"
#include "clang/AST/Stmt.h"
#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/SmallVector.h"
#include <initializer_list>

namespace clang::tidy::libtorch::analysis {

enum class GradEventKind {
  ZeroGrad,  ///< Optimizer::zero_grad / Module::zero_grad
  GradReset, ///< p.grad().zero_(), p.mutable_grad().reset(), ...
  Backward,  ///< Tensor::backward, torch::autograd::backward
  Step,      ///< Optimizer::step
};

struct GradEvent {
  GradEventKind Kind;
  /// The call itself (in the loop body, or in the helper reached via Via).
  const Expr *Call = nullptr;
  /// The call in the loop body that reaches Call through a helper; null
  /// when Call is written in the loop body.
  const CallExpr *Via = nullptr;
  /// The innermost periodic guard (`if (i % N == 0)`, a modulo condition
  /// the training-loop model calls periodic) between the loop and the event,
  /// or null. Other guards (`if (verbose)`, `if (i == 0)`) make the event
  /// Unordered.
  const IfStmt *PeriodicGuard = nullptr;
  /// Under a non-periodic conditional, in a nested loop or in a lambda:
  /// whether and when it runs is unknown.
  bool Unordered = false;
};

/// The right operand of the first `%` in \p Condition (the N of
/// `(i + 1) % N == 0`), or null when it has no modulo.
const Expr *accumulationCount(const Expr *Condition);

/// `zero_grad` on a torch::optim::Optimizer or torch::nn::Module.
bool isZeroGradCall(const Expr *E);
/// A reset of one gradient: `zero_()`/`fill_()`/`reset()`/`detach_()` on
/// (or assignment to) `grad()` / `mutable_grad()`.
bool isGradResetCall(const Expr *E);

/// The events of \p StepLoop's body, in order (see the file comment).
llvm::SmallVector<GradEvent, 8> gradientEvents(const Stmt *StepLoop,
                                               ASTContext &Context,
                                               TrainingLoopModel &Loops);

/// \p Event is written in the loop body and one iteration runs it in
/// order: neither reached through a call (`Via`) nor `Unordered`.
bool isOrdered(const GradEvent &Event);

/// Where the optimizer steps of one loop's events stand, and whether the
/// loop resets and computes gradients at all.
struct StepPlacement {
  /// The first `step()` written in the loop body, ordered or not.
  const GradEvent *FirstDirectStep = nullptr;
  /// The first ordered `step()` under a periodic guard with a modulo (an
  /// accumulation window: `if ((i + 1) % N == 0)`).
  const GradEvent *GuardedStep = nullptr;
  /// The first ordered `step()` under no periodic guard.
  const GradEvent *UnguardedStep = nullptr;
  /// A `zero_grad()` or a reset of one gradient, anywhere in the events.
  bool AnyReset = false;
  /// A backward pass, anywhere in the events.
  bool AnyBackward = false;
};
StepPlacement placeSteps(llvm::ArrayRef<GradEvent> Events);

/// Whether one of \p Events of \p Kinds runs under \p Guard (null: under
/// no periodic guard).
bool runsUnderGuard(llvm::ArrayRef<GradEvent> Events,
                    std::initializer_list<GradEventKind> Kinds,
                    const IfStmt *Guard);

/// The ordered `zero_grad()` calls of \p Events that run after a
/// `backward()` and before a `step()` of the same iteration, under the same
/// guard as both: the step applies zero gradients. Only the closest
/// `backward()` or `step()` before the `zero_grad()` counts: in
/// `zero_grad(); backward(); step();` written twice in one iteration (two
/// optimizers of a GAN, or an unrolled or macro-generated step), the
/// second `zero_grad()` follows a `step()` and is correct.
llvm::SmallVector<const GradEvent *, 2>
zeroGradsBetweenBackwardAndStep(llvm::ArrayRef<GradEvent> Events,
                                const SourceManager &SM);

} // namespace clang::tidy::libtorch::analysis

#endif // LIBTORCH_TIDY_CHECKS_ANALYSIS_GRADIENTS_GRADIENTORDER_H
