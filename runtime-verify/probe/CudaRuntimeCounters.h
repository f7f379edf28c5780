//===--- CudaRuntimeCounters.h - Syncs and copies at the CUDA runtime ----===//
//
// Part of libtorch-tidy. SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

#ifndef LIBTORCH_TIDY_RUNTIME_VERIFY_PROBE_CUDARUNTIMECOUNTERS_H
#define LIBTORCH_TIDY_RUNTIME_VERIFY_PROBE_CUDARUNTIMECOUNTERS_H

#include <atomic>
#include <cstdint>

namespace libtorch_tidy_probe {

/// What the CUDA runtime functions that the probe interposes saw
/// (CudaRuntimeCounters.cpp). All zero where the program never called the
/// CUDA runtime: a CPU-only LibTorch, or a CUDA build on a machine without
/// a GPU.
struct CudaRuntimeCounts {
  /// Host waits: cudaStreamSynchronize, cudaDeviceSynchronize,
  /// cudaEventSynchronize, and synchronous cudaMemcpy.
  std::atomic<uint64_t> StreamSyncs, DeviceSyncs, EventSyncs, SyncMemcpy;
  /// Copies (cudaMemcpy and cudaMemcpyAsync) by direction; host-to-device
  /// ones by the source's memory: page-locked (pinned) or pageable. CUDA
  /// stages a pageable source through a pinned buffer and returns only when
  /// it is copied: such a cudaMemcpyAsync blocks the host like a sync copy.
  std::atomic<uint64_t> DeviceToHost, HostToDevicePinned, HostToDevicePageable;
  /// cudaLaunchKernel calls: kernels launched through the runtime (LibTorch's
  /// own; cuBLAS and cuDNN launch theirs through the driver, uncounted).
  std::atomic<uint64_t> KernelLaunches;
  /// Any interposed function was called: the program used a GPU.
  std::atomic<uint64_t> Calls;
};

extern CudaRuntimeCounts CudaRuntime;

/// Host syncs as the runtime sees them: every call that makes the host wait
/// for the device (a pageable host-to-device cudaMemcpyAsync included).
inline uint64_t cudaRuntimeHostSyncs() {
  return CudaRuntime.StreamSyncs.load() + CudaRuntime.DeviceSyncs.load() +
         CudaRuntime.EventSyncs.load() + CudaRuntime.SyncMemcpy.load();
}

} // namespace libtorch_tidy_probe

#endif
