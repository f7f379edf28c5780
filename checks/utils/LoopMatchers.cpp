//===--- LoopMatchers.cpp - Matchers for the loops of user code -----------===//
//
// Part of libtorch-tidy. SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

#include "utils/LoopMatchers.h"

using namespace clang::ast_matchers;

namespace clang::tidy::libtorch::utils {

void addLoopMatchers(MatchFinder &Finder, MatchFinder::MatchCallback *Callback,
                     const StatementMatcher &Constraint) {
  const auto InUserCode = unless(isExpansionInSystemHeader());
  Finder.addMatcher(forStmt(InUserCode, Constraint).bind("loop"), Callback);
  Finder.addMatcher(cxxForRangeStmt(InUserCode, Constraint).bind("loop"),
                    Callback);
  Finder.addMatcher(whileStmt(InUserCode, Constraint).bind("loop"), Callback);
  Finder.addMatcher(doStmt(InUserCode, Constraint).bind("loop"), Callback);
}

} // namespace clang::tidy::libtorch::utils
