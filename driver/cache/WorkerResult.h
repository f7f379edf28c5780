//===--- WorkerResult.h - What the cache stores of a unit -------*- C++ -*-===//
//
// Part of libtorch-tidy. SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//
//
// A unit's result with the files it read: what a worker process hands back
// to its parent (run/Workers.h), and so what the local and the remote
// result cache store and replay (ResultCache.h, remote/RemoteResults.h).
//
//===----------------------------------------------------------------------===//

#ifndef LIBTORCH_TIDY_DRIVER_CACHE_WORKERRESULT_H
#define LIBTORCH_TIDY_DRIVER_CACHE_WORKERRESULT_H

#include "cache/Dependencies.h"
#include "model/Findings.h"
#include <string>
#include <vector>

namespace libtorch_tidy::cache {

/// What a worker hands back.
struct WorkerResult {
  model::TranslationUnitResult Unit;
  std::vector<Dependency> Dependencies;
  /// What the worker printed on stderr, without clang's "N warnings
  /// generated." and "Error while processing" lines (the findings and the
  /// failed units are reported by the parent).
  std::string Stderr;
  /// Wall seconds from the worker's start to its end (0 when it could not
  /// be started).
  double Seconds = 0;
};

} // namespace libtorch_tidy::cache

#endif // LIBTORCH_TIDY_DRIVER_CACHE_WORKERRESULT_H
