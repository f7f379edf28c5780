//===--- AssignedValues.h - Values a local variable is given ----*- C++ -*-===//
//
// Part of libtorch-tidy. SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//
//
// What a local variable may hold when it is assigned after its declaration
// (`state = next_state;` in a loop): the facts that hold for every value it
// is given hold for the variable, as long as nothing else can change it.
//
//===----------------------------------------------------------------------===//

#ifndef LIBTORCH_TIDY_CHECKS_UTILS_ASSIGNEDVALUES_H
#define LIBTORCH_TIDY_CHECKS_UTILS_ASSIGNEDVALUES_H

#include "clang/AST/Decl.h"
#include "clang/AST/Expr.h"
#include "llvm/ADT/SmallVector.h"
#include <optional>

namespace clang::tidy::libtorch::utils {

/// Every value the local variable \p Variable may hold: its initializer
/// first, then the right side of each plain assignment to it in its function
/// (lambdas included). None when it is not a local variable with an
/// initializer, or when it may change some other way we do not follow: its
/// address taken, bound to a mutable reference (an argument of a call that
/// takes `T &`, a reference variable, `std::swap`, `std::tie`), a compound
/// assignment, a non-const or `set_` member call on it, a call we cannot
/// resolve.
std::optional<llvm::SmallVector<const Expr *, 4>>
assignedValues(const VarDecl *Variable);

/// Every element the local `std::vector` \p Vector may hold: those of the
/// braced list it is initialized with, then the value of each `push_back`
/// and `emplace_back` of one argument in its function (lambdas included).
/// None when it starts as anything else (a copy, a size), is assigned as a
/// whole, or may change some other way, by the rules of assignedValues (a
/// range-for over it counts: its elements are bound mutably).
std::optional<llvm::SmallVector<const Expr *, 4>>
elementValues(const VarDecl *Vector);

} // namespace clang::tidy::libtorch::utils

#endif // LIBTORCH_TIDY_CHECKS_UTILS_ASSIGNEDVALUES_H
