//===--- BlockingHostToDeviceCopyCheck.h - libtorch-tidy --------*- C++ -*-===//
//
// Part of libtorch-tidy. SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

#ifndef LIBTORCH_TIDY_CHECKS_BLOCKINGHOSTTODEVICECOPYCHECK_H
#define LIBTORCH_TIDY_CHECKS_BLOCKINGHOSTTODEVICECOPYCHECK_H

#include "LibTorchCheck.h"
#include "analysis/devices/HostStateMembers.h"
#include <optional>
#include <string>

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
  /// A copy to a (maybe) CUDA device that blocks: `cuda()`, or `to()` of a
  /// device with `non_blocking` left false.
  struct BlockingCopy {
    const CXXMemberCallExpr *Copy = nullptr;
    const MemberExpr *Member = nullptr;
    bool IsCuda = false;
    /// For `to()`: the device, and the non_blocking argument and its
    /// parameter's position.
    const Expr *Destination = nullptr;
    const Expr *NonBlocking = nullptr;
    std::optional<unsigned> Position;
  };
  static std::optional<BlockingCopy>
  blockingCopyToGpu(const CXXMemberCallExpr &Copy, ASTContext &Context);
  /// What the copy moves is another check's finding, or nothing.
  bool isOtherFinding(const Expr *Source, ASTContext &Context);
  void handle(const BlockingCopy &Blocking, ASTContext &Context);
  void diagnose(const BlockingCopy &Blocking, const analysis::StepPath &Path,
                const IfStmt *UpdateBlock, ASTContext &Context);
  /// The copy as written: `cuda()`, `to(device)`.
  std::string spelled(const BlockingCopy &Blocking,
                      const ASTContext &Context) const;
  /// Makes the copy non-blocking, where the code can be rewritten.
  std::optional<FixItHint> nonBlockingFix(const BlockingCopy &Blocking,
                                          ASTContext &Context) const;
  /// A host widening right before the copy (HostDtypes.h).
  void noteWideConversion(const BlockingCopy &Blocking, ASTContext &Context);
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
