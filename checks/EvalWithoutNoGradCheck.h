//===--- EvalWithoutNoGradCheck.h - libtorch-tidy ---------------*- C++ -*-===//
//
// Part of libtorch-tidy. SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

#ifndef LIBTORCH_TIDY_CHECKS_EVALWITHOUTNOGRADCHECK_H
#define LIBTORCH_TIDY_CHECKS_EVALWITHOUTNOGRADCHECK_H

#include "LibTorchCheck.h"
#include "analysis/steps/EvaluationFacts.h"
#include "clang/AST/ExprCXX.h"
#include "clang/Basic/SourceLocation.h"
#include "llvm/ADT/DenseSet.h"
#include <optional>

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
  /// A loop that evaluates without a guard, and what the report says of it.
  struct EvaluationLoop {
    const Stmt *Loop = nullptr;
    const FunctionDecl *Function = nullptr;
    /// The body judged: the function's, or a lambda's called by name.
    const Stmt *Judged = nullptr;
    analysis::BodyFacts Body;
    /// The last mode switch before the loop, here or before a call of the
    /// function; AfterEval when it is an eval().
    const CXXMemberCallExpr *ModeCall = nullptr;
    bool AfterEval = false;
    bool InLambda = false;
    /// A call of the function in a training loop, for a note.
    const CallExpr *TrainingCaller = nullptr;
  };

  /// \p Loop, not a training loop, when it evaluates: it runs the model
  /// after eval() or over a data loader, with no guard here or around a
  /// call, and nothing it computes may feed a backward.
  std::optional<EvaluationLoop> evaluationLoop(const Stmt *Loop,
                                               ASTContext &Context);
  /// The eval() before a call among \p Callers, in a function that
  /// switches no mode itself.
  static const CXXMemberCallExpr *
  evalCallBeforeCallers(llvm::ArrayRef<const CallExpr *> Callers,
                        analysis::TrainingFacts &TU, const SourceManager &SM);
  /// Reports \p Evaluation, with the guard's fix-it.
  void diagnoseEvaluationLoop(const EvaluationLoop &Evaluation,
                              ASTContext &Context);
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
