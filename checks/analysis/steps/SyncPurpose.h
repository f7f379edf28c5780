//===--- SyncPurpose.h - Host waits that are the point ----------*- C++ -*-===//
//
// Part of libtorch-tidy. SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//
//
// Some host waits in an evaluation loop are what the code is for, and no
// rewrite removes them (libtorch-host-sync-in-loop stays silent):
//
// - a latency measurement: `torch::cuda::synchronize()` followed, later in
//   the same block, by a clock read (a call of a function named `now`, as
//   the std::chrono clocks spell it). Without the wait the clock measures
//   the kernel launches, not the batch.
// - an early exit: a value read on the host decides a branch that leaves
//   the loop (`if (token.item<int64_t>() == eos) break;`, greedy decoding
//   of one sample at a time), or is the loop's own condition, directly or
//   through a local it initializes. The host has to know whether to go on.
// - results taken to the host: a copy (`cpu()`, `to(torch::kCPU)`) whose
//   tensor is handed as it is to a function of the project or of a library
//   other than LibTorch and the standard library, directly or through a
//   local every use of which does so: predicted ids decoded into text, an image
//   written to a file, detections drawn. A copy reduced further on the host
//   (`out.cpu().sum()`) is not: that could have run on the device. And a
//   function of another unit whose every wait is such a copy
//   (SummaryTable::onlyCopiesToHost).
//
//===----------------------------------------------------------------------===//

#ifndef LIBTORCH_TIDY_CHECKS_ANALYSIS_STEPS_SYNCPURPOSE_H
#define LIBTORCH_TIDY_CHECKS_ANALYSIS_STEPS_SYNCPURPOSE_H

#include "analysis/devices/HostSyncOperations.h"
#include "analysis/steps/TrainingLoopModel.h"
#include "utils/UserCode.h"
#include "clang/AST/Expr.h"
#include "clang/AST/Stmt.h"

namespace clang::tidy::libtorch::analysis {

/// A statement after the one holding \p Sync, in the same block, reads a
/// clock (calls a function named `now`).
bool measuresLatency(const Expr *Sync, const utils::UserCodeParents &Parents);

/// \p Read is in the condition of \p Loop, or of an `if` without `else`
/// whose then-branch is `break` or `return` (alone or last in its block)
/// and whose innermost enclosing loop (or switch) is \p Loop; or \p Read
/// initializes a local that such an `if` of \p Loop's body tests
/// (`const auto id = t.item<int64_t>(); if (id == eos) break;`).
bool endsLoopEarly(const Expr *Read, const Stmt *Loop,
                   const utils::UserCodeParents &Parents);

/// \p Copy, a copy of a tensor to the host, hands its result as it is to
/// functions outside LibTorch (see the file comment).
bool handsResultToHost(const Expr *Copy, const utils::UserCodeParents &Parents);

/// \p Sync, reached on each evaluation batch through \p Path, is the point
/// of the code: a synchronize that measuresLatency, a scalar or bool
/// read that endsLoopEarly (only one written in the loop itself: the exit
/// of a function it calls leaves that function, not the loop), or a copy
/// to the host that handsResultToHost.
bool isWaitWithPurpose(const HostSync &Sync, const StepPath &Path,
                       const utils::UserCodeParents &Parents);

} // namespace clang::tidy::libtorch::analysis

#endif // LIBTORCH_TIDY_CHECKS_ANALYSIS_STEPS_SYNCPURPOSE_H
