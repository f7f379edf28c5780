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
//===----------------------------------------------------------------------===//

#ifndef LIBTORCH_TIDY_CHECKS_ANALYSIS_EVALUATIONFACTS_H
#define LIBTORCH_TIDY_CHECKS_ANALYSIS_EVALUATIONFACTS_H

#include "TrainingLoopModel.h"
#include "UserCode.h"
#include "clang/AST/ExprCXX.h"
#include "llvm/ADT/SmallVector.h"

namespace clang::tidy::libtorch::analysis {

/// The loops around \p S, innermost first, up to the function or lambda
/// that holds it; \p Body is set to that function's or lambda's body, and
/// \p InLambda says which.
llvm::SmallVector<const Stmt *, 4>
enclosingLoops(const Stmt *S, const UserCodeParents &UserParents,
               const Stmt *&Body, bool &InLambda);

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
/// TrainingLoopModel::MaxCallDepth deep (\p Depth: calls already followed).
BodyFacts bodyFacts(const Stmt *Body, TrainingLoopModel &Loops,
                    unsigned Depth = 0);

/// The loop's body calls a module's forward outside any loop or lambda of
/// its own: it is the loop that runs the model.
bool runsModel(const Stmt *Loop, const UserCodeParents &UserParents);

} // namespace clang::tidy::libtorch::analysis

#endif // LIBTORCH_TIDY_CHECKS_ANALYSIS_EVALUATIONFACTS_H
