//===--- DataParallelCheck.h - libtorch-tidy --------------------*- C++ -*-===//
//
// Part of libtorch-tidy. SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

#ifndef LIBTORCH_TIDY_CHECKS_DATAPARALLELCHECK_H
#define LIBTORCH_TIDY_CHECKS_DATAPARALLELCHECK_H

#include "LibTorchCheck.h"

namespace clang::tidy::libtorch {

/// Finds `torch::nn::parallel::data_parallel` called on every training step:
/// it replicates the module to every device on every call. Note only.
///
/// For the user-facing documentation see:
/// docs/checks/libtorch-data-parallel.md
class DataParallelCheck : public LibTorchCheck {
public:
  using LibTorchCheck::LibTorchCheck;
  void registerUserCodeMatchers(ast_matchers::MatchFinder *Finder) override;
  void check(const ast_matchers::MatchFinder::MatchResult &Result) override;

private:
  bool asksAboutPeriodicGuards() const override { return true; }
};

} // namespace clang::tidy::libtorch

#endif // LIBTORCH_TIDY_CHECKS_DATAPARALLELCHECK_H
