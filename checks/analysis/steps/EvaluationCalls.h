//===--- EvaluationCalls.h - Evaluation functions without a loop -===//
//
// Part of libtorch-tidy. SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//
//
// Not every evaluation holds its loop: `evaluate(net, val_x, val_y)` puts
// the model in eval mode and runs one forward pass over the held-out set,
// and the epoch loop of another function calls it. The loop that repeats
// the evaluation is the caller's; whether autograd is off depends on the
// guards along the calls from that loop down to the forward pass.
//
//===----------------------------------------------------------------------===//

#ifndef LIBTORCH_TIDY_CHECKS_ANALYSIS_STEPS_EVALUATIONCALLS_H
#define LIBTORCH_TIDY_CHECKS_ANALYSIS_STEPS_EVALUATIONCALLS_H

#include "analysis/steps/TrainingLoopModel.h"
#include "clang/AST/ExprCXX.h"
#include "llvm/ADT/SmallVector.h"
#include <optional>

namespace clang::tidy::libtorch::analysis {

/// A chain of calls, outermost first, from a call in a training loop down
/// to a call of \p Callable, through at most CallDepth::CallerChain calls,
/// with no no-grad guard alive at any call of the chain
/// (isCoveredByNoGradGuard) and no caller on it that sets the grad mode
/// itself. Chains through recursion are not followed. Nothing when every
/// chain from a training loop passes a guard, or no training loop of this
/// TU calls \p Callable.
std::optional<llvm::SmallVector<const CallExpr *, 4>>
unguardedCallFromTrainingLoop(const FunctionDecl *Callable,
                              TrainingLoopModel &Loops, ASTContext &Context);

/// A function that evaluates without a loop of its own.
struct EvaluationPass {
  /// The first forward pass of the function, after the eval() call.
  const CallExpr *Forward = nullptr;
  /// The `eval()` call before it in the function.
  const CXXMemberCallExpr *Eval = nullptr;
  /// The calls from a training loop down to the function, outermost first,
  /// none under a guard (unguardedCallFromTrainingLoop).
  llvm::SmallVector<const CallExpr *, 4> Calls;
};

/// \p Function (not a lambda, not a module's method, not a template as
/// written) evaluates a model when it
/// - calls `eval()` on a module and then runs a module's forward pass in
///   its own body, outside any loop or lambda, with no guard alive there;
/// - trains nothing (itself or in the functions of this TU it calls), sets
///   no grad mode, runs no forward pass in a loop of its own (that loop is
///   an evaluation loop, judged as such), and keeps its tensors to itself:
///   it returns nothing that may hold a tensor and writes none into its
///   parameters, members or globals (the outputs cannot feed a backward
///   pass);
/// - is not run on every training step (inside a step, a forward pass is
///   part of the step);
/// - and a training loop reaches a call of it with no guard on the way.
std::optional<EvaluationPass> evaluationPass(const FunctionDecl *Function,
                                             TrainingLoopModel &Loops,
                                             ASTContext &Context);

} // namespace clang::tidy::libtorch::analysis

#endif // LIBTORCH_TIDY_CHECKS_ANALYSIS_STEPS_EVALUATIONCALLS_H
