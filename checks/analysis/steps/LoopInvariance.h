//===--- LoopInvariance.h - Values a loop never changes ---------*- C++ -*-===//
//
// Part of libtorch-tidy. SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//
//
// Whether an expression has the same value on every iteration of a loop: it
// names a local variable or a parameter, declared outside the loop, that
// nothing the loop runs can change. In LibTorch code a value changes in more
// ways than by assignment, and each is followed:
// - A tensor is a handle: a copy (`auto t = x;`), a view (`x.view(-1)`,
//   `x.detach()`, `x.to(device)` when x is there already) and a container it
//   was pushed into share x's storage, so a write through any of them writes
//   x. A variable is followed with its aliases in its function: the locals
//   initialized or assigned from it (and those it was initialized from), the
//   containers and objects it is stored in, the references and pointers
//   bound to it. What it is stored into beyond the function's locals (a
//   member, a global, a function of this TU that keeps it) makes it
//   "may change".
// - LibTorch declares in-place operations `const` (`x.add_(y)`,
//   `x.copy_(y)`, `x.requires_grad_()`): on a tensor, a method whose name
//   ends in `_` or starts with `set_` writes it; on any other object a
//   non-const method does. Assignment (plain or compound, built-in or
//   overloaded), `++`/`--` and taking its address write it too.
// - A tensor passed by value or by const reference can still be written in
//   place by the callee. A function of this TU is read (up to
//   CallDepth::LoopInvariance calls deep): its parameter must not change
//   there. A LibTorch or standard function writes only what it binds to a
//   non-const reference or pointer, or anything when its name ends in `_`
//   (`torch::nn::init::normal_`). A module's forward pass (`m(x)`,
//   `m->forward(x)`) is read in the module's `forward()`; LibTorch's own
//   modules do not write their inputs. A function whose body this TU lacks,
//   or a call through a pointer, may write anything it is given.
// - An optimizer changes the tensors it was built with on every `step()`,
//   without naming them: a variable named in the construction of an
//   optimizer or a parameter group (or in `add_param_group`), or one whose
//   gradient is switched on (`requires_grad_()`, `set_requires_grad(true)`,
//   `torch::requires_grad()` in its initializer) counts as changing. A
//   parameter that may hold a tensor may be one the caller gave to an
//   optimizer: it counts as unchanged only when the loop names an optimizer
//   and every optimizer it names is a local variable of the function (built
//   there, from tensors this analysis sees).
// - A lambda anywhere in the function that writes the variable may run in
//   the loop: it counts as a write.
//
// When the answer is not known (a member or a global, a structured binding,
// an alias stored beyond the function, a call we cannot resolve) the answer
// is "may change": the checks that ask stay silent on what they cannot
// prove. `break`, `goto` and exceptions are not modelled (a write in the
// loop counts wherever it is), nor are writes through aliases made by code
// outside the variable's function other than the callees followed above.
//
//===----------------------------------------------------------------------===//

#ifndef LIBTORCH_TIDY_CHECKS_ANALYSIS_STEPS_LOOPINVARIANCE_H
#define LIBTORCH_TIDY_CHECKS_ANALYSIS_STEPS_LOOPINVARIANCE_H

#include "clang/AST/Decl.h"
#include "clang/AST/Expr.h"
#include "clang/AST/Stmt.h"

namespace clang::tidy::libtorch::analysis {

/// \p Variable itself may be written in \p Region: assigned, incremented,
/// its address taken, a mutating method called on it or on a view of it,
/// or passed where the callee may write it (see the file comment). Its
/// aliases are not followed; isLoopInvariant follows them.
bool isWrittenIn(const VarDecl *Variable, const Stmt *Region);

/// \p E, without implicit nodes, parentheses and copies, names a local
/// variable or a parameter declared outside \p Loop (a for, range-for, while
/// or do loop of the variable's function) that no iteration of Loop can
/// change, through the variable or any of its aliases (see the file
/// comment). False when that is not known.
bool isLoopInvariant(const Expr *E, const Stmt *Loop);

} // namespace clang::tidy::libtorch::analysis

#endif // LIBTORCH_TIDY_CHECKS_ANALYSIS_STEPS_LOOPINVARIANCE_H
