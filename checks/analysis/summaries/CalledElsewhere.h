//===--- CalledElsewhere.h - Calls summaries answer for ---------*- C++ -*-===//
//
// Part of libtorch-tidy. SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//
//
// Which functions a unit asks summaries about: the project's functions it
// calls without holding their bodies, named by USR, Clang's name for a
// declaration that is the same in every unit that declares it.
//
//===----------------------------------------------------------------------===//

#ifndef LIBTORCH_TIDY_CHECKS_ANALYSIS_SUMMARIES_CALLEDELSEWHERE_H
#define LIBTORCH_TIDY_CHECKS_ANALYSIS_SUMMARIES_CALLEDELSEWHERE_H

#include "clang/AST/ASTContext.h"
#include "clang/AST/Expr.h"
#include <string>
#include <vector>

namespace clang::tidy::libtorch::analysis {

/// Clang's USR of \p D; empty when it has none.
std::string usrOf(const Decl *D);

/// The function \p Call calls when its body is elsewhere: a direct callee
/// this unit holds no body of, and not a virtual one (another override may
/// run). What a summary can answer for; null otherwise.
const FunctionDecl *calleeDefinedElsewhere(const CallExpr &Call);

/// The USRs of the project's functions that the unit's user code calls and
/// whose bodies it does not hold, sorted: the functions whose summaries
/// the checks may ask for (SummaryTable::waitOfCall, and the training-loop
/// model's SummaryTable::updatesOf), so the only ones
/// whose answers a cached result of the unit depends on. Every such call
/// is counted, in a loop or not: more than the checks ask, never fewer.
std::vector<std::string> functionsCalledElsewhere(ASTContext &Context);

} // namespace clang::tidy::libtorch::analysis

#endif // LIBTORCH_TIDY_CHECKS_ANALYSIS_SUMMARIES_CALLEDELSEWHERE_H
