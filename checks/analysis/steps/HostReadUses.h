//===--- HostReadUses.h - What a value read on the host is for -*- C++ -*-===//
//
// Part of libtorch-tidy. SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//
//
// Where a value that a host read (`item()`, `cpu()`) brings back goes, when
// that changes how to stop waiting. Evaluation helpers read per element:
// greedy decoding pushes each token's id into a vector, post-processing
// reads each box's score and corners from the model's output in a loop
// over the boxes. Accumulating on the device, the remedy for a running
// total, does not fit either:
//
// - a value *collected* into a host container is better collected on the
//   device (`torch::stack`, `torch::cat`) and copied once, after the loop;
// - an element of a tensor that an inner loop does not write is better
//   read from one host copy of the tensor, made before that loop;
// - any other read in an inner loop (greedy NMS reading the best box left
//   on each pass) is better run on host copies of the loop's inputs, or
//   on the device.
//
//===----------------------------------------------------------------------===//

#ifndef LIBTORCH_TIDY_CHECKS_ANALYSIS_STEPS_HOSTREADUSES_H
#define LIBTORCH_TIDY_CHECKS_ANALYSIS_STEPS_HOSTREADUSES_H

#include "analysis/devices/HostSyncOperations.h"
#include "utils/UserCode.h"
#include "clang/AST/Decl.h"
#include "clang/AST/Stmt.h"

namespace clang::tidy::libtorch::analysis {

struct HostReadUse {
  enum class Kind {
    Other,
    /// An argument of a host container's `push_back` / `emplace_back` /
    /// `insert` / `push_front` / `emplace`, directly or inside the braces
    /// or constructor of the element (`ids.push_back(next.item<int64_t>())`).
    Collected,
    /// An element (`[i]`, `select`, `index`, `narrow`, `slice`) of a
    /// tensor variable declared before the inner loop (the innermost loop
    /// around the read, inside the read's function and other than
    /// \p RepeatedLoop) and not written in it (isWrittenIn):
    /// `out[i][2].item<float>()` in a loop over boxes.
    ElementOfUnchanged,
    /// Any other read in an inner loop.
    InInnerLoop,
  };
  Kind Use = Kind::Other;
  /// ElementOfUnchanged: the tensor's variable.
  const VarDecl *Tensor = nullptr;
};

/// How the value \p Sync reads is used. \p RepeatedLoop: the step or
/// evaluation loop that runs the read per batch (an element read in it
/// happens once per batch, and is not ElementOfUnchanged).
HostReadUse hostReadUse(const HostSync &Sync, const Stmt *RepeatedLoop,
                        const utils::UserCodeParents &Parents,
                        const SourceManager &SM);

} // namespace clang::tidy::libtorch::analysis

#endif // LIBTORCH_TIDY_CHECKS_ANALYSIS_STEPS_HOSTREADUSES_H
