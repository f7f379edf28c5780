//===--- Workers.h - Analyze units in worker processes ----------*- C++ -*-===//
//
// Part of libtorch-tidy. SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//
//
// Each translation unit is analyzed by a worker process: the tool re-run
// with `--worker-unit=<file> --worker-output=<json>`, which writes the unit's
// TranslationUnitResult (and the files it read, for the result cache) as
// JSON. A crash, a hang past the timeout, or unreadable output makes that
// unit `Failed`; the other units are unaffected. Up to N run at once.
// SIGINT, SIGTERM and SIGHUP stop them all and end the run (WorkerProcess.h).
//
//===----------------------------------------------------------------------===//

#ifndef LIBTORCH_TIDY_DRIVER_RUN_WORKERS_H
#define LIBTORCH_TIDY_DRIVER_RUN_WORKERS_H

#include "cache/WorkerResult.h"
#include "worker/WorkerProtocol.h"
#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/StringRef.h"
#include <functional>
#include <string>
#include <utility>
#include <vector>

namespace libtorch_tidy::run {

struct WorkerPool {
  /// The tool's own executable and the arguments it was started with
  /// (without argv[0]); a worker gets its request's flags prepended
  /// (worker/WorkerProtocol.h).
  std::string Executable;
  std::vector<std::string> Arguments;
  /// Processes at once (>= 1).
  unsigned Jobs = 1;
  /// Seconds a worker may run; 0 for no limit.
  unsigned TimeoutSeconds = 0;
  /// What a unit's worker is asked beyond its unit, its output and the
  /// summaries (its prefix's role, whether another unit shares the
  /// prefix), by the unit's index (may be shorter).
  std::vector<worker::WorkerRequest> UnitRequests;
  /// When not empty, the summaries every worker reads
  /// (run/DatabaseSummaries.h): each worker gets its own copy, a file made
  /// and removed with its output, as `--worker-summary-file`. One file
  /// shared by the workers would outlive a parent killed between them.
  std::string SummaryText;
};

/// Analyzes \p Units (absolute paths) in workers. Results come back in the
/// order of \p Units; \p Finished is called for each as it completes (in
/// completion order) with its index.
std::vector<cache::WorkerResult> runWorkers(
    const WorkerPool &Pool, llvm::ArrayRef<std::string> Units,
    const std::function<void(size_t, const cache::WorkerResult &)> &Finished);

} // namespace libtorch_tidy::run

#endif // LIBTORCH_TIDY_DRIVER_RUN_WORKERS_H
