//===--- LoopMatchers.h - Matchers for the loops of user code ---*- C++ -*-===//
//
// Part of libtorch-tidy. SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//
//
// Checks that reason about training loops match every loop statement of user
// code. MatchFinder dispatches a matcher only on nodes of the kind it is
// restricted to, and `stmt(anyOf(forStmt(), whileStmt(), ...))` is
// restricted to Stmt: it would be tried on every statement of the
// translation unit, LibTorch's headers included, which in clang-tidy (where
// header bodies are parsed) made each such check cost ~0.8 s of matching on
// one LibTorch unit. One matcher per loop kind is tried on loops only.
//
//===----------------------------------------------------------------------===//

#ifndef LIBTORCH_TIDY_CHECKS_UTILS_LOOPMATCHERS_H
#define LIBTORCH_TIDY_CHECKS_UTILS_LOOPMATCHERS_H

#include "clang/ASTMatchers/ASTMatchFinder.h"

namespace clang::tidy::libtorch::utils {

/// Registers \p Callback for every `for`, range-`for`, `while` and `do`
/// statement outside system headers that also matches \p Constraint, bound
/// to "loop".
void addLoopMatchers(
    ast_matchers::MatchFinder &Finder,
    ast_matchers::MatchFinder::MatchCallback *Callback,
    const ast_matchers::StatementMatcher &Constraint = ast_matchers::stmt());

} // namespace clang::tidy::libtorch::utils

#endif // LIBTORCH_TIDY_CHECKS_UTILS_LOOPMATCHERS_H
