//===--- RunCaches.h - The caches a run opens -------------------*- C++ -*-===//
//
// Part of libtorch-tidy. SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//
//
// What the scheduler (UnitScheduler.h) keeps between runs: the result cache
// it opens, and the flags that tell each worker how to use precompiled
// prefixes (preamble/PrecompiledPrefixes.h).
//
//===----------------------------------------------------------------------===//

#ifndef LIBTORCH_TIDY_DRIVER_RUN_RUNCACHES_H
#define LIBTORCH_TIDY_DRIVER_RUN_RUNCACHES_H

#include "cache/ResultCache.h"
#include "run/SchedulerOptions.h"
#include "worker/WorkerProtocol.h"
#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/StringRef.h"
#include <optional>
#include <string>
#include <vector>

namespace libtorch_tidy::run {

/// The result cache of the run, unless --no-cache or the command line
/// rules it out; \p Identity gets the tool's (ResultCache.h). A directory
/// that cannot be written is said once, and not used.
std::optional<cache::ResultCache> openResultCache(const SchedulerOptions &Tool,
                                                  llvm::StringRef Executable,
                                                  std::string &Identity);

/// What the worker of each of \p Files is asked about its precompiled
/// prefix (worker/WorkerProtocol.h: PreambleShared, Prefix).
std::vector<worker::WorkerRequest>
prefixRequests(const SchedulerOptions &Tool, llvm::ArrayRef<std::string> Files,
               unsigned Jobs, llvm::StringRef PreambleDirectory);

} // namespace libtorch_tidy::run

#endif // LIBTORCH_TIDY_DRIVER_RUN_RUNCACHES_H
