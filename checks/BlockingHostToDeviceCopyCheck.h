//===--- BlockingHostToDeviceCopyCheck.h - libtorch-tidy --------*- C++ -*-===//
//
// Part of libtorch-tidy. SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

#ifndef LIBTORCH_TIDY_CHECKS_BLOCKINGHOSTTODEVICECOPYCHECK_H
#define LIBTORCH_TIDY_CHECKS_BLOCKINGHOSTTODEVICECOPYCHECK_H

#include "LibTorchCheck.h"

namespace clang::tidy::libtorch {

/// Finds copies to a (maybe-)CUDA device in a training step that do not ask
/// for `non_blocking`: the training thread waits for each transfer.
///
/// For the user-facing documentation see:
/// docs/checks/libtorch-blocking-host-to-device-copy.md
class BlockingHostToDeviceCopyCheck : public LibTorchCheck {
public:
  using LibTorchCheck::LibTorchCheck;
  void registerUserCodeMatchers(ast_matchers::MatchFinder *Finder) override;
  void check(const ast_matchers::MatchFinder::MatchResult &Result) override;

private:
  bool asksAboutPeriodicGuards() const override { return true; }
};

} // namespace clang::tidy::libtorch

#endif // LIBTORCH_TIDY_CHECKS_BLOCKINGHOSTTODEVICECOPYCHECK_H
