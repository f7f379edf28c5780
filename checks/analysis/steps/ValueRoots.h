//===--- ValueRoots.h - What a value may share state with -------*- C++ -*-===//
//
// Part of libtorch-tidy. SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//
//
// In LibTorch code a tensor is a handle: a copy, a view, an element of a
// container it was pushed into and a reference bound to it share its
// storage. The roots of an expression are the local variables and
// parameters whose state it may share, found through views, elements,
// members, pointers and the calls that may return them; anything not
// followed (a member, a global, what a function of this unit returns by
// reference) makes it reach "outer" state. LoopInvariance and FunctionFlows
// build on this.
//
//===----------------------------------------------------------------------===//

#ifndef LIBTORCH_TIDY_CHECKS_ANALYSIS_STEPS_VALUEROOTS_H
#define LIBTORCH_TIDY_CHECKS_ANALYSIS_STEPS_VALUEROOTS_H

#include "clang/AST/Decl.h"
#include "clang/AST/Expr.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/SmallPtrSet.h"
#include "llvm/ADT/SmallVector.h"

namespace clang::tidy::libtorch::analysis {

using VarSet = llvm::SmallPtrSet<const VarDecl *, 8>;

/// What an expression may share state with.
struct Roots {
  /// Local variables and parameters.
  llvm::SmallVector<const VarDecl *, 4> Vars;
  /// Something not followed: a member, a global, what a function of this
  /// TU returns by reference.
  bool Outer = false;

  bool empty() const { return Vars.empty() && !Outer; }
  bool meets(const VarSet &Set) const {
    return llvm::any_of(Vars,
                        [&](const VarDecl *V) { return Set.contains(V); });
  }
  void add(const Roots &Other) {
    Vars.append(Other.Vars.begin(), Other.Vars.end());
    Outer |= Other.Outer;
  }
};

/// What \p E may share state with: the local variables it names whose
/// type can share state (with \p AllLocals, every local it names as an
/// lvalue, whatever its type), through views, elements, members, pointers
/// and the calls that may return them.
Roots rootsOf(const Expr *E, bool AllLocals = false);

/// The object of a member call or member operator call, its type, and the
/// index of the first argument that is no object.
struct CallParts {
  const Expr *Object = nullptr;
  QualType ObjectType;
  unsigned First = 0;
};

CallParts callParts(const CallExpr *Call);

/// The `forward` methods that the module forward call \p Call runs: the
/// method itself for `m->forward(x)`, the contained module's overloads for
/// `m(x)` on a holder (its operator() for a LibTorch module). False when
/// they cannot be told (a user module's templated or inherited forward).
bool forwardsOf(const CallExpr *Call,
                llvm::SmallVectorImpl<const FunctionDecl *> &Found);

/// \p Type holds an optimizer (directly, through a reference, a pointer or
/// a smart pointer).
bool isOptimizer(QualType Type);

/// An optimizer or a parameter group: what a tensor named in its
/// construction is trained by.
bool trainsWhatBuildsIt(QualType Type);

/// A value of \p Type (references looked through) can share state with
/// another: a pointer, anything that may hold a tensor, an optimizer.
/// Numbers, devices and strings are copies.
bool canShare(QualType Type);

/// `requires_grad_()`, `set_requires_grad(...)` or `torch::requires_grad()`
/// anywhere in \p E, unless given a literal `false`.
bool switchesGradientOn(const Expr *E);

} // namespace clang::tidy::libtorch::analysis

#endif // LIBTORCH_TIDY_CHECKS_ANALYSIS_STEPS_VALUEROOTS_H
