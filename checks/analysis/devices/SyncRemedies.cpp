//===--- SyncRemedies.cpp - How to stop waiting for the GPU ---------------===//
//
// Part of libtorch-tidy. SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

#include "analysis/devices/SyncRemedies.h"

namespace clang::tidy::libtorch::analysis {

llvm::StringRef syncRemedy(const HostSync &Sync, bool PerStep, bool InCondition,
                           bool Collected) {
  switch (Sync.Kind) {
  case SyncKind::ReadScalar:
  case SyncKind::HostBool:
    if (InCondition)
      return "decide on the host only every N steps, under 'if (step %% N "
             "== 0)', or keep the decision on the device (torch::where)";
    [[fallthrough]];
  case SyncKind::CopyToHost:
    if (Collected)
      return "collect the values on the device instead ('torch::stack' or "
             "'torch::cat' of the tensors) and copy them to the host once, "
             "after the loop, with one '.cpu()'";
    [[fallthrough]];
  case SyncKind::Print:
  case SyncKind::HostMemory:
    if (PerStep)
      return "accumulate on the device ('running_loss += loss.detach();') and "
             "read it every N steps under 'if (step %% N == 0)'";
    return "accumulate on the device ('correct += pred.eq(target).sum();') "
           "and read it once, after the loop";
  case SyncKind::DynamicShape:
    return "keep shapes fixed: use mask arithmetic or 'torch::where(mask, "
           "a, b)' instead";
  case SyncKind::SizedOnHost:
    if (llvm::StringRef(Sync.Name).contains("bincount"))
      return "count on the device with a known size: "
             "'torch::zeros({num_bins}, options).index_add_(0, values, "
             "torch::ones_like(values))'";
    if (llvm::StringRef(Sync.Name).contains("histc"))
      return "give 'min' and 'max'";
    return "give 'output_size'";
  case SyncKind::Synchronize:
    return "remove it; synchronize only around timing code, every N steps";
  case SyncKind::Listed:
    return "its body is not in this translation unit; call it every N steps, "
           "under 'if (step %% N == 0)', or once after the loop";
  case SyncKind::Elsewhere:
    return "call it every N steps, under 'if (step %% N == 0)', or once after "
           "the loop; or make it keep its values on the device";
  case SyncKind::HiddenRead:
    return "clip on the device: compute the total norm as a tensor and scale "
           "each gradient by '(max_norm / (total_norm + 1e-6)).clamp_max(1.0)'";
  }
  llvm_unreachable("every kind has a remedy");
}

} // namespace clang::tidy::libtorch::analysis
