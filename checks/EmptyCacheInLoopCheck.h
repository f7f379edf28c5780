//===--- EmptyCacheInLoopCheck.h - libtorch-tidy ----------------*- C++ -*-===//
//
// Part of libtorch-tidy. SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

#ifndef LIBTORCH_TIDY_CHECKS_EMPTYCACHEINLOOPCHECK_H
#define LIBTORCH_TIDY_CHECKS_EMPTYCACHEINLOOPCHECK_H

#include "LibTorchCheck.h"

namespace clang::tidy::libtorch {

/// Finds `c10::cuda::CUDACachingAllocator::emptyCache()` run on every
/// training step: the next step allocates the memory again with cudaMalloc,
/// which synchronizes the device.
///
/// For the user-facing documentation see:
/// docs/checks/libtorch-empty-cache-in-loop.md
class EmptyCacheInLoopCheck : public LibTorchCheck {
public:
  using LibTorchCheck::LibTorchCheck;
  void registerUserCodeMatchers(ast_matchers::MatchFinder *Finder) override;
  void check(const ast_matchers::MatchFinder::MatchResult &Result) override;

private:
  bool asksAboutPeriodicGuards() const override { return true; }
};

} // namespace clang::tidy::libtorch

#endif // LIBTORCH_TIDY_CHECKS_EMPTYCACHEINLOOPCHECK_H
