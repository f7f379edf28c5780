//===--- FunctionFlows.h - State flowing between variables ------*- C++ -*-===//
//
// Part of libtorch-tidy. SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//
//
// What one function does with its variables, gathered in one walk of its
// body, for LoopInvariance to grow a variable's aliases from: the flows
// that make two values share state (an initialization, an assignment, a
// push_back, an out-parameter), the arguments given to calls that may keep
// them, the variables an optimizer is built from or whose gradients are
// switched on, and the lambdas that may run anywhere in it.
//
//===----------------------------------------------------------------------===//

#ifndef LIBTORCH_TIDY_CHECKS_ANALYSIS_STEPS_FUNCTIONFLOWS_H
#define LIBTORCH_TIDY_CHECKS_ANALYSIS_STEPS_FUNCTIONFLOWS_H

#include "analysis/steps/ValueRoots.h"
#include "clang/AST/Decl.h"
#include "clang/AST/Stmt.h"
#include "llvm/ADT/SmallVector.h"
#include <vector>

namespace clang::tidy::libtorch::analysis {

/// State may go from the sources to the targets, or back: after it, they
/// share it.
struct Flow {
  Roots Targets;
  Roots Sources;
};

/// An argument given to a function that may keep it.
struct Passed {
  const CallExpr *Call;
  unsigned Index;
  Roots Argument;
};

/// What one function does with its variables, for the aliases of any of
/// them.
struct FunctionFacts {
  std::vector<Flow> Flows;
  std::vector<Passed> Passes;
  /// Named in an optimizer's construction, or with gradients switched on.
  Roots Trained;
  llvm::SmallVector<const Stmt *, 4> LambdaBodies;
};

FunctionFacts collectFacts(const FunctionDecl *Function);

/// The function whose local \p Variable is, if it has a body.
const FunctionDecl *functionOf(const VarDecl *Variable);

} // namespace clang::tidy::libtorch::analysis

#endif // LIBTORCH_TIDY_CHECKS_ANALYSIS_STEPS_FUNCTIONFLOWS_H
