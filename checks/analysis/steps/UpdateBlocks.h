//===--- UpdateBlocks.h - Periodic blocks that run the update ---*- C++ -*-===//
//
// Part of libtorch-tidy. SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//
//
// Off-policy reinforcement learning steps its environment on every
// iteration and trains every few: `if (t > warmup && t % 4 == 0) { auto b =
// buffer.sample(64); ...; loss.backward(); optimizer.step(); }`. The
// periodic guard makes what it holds run less often than the loop, yet
// the block is the training step itself: what it runs (the sampler and
// the copies in it) runs once per parameter update. TrainingLoopModel
// stops at the guard ("not per step"); updateBlockPath() looks past a
// guard whose block holds the update.
//
//===----------------------------------------------------------------------===//

#ifndef LIBTORCH_TIDY_CHECKS_ANALYSIS_STEPS_UPDATEBLOCKS_H
#define LIBTORCH_TIDY_CHECKS_ANALYSIS_STEPS_UPDATEBLOCKS_H

#include "analysis/steps/TrainingLoopModel.h"
#include <optional>

namespace clang::tidy::libtorch::analysis {

/// How \p S runs once per training step inside a periodic block of a loop:
/// walking up from \p S (and from the calls of its function, through at
/// most CallDepth::TrainingStep calls, any call site will do), the
/// first periodic guard met is an `if` whose then-branch reaches a backward
/// pass or optimizer step (itself or through the functions of this TU it
/// calls) with no training loop of its own, and a loop holds that `if`.
/// No loop or lambda may come between \p S and the guard. StepPath::StepLoop
/// is the loop around the guard, StepPath::Calls the calls down to \p S;
/// \p Guard is set to the `if`. Nothing when \p S runs less often than the
/// update, or the first guard does not hold one.
std::optional<StepPath> updateBlockPath(const Stmt *S, TrainingLoopModel &Loops,
                                        const IfStmt *&Guard);

} // namespace clang::tidy::libtorch::analysis

#endif // LIBTORCH_TIDY_CHECKS_ANALYSIS_STEPS_UPDATEBLOCKS_H
