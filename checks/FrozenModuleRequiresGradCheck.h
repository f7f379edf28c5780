//===--- FrozenModuleRequiresGradCheck.h - libtorch-tidy --------*- C++ -*-===//
//
// Part of libtorch-tidy. SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

#ifndef LIBTORCH_TIDY_CHECKS_FROZENMODULEREQUIRESGRADCHECK_H
#define LIBTORCH_TIDY_CHECKS_FROZENMODULEREQUIRESGRADCHECK_H

#include "LibTorchCheck.h"
#include "llvm/ADT/DenseSet.h"

namespace clang::tidy::libtorch {

/// Finds a module run on every training step whose parameters no optimizer
/// of the unit gets and that still records autograd (parameters never
/// frozen, forward not under a no-grad guard): a frozen feature extractor
/// that backward goes through for nothing.
///
/// For the user-facing documentation see:
/// docs/checks/libtorch-frozen-module-requires-grad.md
class FrozenModuleRequiresGradCheck : public LibTorchCheck {
public:
  using LibTorchCheck::LibTorchCheck;
  void registerUserCodeMatchers(ast_matchers::MatchFinder *Finder) override;
  void check(const ast_matchers::MatchFinder::MatchResult &Result) override;

private:
  /// Modules already reported: one finding per module.
  utils::PerUnit<llvm::DenseSet<const ValueDecl *>> Reported{unitScope()};
  bool asksAboutPeriodicGuards() const override { return true; }
};

} // namespace clang::tidy::libtorch

#endif // LIBTORCH_TIDY_CHECKS_FROZENMODULEREQUIRESGRADCHECK_H
