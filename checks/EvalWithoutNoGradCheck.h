//===--- EvalWithoutNoGradCheck.h - libtorch-tidy ----------------*- C++
//-*-===//
//
// Part of libtorch-tidy. SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

#ifndef LIBTORCH_TIDY_CHECKS_EVALWITHOUTNOGRADCHECK_H
#define LIBTORCH_TIDY_CHECKS_EVALWITHOUTNOGRADCHECK_H

#include "LibTorchCheck.h"
#include "llvm/ADT/SmallPtrSet.h"

namespace clang::tidy::libtorch {

/// Finds evaluation loops (a module's forward pass, no backward, after
/// `eval()` or over a data loader) that run with autograd on.
///
/// For the user-facing documentation see:
/// docs/checks/libtorch-eval-without-no-grad.md
class EvalWithoutNoGradCheck : public LibTorchCheck {
public:
  using LibTorchCheck::LibTorchCheck;
  void registerMatchers(ast_matchers::MatchFinder *Finder) override;
  void check(const ast_matchers::MatchFinder::MatchResult &Result) override;
  void onEndOfTranslationUnit() override {
    LibTorchCheck::onEndOfTranslationUnit();
    FixedFunctions.clear();
  }

private:
  /// Function bodies of this TU that already got the guard from a fix-it:
  /// one guard serves all their loops.
  llvm::SmallPtrSet<const Stmt *, 4> FixedFunctions;
};

} // namespace clang::tidy::libtorch

#endif // LIBTORCH_TIDY_CHECKS_EVALWITHOUTNOGRADCHECK_H
