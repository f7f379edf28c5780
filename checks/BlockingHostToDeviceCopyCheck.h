//===--- BlockingHostToDeviceCopyCheck.h - libtorch-tidy --------*- C++ -*-===//
//
// Part of libtorch-tidy. SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

#ifndef LIBTORCH_TIDY_CHECKS_BLOCKINGHOSTTODEVICECOPYCHECK_H
#define LIBTORCH_TIDY_CHECKS_BLOCKINGHOSTTODEVICECOPYCHECK_H

#include "LibTorchCheck.h"
#include "analysis/devices/HostStateMembers.h"

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
  /// The block of a loop's body that is the training step (UpdateBlocks.h).
  void noteUpdateBlock(const IfStmt &Block);
  /// The copy moves a member that its class keeps in host memory.
  void diagnoseHostState(const analysis::CopiedMember &State,
                         const MemberExpr &Copy, llvm::StringRef Spelled,
                         const analysis::StepPath &Path,
                         const IfStmt *UpdateBlock);
};

} // namespace clang::tidy::libtorch

#endif // LIBTORCH_TIDY_CHECKS_BLOCKINGHOSTTODEVICECOPYCHECK_H
