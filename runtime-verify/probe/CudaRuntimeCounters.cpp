//===--- CudaRuntimeCounters.cpp - Syncs and copies at the CUDA runtime ---===//
//
// Part of libtorch-tidy. SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//
//
// LibTorch's CUDA builds (the PyTorch wheels, the LibTorch zips) link the
// CUDA runtime as a shared library (libcudart.so.<major>), so the probe,
// preloaded, defines the few runtime functions that make the host wait or
// copy memory; the program's calls reach these first, which count and call
// the runtime's own (dlsym(RTLD_NEXT)). The probe's definitions carry no
// symbol version, which the dynamic linker accepts for the runtime's
// versioned references (cudaStreamSynchronize@libcudart.so.13).
//
// No CUDA header is needed: the declarations below are the runtime's C ABI
// (cuda_runtime_api.h, driver_types.h), which is stable across releases.
// A program whose CUDA runtime is linked statically calls none of these:
// the counts stay 0 and the report says the GPU was not measured here.
//
//===----------------------------------------------------------------------===//

#include "CudaRuntimeCounters.h"

#include <cstddef>
#include <dlfcn.h>

namespace libtorch_tidy_probe {
CudaRuntimeCounts CudaRuntime;
} // namespace libtorch_tidy_probe

using libtorch_tidy_probe::CudaRuntime;

namespace {

using CudaError = int;     // cudaError_t
using CudaStream = void *; // cudaStream_t
using CudaEvent = void *;  // cudaEvent_t
constexpr CudaError CudaErrorUnknown = 999;

// cudaMemcpyKind
constexpr int MemcpyHostToDevice = 1, MemcpyDeviceToHost = 2, MemcpyDefault = 4;
// cudaMemoryType
constexpr int MemoryUnregistered = 0, MemoryHost = 1;

// cudaPointerAttributes (CUDA 11 and later: type, device, devicePointer,
// hostPointer; CUDA 13 adds reserved words): room to spare, the runtime
// writes at most its own size.
struct PointerAttributes {
  int Type;
  int Device;
  void *DevicePointer;
  void *HostPointer;
  long Reserved[32];
};

struct Dim3 {
  unsigned X, Y, Z;
};

template <typename Fn> Fn real(const char *Name) {
  return reinterpret_cast<Fn>(dlsym(RTLD_NEXT, Name));
}

/// The memory type of a pointer, or -1 when the runtime cannot say.
int memoryType(const void *Ptr) {
  using Fn = CudaError (*)(PointerAttributes *, const void *);
  static const Fn Attributes = real<Fn>("cudaPointerGetAttributes");
  PointerAttributes A{};
  if (Attributes == nullptr || Attributes(&A, Ptr) != 0)
    return -1;
  return A.Type;
}

void countCopy(const void *Src, int Kind, bool Synchronous) {
  CudaRuntime.Calls.fetch_add(1, std::memory_order_relaxed);
  if (Synchronous)
    CudaRuntime.SyncMemcpy.fetch_add(1, std::memory_order_relaxed);
  int SrcType = -2;
  if (Kind == MemcpyDefault) {
    // Direction from the pointers: only a host source matters here.
    SrcType = memoryType(Src);
    if (SrcType != MemoryUnregistered && SrcType != MemoryHost)
      return;
    Kind = MemcpyHostToDevice;
  }
  if (Kind == MemcpyDeviceToHost) {
    CudaRuntime.DeviceToHost.fetch_add(1, std::memory_order_relaxed);
    return;
  }
  if (Kind != MemcpyHostToDevice)
    return;
  if (SrcType == -2)
    SrcType = memoryType(Src);
  // Unknown (-1) counts as pageable: the runtime knows every pinned range.
  if (SrcType == MemoryHost)
    CudaRuntime.HostToDevicePinned.fetch_add(1, std::memory_order_relaxed);
  else {
    CudaRuntime.HostToDevicePageable.fetch_add(1, std::memory_order_relaxed);
    // The host waits for it as for a sync copy.
    if (!Synchronous)
      CudaRuntime.SyncMemcpy.fetch_add(1, std::memory_order_relaxed);
  }
}

} // namespace

// Exported whatever the build's default visibility: the dynamic loader
// must find these before the CUDA runtime's.
#pragma GCC visibility push(default)
extern "C" {

CudaError cudaStreamSynchronize(CudaStream Stream) {
  using Fn = CudaError (*)(CudaStream);
  static const Fn Real = real<Fn>("cudaStreamSynchronize");
  CudaRuntime.Calls.fetch_add(1, std::memory_order_relaxed);
  CudaRuntime.StreamSyncs.fetch_add(1, std::memory_order_relaxed);
  return Real ? Real(Stream) : CudaErrorUnknown;
}

CudaError cudaDeviceSynchronize() {
  using Fn = CudaError (*)();
  static const Fn Real = real<Fn>("cudaDeviceSynchronize");
  CudaRuntime.Calls.fetch_add(1, std::memory_order_relaxed);
  CudaRuntime.DeviceSyncs.fetch_add(1, std::memory_order_relaxed);
  return Real ? Real() : CudaErrorUnknown;
}

CudaError cudaEventSynchronize(CudaEvent Event) {
  using Fn = CudaError (*)(CudaEvent);
  static const Fn Real = real<Fn>("cudaEventSynchronize");
  CudaRuntime.Calls.fetch_add(1, std::memory_order_relaxed);
  CudaRuntime.EventSyncs.fetch_add(1, std::memory_order_relaxed);
  return Real ? Real(Event) : CudaErrorUnknown;
}

CudaError cudaMemcpy(void *Dst, const void *Src, size_t Count, int Kind) {
  using Fn = CudaError (*)(void *, const void *, size_t, int);
  static const Fn Real = real<Fn>("cudaMemcpy");
  countCopy(Src, Kind, /*Synchronous=*/true);
  return Real ? Real(Dst, Src, Count, Kind) : CudaErrorUnknown;
}

CudaError cudaMemcpyAsync(void *Dst, const void *Src, size_t Count, int Kind,
                          CudaStream Stream) {
  using Fn = CudaError (*)(void *, const void *, size_t, int, CudaStream);
  static const Fn Real = real<Fn>("cudaMemcpyAsync");
  countCopy(Src, Kind, /*Synchronous=*/false);
  return Real ? Real(Dst, Src, Count, Kind, Stream) : CudaErrorUnknown;
}

CudaError cudaLaunchKernel(const void *Func, Dim3 Grid, Dim3 Block, void **Args,
                           size_t SharedMem, CudaStream Stream) {
  using Fn =
      CudaError (*)(const void *, Dim3, Dim3, void **, size_t, CudaStream);
  static const Fn Real = real<Fn>("cudaLaunchKernel");
  CudaRuntime.Calls.fetch_add(1, std::memory_order_relaxed);
  CudaRuntime.KernelLaunches.fetch_add(1, std::memory_order_relaxed);
  return Real ? Real(Func, Grid, Block, Args, SharedMem, Stream)
              : CudaErrorUnknown;
}

} // extern "C"
#pragma GCC visibility pop
