//===--- HostStateMembers.h - Tensor members kept in host memory -===//
//
// Part of libtorch-tidy. SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//
//
// State that a class keeps in host memory and copies to the device on every
// call: a running normalizer's statistics, a detector's anchors, a loss's
// class weights, made with a host factory when the object is built and
// copied by the class's own member function (`mean_.to(x.device())`) on each
// step that calls it. The copy moves the same bytes every time; kept on the
// device, the member needs none.
//
// A member counts when
// - it is a tensor member of the class whose member function copies it,
//   named through `this` (written or implicit);
// - every value the class gives it when built is made in host memory: its
//   default member initializer, the constructors' member initializers and
//   assignments in the constructors' bodies are host factory calls
//   (`torch::zeros({4})`, a helper that returns one), at least one of them;
// - nothing else gives it another tensor: no assignment outside the
//   constructors, no address taken, no non-const reference or pointer
//   bound to it, and it is never registered (`register_buffer`,
//   `register_parameter`): a registered tensor moves with `module->to()`.
// In-place updates (`mean_.mul_(0.9).add_(batch_mean)`) keep it where it is
// and do not matter.
//
// Two kinds of members a copy to the device moves nothing from, once the
// program set them up: a module's own tensors, registered with it, which
// its `to()` moves; and members that their class moves to the device
// itself (`offsets_ = offsets_.to(device)` in a method of its own). Whether
// that method ran before the copy is not known here; precision decides.
//
//===----------------------------------------------------------------------===//

#ifndef LIBTORCH_TIDY_CHECKS_ANALYSIS_DEVICES_HOSTSTATEMEMBERS_H
#define LIBTORCH_TIDY_CHECKS_ANALYSIS_DEVICES_HOSTSTATEMEMBERS_H

#include "utils/UserCode.h"
#include "clang/AST/ASTContext.h"
#include "clang/AST/Decl.h"
#include "clang/AST/Expr.h"
#include <optional>

namespace clang::tidy::libtorch::analysis {

/// What the class's code makes of a tensor member that one of its member
/// functions copies to the device.
struct CopiedMember {
  enum class Verdict {
    /// Not a tensor member named through `this`, or nothing proven.
    Unknown,
    /// Registered with its module class (`register_buffer`,
    /// `register_parameter`) and never replaced: the module's `to()` moves
    /// it, so a copy of it to the module's device moves nothing.
    ModuleOwn,
    /// Moved to the device by its class (`offsets_ = offsets_.to(device)`
    /// in a member function), replaced no other way: once that ran, a copy
    /// of it moves nothing.
    MovedByItsClass,
    /// Kept in host memory by its class (see the file comment).
    KeptInHostMemory,
  };
  Verdict What = Verdict::Unknown;
  /// The tensor member.
  const FieldDecl *Member = nullptr;
  /// For KeptInHostMemory: the host factory call that makes it (the first
  /// one written).
  const Expr *MadeBy = nullptr;
};

/// The verdict on \p CopySource, the object of a copy to the device, from
/// one walk over the uses of the member.
CopiedMember copiedMember(const Expr *CopySource, ASTContext &Context,
                          const utils::UserCodeParents &Parents);

} // namespace clang::tidy::libtorch::analysis

#endif // LIBTORCH_TIDY_CHECKS_ANALYSIS_DEVICES_HOSTSTATEMEMBERS_H
