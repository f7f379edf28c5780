//===--- OuterWrites.h - Tensors a piece of code hands outward --*- C++ -*-===//
//
// Part of libtorch-tidy. SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//
//
// A forward pass whose outputs stay inside a block (or a lambda) cannot feed
// a backward pass outside it. These predicates answer whether a type can
// carry a tensor (and so an autograd graph), and whether a block writes such
// a value into something declared outside it: an assignment, an in-place
// tensor operation, `push_back` into a container, an argument bound to a
// non-const reference, a `return`.
//
// When the answer is not known (a dependent type, type-erased storage, an
// lvalue returned by a call) they answer "may hold", "writes": the checks
// that ask stay silent on what they cannot prove.
//
//===----------------------------------------------------------------------===//

#ifndef LIBTORCH_TIDY_CHECKS_ANALYSIS_STEPS_OUTERWRITES_H
#define LIBTORCH_TIDY_CHECKS_ANALYSIS_STEPS_OUTERWRITES_H

#include "clang/AST/Stmt.h"
#include "clang/AST/Type.h"

namespace clang::tidy::libtorch::analysis {

/// A value of \p Type can hold a tensor: a tensor, a module, a container or
/// class with one among its fields, bases or template arguments, a pointer
/// to one, `void *` storage (std::any, std::function), a dependent type.
/// Numbers, strings, streams and classes of those cannot.
bool mayHoldTensors(QualType Type);

/// The first statement or expression of \p Region that writes a value that
/// may hold tensors into a variable or member declared outside Region (or
/// returns one); null when Region keeps all its tensors to itself.
const Stmt *findOuterTensorWrite(const Stmt *Region);

/// A non-const lvalue reference or pointer parameter: what the callee may
/// write through; a null type for any other parameter.
QualType writableTarget(QualType Parameter);

} // namespace clang::tidy::libtorch::analysis

#endif // LIBTORCH_TIDY_CHECKS_ANALYSIS_STEPS_OUTERWRITES_H
