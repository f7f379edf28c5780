//===--- CallArguments.h - Which parameter an argument is given -*- C++ -*-===//
//
// Part of libtorch-tidy. SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//
//
// The mapping between the arguments of a call and the parameters of its
// callee. A call of a member operator (`a + b` with a member operator+, a
// functor or a lambda called as `f(x)`) lists its object as argument 0,
// which no parameter declares; every other call lists its arguments in
// parameter order. This is the rule clang's forEachArgumentWithParam
// matcher follows, for code that is not a matcher. A C++23 static member
// operator counts as a member operator: where a call of it lists its object
// (as argument 0 of a CXXOperatorCallExpr), that object is no parameter's
// argument either. Clang 16 builds `f(x)` on a static operator() as a plain
// call of the member, without the object: its arguments are its parameters'.
//
//===----------------------------------------------------------------------===//

#ifndef LIBTORCH_TIDY_CHECKS_UTILS_CALLARGUMENTS_H
#define LIBTORCH_TIDY_CHECKS_UTILS_CALLARGUMENTS_H

#include "clang/AST/Decl.h"
#include "clang/AST/Expr.h"
#include "clang/AST/ExprCXX.h"
#include "llvm/ADT/STLFunctionalExtras.h"
#include <optional>

namespace clang::tidy::libtorch::utils {

/// How many of \p Call's arguments come before its parameters' arguments:
/// 1 for an operator call of a member operator, static or not (its object),
/// else 0.
unsigned objectArgumentCount(const CallExpr *Call);

/// The parameter that argument \p Index of \p Call is given to; null for
/// the object of a member operator, an argument of a variadic `...`, or
/// a call without a known callee.
const ParmVarDecl *parameterOfArgument(const CallExpr *Call, unsigned Index);
const ParmVarDecl *parameterOfArgument(const CXXConstructExpr *Construct,
                                       unsigned Index);

/// The parameter that \p Arg, one of the arguments of \p Call (a call or a
/// construction), is given to; null as above, or when \p Arg is none of
/// them.
const ParmVarDecl *parameterOfArgument(const Expr *Call, const Expr *Arg);

/// The argument given for parameter \p Index of \p Call's callee (a
/// CXXDefaultArgExpr when it is left out); null when there is none.
const Expr *argumentOfParameter(const CallExpr *Call, unsigned Index);

/// The value of an argument that is a `true` / `false` literal (through
/// parentheses and implicit nodes: a default argument's literal counts when
/// given its CXXDefaultArgExpr's expression), or nothing.
std::optional<bool> literalBool(const Expr *Argument);

/// A parameter (or variable) of type \p Type lets the callee change or take
/// what it is bound to: a pointer to non-const, an lvalue reference to
/// non-const, any rvalue reference (it may be moved from).
bool bindsMutably(QualType Type);

/// The first call in \p Body of a function \p Callee accepts that is given
/// \p Variable itself (implicit nodes, copies and casts looked through) as its
/// argument \p Index; null when there is none.
const CallExpr *
callGivenVariable(const VarDecl *Variable, unsigned Index, const Stmt *Body,
                  llvm::function_ref<bool(const FunctionDecl &)> Callee);

} // namespace clang::tidy::libtorch::utils

#endif // LIBTORCH_TIDY_CHECKS_UTILS_CALLARGUMENTS_H
