//===--- GradModeFacts.h - Where autograd is switched off -------*- C++ -*-===//
//
// Part of libtorch-tidy. SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//
//
// Evaluation code should run without autograd. These predicates answer
// whether a statement runs under a guard that turns it off, and whether a
// call runs a module's forward pass.
//
// A *no-grad guard* is a local variable of type `c10::NoGradGuard` (spelled
// `torch::NoGradGuard`, `at::NoGradGuard`), `c10::AutoGradMode` constructed
// with `false`, or `c10::InferenceMode` (`torch::InferenceMode`,
// `torch::autograd::InferenceMode`) not constructed with `false`. It covers
// the statements that follow it in its block and in the blocks nested in
// it: a guard in a block that has ended covers nothing after that block.
//
//===----------------------------------------------------------------------===//

#ifndef LIBTORCH_TIDY_CHECKS_ANALYSIS_VOCABULARY_GRADMODEFACTS_H
#define LIBTORCH_TIDY_CHECKS_ANALYSIS_VOCABULARY_GRADMODEFACTS_H

#include "analysis/vocabulary/LibTorchCalls.h"
#include "utils/UserCode.h"
#include "clang/AST/ASTContext.h"
#include "clang/AST/Decl.h"
#include "clang/AST/Stmt.h"

namespace clang::tidy::libtorch::analysis {

/// \p Variable is a guard that switches autograd off for its scope.
bool isNoGradGuard(const VarDecl *Variable, const ASTContext &Context);

/// \p S holds, anywhere inside it, the declaration of a no-grad guard.
bool holdsNoGradGuard(const Stmt *S, const ASTContext &Context);

/// A no-grad guard declared before \p S in a block that encloses it (up to
/// the enclosing function, through lambdas) is still alive when S runs.
bool isCoveredByNoGradGuard(const Stmt *S, ASTContext &Context,
                            const utils::UserCodeParents &Index);

} // namespace clang::tidy::libtorch::analysis

#endif // LIBTORCH_TIDY_CHECKS_ANALYSIS_VOCABULARY_GRADMODEFACTS_H
