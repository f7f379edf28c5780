//===--- References.h - Where a declaration is used -------------*- C++ -*-===//
//
// Part of libtorch-tidy. SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//
//
// The references to a declaration inside a statement, and whether a local
// variable may be given another value there. One traversal for every walk
// that asks: a RecursiveASTVisitor with its defaults (lambda bodies
// visited, template instantiations not: a pattern is read as written), in
// source order. clang-tidy's utils::decl_ref_expr::allDeclRefExprs answers
// the first question too, but as an unordered set, and our walks follow
// the references in order (the first use decides what a check reports).
//
//===----------------------------------------------------------------------===//

#ifndef LIBTORCH_TIDY_CHECKS_UTILS_REFERENCES_H
#define LIBTORCH_TIDY_CHECKS_UTILS_REFERENCES_H

#include "AstWalk.h"
#include "clang/AST/Decl.h"
#include "clang/AST/Expr.h"
#include "clang/Basic/SourceManager.h"
#include <vector>

namespace clang::tidy::libtorch::utils {

/// Every reference to \p D in \p S, in source order.
std::vector<const DeclRefExpr *> referencesTo(const ValueDecl *D,
                                              const Stmt *S);

/// \p S refers to \p D somewhere.
bool mentions(const Stmt *S, const ValueDecl *D);

/// Every local variable or parameter that \p S names is declared before
/// \p Loc: moved to \p Loc, \p S still compiles.
bool localsDeclaredBefore(const Stmt *S, SourceLocation Loc,
                          const SourceManager &SM);

/// \p Variable may be given another value in \p Body: it is the left side
/// of an assignment (plain or compound, built-in or overloaded), or its
/// address is taken (then anyone may change it). The left side is read
/// through the wrappers in \p LeftSide (AstWalk.h). Calls that take it by
/// mutable reference are not seen: utils/AssignedValues.h follows those.
bool isAssignedOrAddressTaken(const VarDecl *Variable, const Stmt *Body,
                              WrapperSet LeftSide = ImplicitWrappers);

} // namespace clang::tidy::libtorch::utils

#endif // LIBTORCH_TIDY_CHECKS_UTILS_REFERENCES_H
