//===--- SyncRemedies.h - How to stop waiting for the GPU -------*- C++ -*-===//
//
// Part of libtorch-tidy. SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//
//
// The remedy libtorch-host-sync-in-loop suggests for each kind of wait
// (HostSyncOperations.h), as the text of a note.
//
//===----------------------------------------------------------------------===//

#ifndef LIBTORCH_TIDY_CHECKS_ANALYSIS_DEVICES_SYNCREMEDIES_H
#define LIBTORCH_TIDY_CHECKS_ANALYSIS_DEVICES_SYNCREMEDIES_H

#include "analysis/devices/HostSyncOperations.h"
#include "llvm/ADT/StringRef.h"

namespace clang::tidy::libtorch::analysis {

/// The remedy for \p Sync, which waits on every training step (\p PerStep)
/// or evaluation batch, in a branch's condition or not (\p InCondition),
/// for a value read that a host container collects (\p Collected) or not.
/// A diagnostic's format string: `%%` stands for `%`, and it takes no
/// arguments.
llvm::StringRef syncRemedy(const HostSync &Sync, bool PerStep, bool InCondition,
                           bool Collected = false);

} // namespace clang::tidy::libtorch::analysis

#endif // LIBTORCH_TIDY_CHECKS_ANALYSIS_DEVICES_SYNCREMEDIES_H
