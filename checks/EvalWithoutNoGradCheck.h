//===--- EvalWithoutNoGradCheck.h - libtorch-tidy ---------------*- C++ -*-===//
//
// Part of libtorch-tidy. SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

#ifndef LIBTORCH_TIDY_CHECKS_EVALWITHOUTNOGRADCHECK_H
#define LIBTORCH_TIDY_CHECKS_EVALWITHOUTNOGRADCHECK_H

#include "LibTorchCheck.h"
#include "clang/AST/ExprCXX.h"
#include "clang/Basic/SourceLocation.h"
#include "llvm/ADT/DenseSet.h"

namespace clang::tidy::libtorch {

/// Finds evaluation loops (a module's forward pass, no backward, after
/// `eval()` or over a data loader) that run with autograd on, evaluation
/// functions without a loop of their own that a training loop calls with
/// autograd on, and forward passes that a training loop runs every few
/// steps for outputs no backward pass uses.
///
/// For the user-facing documentation see:
/// docs/checks/libtorch-eval-without-no-grad.md
class EvalWithoutNoGradCheck : public LibTorchCheck {
public:
  using LibTorchCheck::LibTorchCheck;
  void registerUserCodeMatchers(ast_matchers::MatchFinder *Finder) override;
  void check(const ast_matchers::MatchFinder::MatchResult &Result) override;

private:
  /// Reports the periodic passes of the training loop \p Loop.
  void checkPeriodicPasses(const Stmt *Loop, ASTContext &Context);
  /// Reports the function around \p Eval when it evaluates without a loop
  /// of its own (analysis::evaluationPass).
  void checkEvaluationFunction(const CXXMemberCallExpr &Eval,
                               ASTContext &Context);
  /// Adds to \p Diag the insertion of a guard as the first statement of the
  /// block \p At, unless that block already got one.
  void insertGuard(DiagnosticBuilder &Diag, const Stmt *At,
                   ASTContext &Context);

  /// Where the blocks of this TU that already got the guard from a fix-it
  /// begin: one guard serves all their loops (and all instantiations of a
  /// template, which share the template's locations).
  utils::PerUnit<llvm::DenseSet<SourceLocation>> FixedBlocks{unitScope()};
  /// Loops and periodic blocks already reported, by location: one of a
  /// function template is reported once, as written, whichever
  /// instantiation shows it evaluates.
  utils::PerUnit<llvm::DenseSet<SourceLocation>> Reported{unitScope()};
  bool asksAboutPeriodicGuards() const override { return true; }
};

} // namespace clang::tidy::libtorch

#endif // LIBTORCH_TIDY_CHECKS_EVALWITHOUTNOGRADCHECK_H
