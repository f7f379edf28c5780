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
//   (up to TrainingLoopModel::MaxCallDepth) is placed at that call (`Via`);
// - `break`, `continue`, `return`, `goto` and exceptions are not modelled:
//   code after them is assumed to run.
// A CFG-based ordering (clang-tidy's utils::ExprSequence) answers "is A
// sequenced before B" for one evaluation, but it does not say whether both
// run in the same iteration or under which guard, which is what the
// accumulation patterns need; the guard is recorded here explicitly.
//
//===----------------------------------------------------------------------===//

#ifndef LIBTORCH_TIDY_CHECKS_ANALYSIS_GRADIENTORDER_H
#define LIBTORCH_TIDY_CHECKS_ANALYSIS_GRADIENTORDER_H

#include "TrainingLoopModel.h"
#include "clang/AST/ASTContext.h"
#include "clang/AST/Stmt.h"
#include "llvm/ADT/SmallVector.h"

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

} // namespace clang::tidy::libtorch::analysis

#endif // LIBTORCH_TIDY_CHECKS_ANALYSIS_GRADIENTORDER_H
