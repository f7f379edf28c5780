//===--- ProbeState.h - What the probe has counted so far -------*- C++ -*-===//
//
// Part of libtorch-tidy. SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//
//
// The probe's counts, shared by the callbacks that count (Probe.cpp) and the
// writer of the counts file (CountsFile.cpp).
//
//===----------------------------------------------------------------------===//

#ifndef LIBTORCH_TIDY_RUNTIME_VERIFY_PROBE_PROBESTATE_H
#define LIBTORCH_TIDY_RUNTIME_VERIFY_PROBE_PROBESTATE_H

#include "HostTimeOutsideOps.h"

#include <atomic>
#include <chrono>
#include <cstddef>
#include <cstdint>

namespace libtorch_tidy_probe {

// The operations counted by name, in the order of the JSON "ops" object.
enum Op : unsigned {
  OpLocalScalarDense,
  OpItem,
  OpNonzero,
  OpMaskedSelect,
  OpUnique,
  OpEqual,
  OpIsNonzero,
  OpCopy,
  OpToCopy,
  NumOps
};
inline constexpr const char *OpNames[NumOps] = {
    "aten::_local_scalar_dense", "aten::item",    "aten::nonzero",
    "aten::masked_select",       "aten::unique*", "aten::equal",
    "aten::is_nonzero",          "aten::copy_",   "aten::_to_copy"};

inline constexpr size_t MaxSteps = 1 << 16;
inline constexpr size_t MaxForwardThreads = 64;

// All state is in one object with static storage: atomics only, so the
// callbacks need no lock and the signal handler can read it.
struct Counters {
  std::atomic<uint64_t> Ops[NumOps];
  std::atomic<uint64_t> HostSyncs;
  std::atomic<uint64_t> DeviceToHost;
  std::atomic<uint64_t> HostToDeviceBlocking;
  std::atomic<uint64_t> HostToDeviceNonBlocking;
  // Of those, from pageable memory: CUDA copies them synchronously, so the
  // non_blocking asked for does not happen.
  std::atomic<uint64_t> HostToDeviceNonBlockingPageable;
  std::atomic<uint64_t> CudaSyncWarnings;
  std::atomic<uint64_t> Records;
  std::atomic<uint64_t> Steps;
  // Per step: start time (ns since the probe started) and the host syncs
  // counted before it, for the per-step series in the report.
  std::atomic<uint64_t> StepStartNs[MaxSteps];
  std::atomic<uint64_t> StepSyncsBefore[MaxSteps];
  // Highest sequence number seen per forward thread id (id + 1 as the key, 0
  // is free).
  std::atomic<uint64_t> ForwardThread[MaxForwardThreads];
  std::atomic<uint64_t> MaxSeq[MaxForwardThreads];
  // RecordFunction's id of the thread that ran the first step's forward
  // pass (ids start at 1); 0 until then.
  std::atomic<uint64_t> TrainingThread;
  HostTimeOutsideOps<MaxSteps> HostTime;
  std::atomic<bool> Written;
  uint64_t StartNs;
  bool CudaSyncDebug;
};
extern Counters State;

// steady_clock is CLOCK_MONOTONIC (clock_gettime, async-signal-safe): step
// times and time outside ops on one clock that never goes back.
inline uint64_t nowNs() {
  return static_cast<uint64_t>(
      std::chrono::duration_cast<std::chrono::nanoseconds>(
          std::chrono::steady_clock::now().time_since_epoch())
          .count());
}

/// Writes the counts as JSON to LIBTORCH_TIDY_PROBE_DIR/probe-<pid>.json,
/// once per process (at exit, or in the SIGTERM handler when \p FromSignal);
/// async-signal-safe.
void writeCounts(bool FromSignal);

} // namespace libtorch_tidy_probe

#endif // LIBTORCH_TIDY_RUNTIME_VERIFY_PROBE_PROBESTATE_H
