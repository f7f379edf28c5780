//===--- DataloaderEnforceOrderingCheck.h - libtorch-tidy -------*- C++ -*-===//
//
// Part of libtorch-tidy. SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

#ifndef LIBTORCH_TIDY_CHECKS_DATALOADERENFORCEORDERINGCHECK_H
#define LIBTORCH_TIDY_CHECKS_DATALOADERENFORCEORDERINGCHECK_H

#include "LibTorchCheck.h"

namespace clang::tidy::libtorch {

/// Finds data loaders with worker threads that still deliver batches in
/// order (`enforce_ordering` defaults to true), so one slow batch holds back
/// those behind it.
///
/// For the user-facing documentation see:
/// docs/checks/libtorch-dataloader-enforce-ordering.md
class DataloaderEnforceOrderingCheck : public LibTorchCheck {
public:
  using LibTorchCheck::LibTorchCheck;
  void registerUserCodeMatchers(ast_matchers::MatchFinder *Finder) override;
  void check(const ast_matchers::MatchFinder::MatchResult &Result) override;
};

} // namespace clang::tidy::libtorch

#endif // LIBTORCH_TIDY_CHECKS_DATALOADERENFORCEORDERINGCHECK_H
