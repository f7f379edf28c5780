//===--- EvalModeNotRestoredCheck.h - libtorch-tidy -------------*- C++ -*-===//
//
// Part of libtorch-tidy. SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

#ifndef LIBTORCH_TIDY_CHECKS_EVALMODENOTRESTOREDCHECK_H
#define LIBTORCH_TIDY_CHECKS_EVALMODENOTRESTOREDCHECK_H

#include "LibTorchCheck.h"
#include "llvm/ADT/DenseSet.h"

namespace clang::tidy::libtorch {

/// Finds `model->eval()` in an epoch loop (inline or in a function the loop
/// calls) whose later iterations train the same model again with no
/// `model->train()` in between: dropout and batch norm stay in eval mode
/// for the rest of training.
///
/// For the user-facing documentation see:
/// docs/checks/libtorch-eval-mode-not-restored.md
class EvalModeNotRestoredCheck : public LibTorchCheck {
public:
  using LibTorchCheck::LibTorchCheck;
  void registerUserCodeMatchers(ast_matchers::MatchFinder *Finder) override;
  void check(const ast_matchers::MatchFinder::MatchResult &Result) override;

private:
  /// (loop, training forward) pairs already reported: two evaluations in
  /// one epoch are one finding.
  utils::PerUnit<llvm::DenseSet<std::pair<const Stmt *, const Expr *>>>
      Reported{unitScope()};
  /// Loop bodies that already got the train() fix-it.
  utils::PerUnit<llvm::DenseSet<const Stmt *>> Fixed{unitScope()};
};

} // namespace clang::tidy::libtorch

#endif // LIBTORCH_TIDY_CHECKS_EVALMODENOTRESTOREDCHECK_H
