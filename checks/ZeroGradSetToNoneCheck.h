//===--- ZeroGradSetToNoneCheck.h - libtorch-tidy ---------------*- C++ -*-===//
//
// Part of libtorch-tidy. SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

#ifndef LIBTORCH_TIDY_CHECKS_ZEROGRADSETTONONECHECK_H
#define LIBTORCH_TIDY_CHECKS_ZEROGRADSETTONONECHECK_H

#include "LibTorchCheck.h"

namespace clang::tidy::libtorch {

/// Finds `zero_grad` calls in training code that write zeros into every
/// gradient instead of resetting them (`set_to_none`). Version-aware: it
/// reads which LibTorch it sees from the declarations themselves (1.13's
/// `Optimizer::zero_grad()` has no parameter; `Module::zero_grad`'s default
/// is `false` in 1.13 and `true` from 2.0).
///
/// For the user-facing documentation see:
/// docs/checks/libtorch-zero-grad-set-to-none.md
class ZeroGradSetToNoneCheck : public LibTorchCheck {
public:
  using LibTorchCheck::LibTorchCheck;
  void registerUserCodeMatchers(ast_matchers::MatchFinder *Finder) override;
  void check(const ast_matchers::MatchFinder::MatchResult &Result) override;

private:
  bool asksAboutPeriodicGuards() const override { return true; }
};

} // namespace clang::tidy::libtorch

#endif // LIBTORCH_TIDY_CHECKS_ZEROGRADSETTONONECHECK_H
