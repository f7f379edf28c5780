//===--- RunStatistics.h - Suppression counts, check profiles ---*- C++ -*-===//
//
// Part of libtorch-tidy. SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//
//
// The text clang-tidy prints about a run besides its diagnostics, summed
// over the units of a RunResult: how many warnings NOLINT and the filters
// suppressed, and `--enable-check-profile`'s per-check times.
//
//===----------------------------------------------------------------------===//

#ifndef LIBTORCH_TIDY_DRIVER_REPORT_RUNSTATISTICS_H
#define LIBTORCH_TIDY_DRIVER_REPORT_RUNSTATISTICS_H

#include "model/Findings.h"

#include "llvm/Support/raw_ostream.h"

namespace libtorch_tidy::report {

/// "Suppressed N warnings (...)." as clang-tidy words it; nothing when no
/// warning was suppressed.
void printSuppressionStats(const model::RunResult &Run, llvm::raw_ostream &OS);

/// `--enable-check-profile`: the wall time each check took, summed over the
/// units, largest first, in clang-tidy's table layout.
void printCheckProfile(const model::RunResult &Run, llvm::raw_ostream &OS);

} // namespace libtorch_tidy::report

#endif // LIBTORCH_TIDY_DRIVER_REPORT_RUNSTATISTICS_H
