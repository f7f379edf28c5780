//===--- StatementRemoval.h - Deleting a call statement ---------*- C++ -*-===//
//
// Part of libtorch-tidy. SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

#ifndef LIBTORCH_TIDY_CHECKS_UTILS_STATEMENTREMOVAL_H
#define LIBTORCH_TIDY_CHECKS_UTILS_STATEMENTREMOVAL_H

#include "utils/UserCode.h"
#include "clang/AST/ASTContext.h"
#include "clang/AST/Expr.h"
#include "clang/Basic/Diagnostic.h"
#include <optional>

namespace clang::tidy::libtorch::utils {

/// The fix-it that deletes the statement \p Call (with its `;`, and its line
/// when it stands alone on it), or nothing when deleting it would not leave
/// valid code we can write: a call inside a larger expression, or in a macro
/// expansion. As the sole body of an `if`, `else` or loop it becomes `{}`.
std::optional<FixItHint> statementRemoval(const CallExpr *Call,
                                          ASTContext &Context,
                                          const UserCodeParents &Index);

} // namespace clang::tidy::libtorch::utils

#endif // LIBTORCH_TIDY_CHECKS_UTILS_STATEMENTREMOVAL_H
