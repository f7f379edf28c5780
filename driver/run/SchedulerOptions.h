//===--- SchedulerOptions.h - What the analysis stage is told ---*- C++ -*-===//
//
// Part of libtorch-tidy. SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//
//
// The options the analysis stage owns (UnitScheduler.h and what it runs:
// the caches, the workers, one unit's analysis), on top of the units
// stage's (units/UnitOptions.h). The command line fills them
// (config/OptionsSetup.h, whose ToolOptions extends them); nothing here
// reads a flag. A worker's request (worker/WorkerProtocol.h) is one of
// them: a worker runs the same stage for one unit.
//
//===----------------------------------------------------------------------===//

#ifndef LIBTORCH_TIDY_DRIVER_RUN_SCHEDULEROPTIONS_H
#define LIBTORCH_TIDY_DRIVER_RUN_SCHEDULEROPTIONS_H

#include "cache/remote/RemoteSpec.h"
#include "units/UnitOptions.h"
#include "worker/WorkerProtocol.h"
#include <cstdint>
#include <string>
#include <vector>

namespace libtorch_tidy::run {

struct SchedulerOptions : UnitOptions {
  // --- How the units run. ---
  /// `-j`: units analyzed at once; 0 means one per core.
  unsigned Jobs = 0;
  /// `--progress`: auto, bar, plain or none (validated by parseCommandLine).
  std::string Progress = "auto";
  /// `--unit-timeout`: seconds a unit may take before it counts as failed.
  unsigned UnitTimeout = 600;
  /// `--summaries`: "cached", "current" or "off" (run/DatabaseSummaries.h).
  std::string Summaries = "cached";
  /// Hidden, set by a parent for a worker process: what it asks of it
  /// (worker/WorkerProtocol.h); empty for any other run.
  worker::WorkerRequest Worker;

  // --- What one unit's analysis does (AnalysisSettings.h). ---
  /// `--fix`, `--fix-errors`, `--fix-notes`, `--export-fixes`: the run
  /// writes edits, which only an analysis on this machine may give (a
  /// remote cache entry gives findings only); `--fix-notes` also applies a
  /// note's fix-it.
  bool Fix = false;
  bool FixErrors = false;
  bool FixNotes = false;
  std::string ExportFixes;
  /// `--enable-check-profile`, `--store-check-profile`: each check's time,
  /// as a table on standard error or, into that directory (absolute), as
  /// clang-tidy's JSON profile of each unit.
  bool EnableCheckProfile = false;
  std::string StoreCheckProfile;
  /// clang-tidy's experimental `--enable-module-headers-parsing` and
  /// `--experimental-custom-checks`.
  bool EnableModuleHeadersParsing = false;
  bool ExperimentalCustomChecks = false;
  /// `--vfsoverlay`: a virtual file system (YAML) laid over the real one.
  std::string VfsOverlay;
  /// Hidden: skip bodies of system-header functions (on by default).
  bool SkipSystemBodies = true;

  // --- The caches. ---
  /// `--cache-dir`; empty means the default location. `--no-cache`.
  std::string CacheDir;
  bool NoCache = false;
  /// The result cache is neither read nor written, for a reason of the
  /// command line's (--line-filter, --vfsoverlay, --load); the precompiled
  /// prefixes in the same directory are still used.
  bool NoReplay = false;
  /// `--cache-max-size` in bytes; 0 for no limit.
  std::uint64_t CacheMaxSize = 5ull << 30;
  /// `--preamble`: auto, always or never (`--no-preamble`).
  std::string Preamble = "auto";
  /// `--remote-cache` (else LIBTORCH_TIDY_REMOTE_CACHE): the servers shared
  /// with other machines, tried in order (driver/cache/remote/).
  std::vector<cache::RemoteSpec> RemoteCaches;
  /// `--cache-base-dir`: the directory whose paths the remote cache's keys
  /// and entries hold relative to it; empty for the project root.
  std::string CacheBaseDir;
};

} // namespace libtorch_tidy::run

#endif // LIBTORCH_TIDY_DRIVER_RUN_SCHEDULEROPTIONS_H
