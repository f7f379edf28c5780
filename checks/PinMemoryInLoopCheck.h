//===--- PinMemoryInLoopCheck.h - libtorch-tidy -----------------*- C++ -*-===//
//
// Part of libtorch-tidy. SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

#ifndef LIBTORCH_TIDY_CHECKS_PINMEMORYINLOOPCHECK_H
#define LIBTORCH_TIDY_CHECKS_PINMEMORYINLOOPCHECK_H

#include "LibTorchCheck.h"

namespace clang::tidy::libtorch {

/// Finds `pin_memory()` on the training thread right before a device copy:
/// an extra host copy that makes the transfer slower, not faster.
///
/// For the user-facing documentation see:
/// docs/checks/libtorch-pin-memory-in-loop.md
class PinMemoryInLoopCheck : public LibTorchCheck {
public:
  using LibTorchCheck::LibTorchCheck;
  void registerUserCodeMatchers(ast_matchers::MatchFinder *Finder) override;
  void check(const ast_matchers::MatchFinder::MatchResult &Result) override;

private:
  bool asksAboutPeriodicGuards() const override { return true; }
};

} // namespace clang::tidy::libtorch

#endif // LIBTORCH_TIDY_CHECKS_PINMEMORYINLOOPCHECK_H
