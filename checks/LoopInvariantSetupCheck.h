//===--- LoopInvariantSetupCheck.h - libtorch-tidy --------------*- C++ -*-===//
//
// Part of libtorch-tidy. SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

#ifndef LIBTORCH_TIDY_CHECKS_LOOPINVARIANTSETUPCHECK_H
#define LIBTORCH_TIDY_CHECKS_LOOPINVARIANTSETUPCHECK_H

#include "LibTorchCheck.h"

namespace clang::tidy::libtorch {

/// Finds setup work in a training step that belongs before the loop:
/// `Module::to`, optimizer construction, `make_data_loader`, `torch::load`
/// of a model or optimizer, `at::globalContext().set...()`.
///
/// For the user-facing documentation see:
/// docs/checks/libtorch-loop-invariant-setup.md
class LoopInvariantSetupCheck : public LibTorchCheck {
public:
  using LibTorchCheck::LibTorchCheck;
  void registerUserCodeMatchers(ast_matchers::MatchFinder *Finder) override;
  void check(const ast_matchers::MatchFinder::MatchResult &Result) override;

private:
  bool asksAboutPeriodicGuards() const override { return true; }
};

} // namespace clang::tidy::libtorch

#endif // LIBTORCH_TIDY_CHECKS_LOOPINVARIANTSETUPCHECK_H
