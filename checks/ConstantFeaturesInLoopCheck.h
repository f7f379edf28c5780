//===--- ConstantFeaturesInLoopCheck.h - libtorch-tidy ----------*- C++ -*-===//
//
// Part of libtorch-tidy. SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

#ifndef LIBTORCH_TIDY_CHECKS_CONSTANTFEATURESINLOOPCHECK_H
#define LIBTORCH_TIDY_CHECKS_CONSTANTFEATURESINLOOPCHECK_H

#include "LibTorchCheck.h"
#include "llvm/ADT/DenseSet.h"

namespace clang::tidy::libtorch {

/// Finds a forward pass run on every training step by a module that no
/// optimizer of the unit trains, on inputs that no iteration of the step
/// loop changes: a style image's features, recomputed on every step with
/// the same result.
///
/// For the user-facing documentation see:
/// docs/checks/libtorch-constant-features-in-loop.md
class ConstantFeaturesInLoopCheck : public LibTorchCheck {
public:
  using LibTorchCheck::LibTorchCheck;
  void registerUserCodeMatchers(ast_matchers::MatchFinder *Finder) override;
  void check(const ast_matchers::MatchFinder::MatchResult &Result) override;

private:
  /// Forward calls already reported: one finding per call.
  utils::PerUnit<llvm::DenseSet<const Expr *>> Reported{unitScope()};
  bool asksAboutPeriodicGuards() const override { return true; }
};

} // namespace clang::tidy::libtorch

#endif // LIBTORCH_TIDY_CHECKS_CONSTANTFEATURESINLOOPCHECK_H
