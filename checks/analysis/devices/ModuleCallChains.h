//===--- ModuleCallChains.h - Which module call feeds which -----*- C++ -*-===//
//
// Part of libtorch-tidy. SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//
//
// A module's output that goes straight into a batch norm
// (libtorch-conv-bias-before-batchnorm): the module a holder expression
// names, every call of it, and the batch norm that consumes one call's
// output, directly or through a local variable.
//
//===----------------------------------------------------------------------===//

#ifndef LIBTORCH_TIDY_CHECKS_ANALYSIS_DEVICES_MODULECALLCHAINS_H
#define LIBTORCH_TIDY_CHECKS_ANALYSIS_DEVICES_MODULECALLCHAINS_H

#include "analysis/vocabulary/ConvolutionModules.h"
#include "utils/UserCode.h"
#include "llvm/ADT/SmallVector.h"
#include <optional>

namespace clang::tidy::libtorch::analysis {

/// The declaration a module holder expression names: a local variable or a
/// member of a module class.
const ValueDecl *holderDecl(const Expr *Holder);

/// The batch norm that consumes the output of the module call \p Call
/// directly: `bn(conv(x))`, or `x = conv(x); x = bn(x);` /
/// `auto y = conv(x); auto z = bn(y);` with `y` used nowhere else after.
const Expr *consumingBatchNorm(const Expr *Call,
                               const utils::UserCodeParents &UserParents);

/// Every call of the module that \p Holder names (in the function of a local,
/// in the methods of a member's class), or nothing when we cannot tell.
std::optional<llvm::SmallVector<const Expr *, 4>>
callsOfHolder(const ValueDecl *Holder, const Expr *Call,
              const utils::UserCodeParents &UserParents);

/// Every mention of \p Module in \p Loop names the module of a forward
/// pass: nothing in the loop loads it, moves it, switches its mode or hands
/// it to code that may change its weights. For a member, no method of the
/// class is called on `this` in the loop either (it may update the member
/// unseen, as a mean teacher's EMA update does).
bool onlyRunsForwardIn(const ValueDecl *Module, const Stmt *Loop);

/// The inputs of the forward call \p Forward: the arguments after the
/// holder of `m(x)`, every argument of `m->forward(x)`.
llvm::ArrayRef<const Expr *> forwardInputs(const CallExpr *Forward);

} // namespace clang::tidy::libtorch::analysis

#endif // LIBTORCH_TIDY_CHECKS_ANALYSIS_DEVICES_MODULECALLCHAINS_H
