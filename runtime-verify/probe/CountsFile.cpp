//===--- CountsFile.cpp - The probe's counts, written as JSON -------------===//
//
// Part of libtorch-tidy. SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//
//
// The counts file, probe-<pid>.json, written to a temporary name and renamed
// with async-signal-safe calls only (SignalSafeBuffer.h), so that it is
// written inside the SIGTERM handler too.
//
//===----------------------------------------------------------------------===//

#include <torch/version.h>

#include "CudaRuntimeCounters.h"
#include "ProbeState.h"
#include "SignalSafeBuffer.h"

#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <fcntl.h>
#include <unistd.h>

namespace libtorch_tidy_probe {
namespace {

// Static storage so that the signal handler allocates nothing.
constexpr size_t BufferCap = 64 + MaxSteps * 48 + 4096;
char OutBuffer[BufferCap];

} // namespace

void writeCounts(bool FromSignal) {
  if (State.Written.exchange(true))
    return;
  const char *Dir = std::getenv("LIBTORCH_TIDY_PROBE_DIR");
  if (Dir == nullptr || *Dir == '\0')
    return;
  Buffer B{OutBuffer, 0, BufferCap};
  B.put("{");
  B.field("version", 1);
  B.put(",");
  B.field("pid", static_cast<uint64_t>(getpid()));
  B.put(",");
  B.field("torch_major", TORCH_VERSION_MAJOR);
  B.put(",");
  B.field("torch_minor", TORCH_VERSION_MINOR);
  B.put(",\"cuda_build\":");
  B.put(LIBTORCH_TIDY_PROBE_CUDA ? "true" : "false");
  B.put(",\"cuda_sync_debug\":");
  B.put(State.CudaSyncDebug ? "true" : "false");
  B.put(",\"exit\":\"");
  B.put(FromSignal ? "sigterm" : "normal");
  B.put("\",");
  B.field("wall_ns", nowNs() - State.StartNs);
  B.put(",");
  B.field("records", State.Records.load());
  B.put(",");
  B.field("steps", State.Steps.load());
  B.put(",");
  B.field("host_syncs", State.HostSyncs.load());
  B.put(",");
  B.field("device_to_host", State.DeviceToHost.load());
  B.put(",");
  B.field("host_to_device_blocking", State.HostToDeviceBlocking.load());
  B.put(",");
  B.field("host_to_device_non_blocking", State.HostToDeviceNonBlocking.load());
  B.put(",");
  B.field("host_to_device_non_blocking_pageable",
          State.HostToDeviceNonBlockingPageable.load());
  B.put(",");
  B.field("cuda_sync_warnings", State.CudaSyncWarnings.load());
  const HostTimeTotals HostTime = State.HostTime.totals();
  B.put(",\"host_time_outside_ops\":{\"measured\":");
  B.put(HostTime.Measured && State.TrainingThread.load() != 0 ? "true"
                                                              : "false");
  B.put(",");
  B.field("outside_ns", HostTime.OutsideNs);
  B.put(",");
  B.field("span_ns", HostTime.SpanNs);
  B.put(",");
  B.field("steps", HostTime.Steps);
  B.put("}");
  B.put(",\"cuda_runtime\":{");
  B.field("calls", CudaRuntime.Calls.load());
  B.put(",");
  B.field("host_syncs", libtorch_tidy_probe::cudaRuntimeHostSyncs());
  B.put(",");
  B.field("stream_syncs", CudaRuntime.StreamSyncs.load());
  B.put(",");
  B.field("device_syncs", CudaRuntime.DeviceSyncs.load());
  B.put(",");
  B.field("event_syncs", CudaRuntime.EventSyncs.load());
  B.put(",");
  B.field("sync_memcpy", CudaRuntime.SyncMemcpy.load());
  B.put(",");
  B.field("device_to_host", CudaRuntime.DeviceToHost.load());
  B.put(",");
  B.field("host_to_device_pinned", CudaRuntime.HostToDevicePinned.load());
  B.put(",");
  B.field("host_to_device_pageable", CudaRuntime.HostToDevicePageable.load());
  B.put(",");
  B.field("kernel_launches", CudaRuntime.KernelLaunches.load());
  B.put("}");
  B.put(",\"ops\":{");
  for (unsigned I = 0; I < NumOps; ++I) {
    if (I)
      B.put(",");
    B.field(OpNames[I], State.Ops[I].load());
  }
  B.put("},\"step_start_ns\":[");
  const uint64_t Steps = State.Steps.load();
  const uint64_t Kept = Steps < MaxSteps ? Steps : MaxSteps;
  for (uint64_t I = 0; I < Kept; ++I) {
    if (I)
      B.put(",");
    B.num(State.StepStartNs[I].load());
  }
  B.put("],\"step_syncs_before\":[");
  for (uint64_t I = 0; I < Kept; ++I) {
    if (I)
      B.put(",");
    B.num(State.StepSyncsBefore[I].load());
  }
  B.put("]}\n");

  char Path[4096], Tmp[4096];
  Buffer P{Path, 0, sizeof(Path)};
  P.put(Dir);
  P.put("/probe-");
  P.num(static_cast<uint64_t>(getpid()));
  P.put(".json");
  Path[P.Size] = '\0';
  Buffer T{Tmp, 0, sizeof(Tmp)};
  T.put(Path);
  T.put(".tmp");
  Tmp[T.Size] = '\0';
  const int Fd = open(Tmp, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
  if (Fd < 0)
    return;
  size_t Done = 0;
  bool Ok = true;
  while (Done < B.Size) {
    const ssize_t N = write(Fd, OutBuffer + Done, B.Size - Done);
    if (N <= 0) {
      Ok = false;
      break;
    }
    Done += static_cast<size_t>(N);
  }
  Ok = close(Fd) == 0 && Ok;
  if (Ok)
    rename(Tmp, Path);
  else
    unlink(Tmp);
}

} // namespace libtorch_tidy_probe
