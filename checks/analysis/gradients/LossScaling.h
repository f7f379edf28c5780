//===--- LossScaling.h - Whether a loss is scaled ---------------*- C++ -*-===//
//
// Part of libtorch-tidy. SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//
//
// Gradient accumulation over N micro-batches sums N gradients; dividing the
// loss by N (or multiplying by 1/N) keeps their scale. These predicates say
// whether the value passed to backward() is visibly scaled, or provably not.
//
//===----------------------------------------------------------------------===//

#ifndef LIBTORCH_TIDY_CHECKS_ANALYSIS_GRADIENTS_LOSSSCALING_H
#define LIBTORCH_TIDY_CHECKS_ANALYSIS_GRADIENTS_LOSSSCALING_H

#include "analysis/gradients/GradientOrder.h"
#include "clang/AST/ASTContext.h"
#include "clang/AST/Decl.h"
#include "clang/AST/Expr.h"
#include "clang/AST/ExprCXX.h"

namespace clang::tidy::libtorch::analysis {

/// True when the loss expression is visibly scaled: its outermost operation
/// is a division or multiplication (`loss / accum`, `loss * scale`,
/// `loss.div(n)`).
bool isScaledLoss(const Expr *E);

/// True when the value \p Loss passed to backward is provably unscaled:
/// an unscaled call, or a local variable of \p Function whose every value
/// (its initializer, each assignment to it) is an unscaled call we can see,
/// never scaled in place (`loss.div_(n)`) nor given away by address.
bool isProvablyUnscaledLoss(const Expr *Loss, const FunctionDecl *Function);

/// The optimizer \p Step (`optimizer.step()`) runs already makes up for a
/// loss summed over \p Count micro-batches: it normalizes the gradient's
/// scale (Adam, AdamW, Adagrad, RMSprop: the sum changes the update only
/// through epsilon), or its learning rate is divided by \p Count where the
/// optimizer is built (`SGDOptions(lr / accum)`, directly or through a
/// local set to it). An optimizer whose declaration we cannot see (a
/// reference to the base class) does not.
bool stepCompensatesForSum(const CXXMemberCallExpr *Step, const Expr *Count,
                           ASTContext &Context);

/// The backward passes of \p Events that run on every micro-batch (in
/// order, under no periodic guard) on a loss that isProvablyUnscaledLoss in
/// \p Function. `torch::autograd::backward({...})` is not read.
llvm::SmallVector<const CXXMemberCallExpr *, 2>
unscaledBackwards(llvm::ArrayRef<GradEvent> Events,
                  const FunctionDecl *Function);

} // namespace clang::tidy::libtorch::analysis

#endif // LIBTORCH_TIDY_CHECKS_ANALYSIS_GRADIENTS_LOSSSCALING_H
