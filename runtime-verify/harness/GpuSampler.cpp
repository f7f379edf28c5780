//===--- GpuSampler.cpp - NVML through dlopen -----------------------------===//
//
// Part of libtorch-tidy. SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

#include "GpuSampler.h"

#include <dlfcn.h>
#include <fmt/format.h>

namespace libtorch_tidy::verify {
namespace {

// The few NVML declarations we need (nvml.h, stable ABI since CUDA 5); the
// header is not needed to build.
using nvmlReturn_t = int;
using nvmlDevice_t = void *;
constexpr nvmlReturn_t NVML_SUCCESS = 0;
struct nvmlUtilization_t {
  unsigned int gpu;
  unsigned int memory;
};
struct nvmlMemory_t {
  unsigned long long total;
  unsigned long long free;
  unsigned long long used;
};
using InitFn = nvmlReturn_t (*)();
using CountFn = nvmlReturn_t (*)(unsigned int *);
using HandleFn = nvmlReturn_t (*)(unsigned int, nvmlDevice_t *);
using NameFn = nvmlReturn_t (*)(nvmlDevice_t, char *, unsigned int);
using UtilFn = nvmlReturn_t (*)(nvmlDevice_t, nvmlUtilization_t *);
using MemFn = nvmlReturn_t (*)(nvmlDevice_t, nvmlMemory_t *);
using ShutdownFn = nvmlReturn_t (*)();

template <typename T> T symbol(void *Library, const char *Name) {
  return reinterpret_cast<T>(dlsym(Library, Name));
}

} // namespace

GpuSampler::GpuSampler() {
  Library = dlopen("libnvidia-ml.so.1", RTLD_NOW | RTLD_LOCAL);
  if (Library == nullptr) {
    Description = "no GPU (libnvidia-ml.so.1 not found)";
    return;
  }
  auto Init = symbol<InitFn>(Library, "nvmlInit_v2");
  auto Count = symbol<CountFn>(Library, "nvmlDeviceGetCount_v2");
  auto Handle = symbol<HandleFn>(Library, "nvmlDeviceGetHandleByIndex_v2");
  auto Name = symbol<NameFn>(Library, "nvmlDeviceGetName");
  GetUtilization = reinterpret_cast<void *>(
      symbol<UtilFn>(Library, "nvmlDeviceGetUtilizationRates"));
  GetMemoryInfo = reinterpret_cast<void *>(
      symbol<MemFn>(Library, "nvmlDeviceGetMemoryInfo"));
  Shutdown =
      reinterpret_cast<void *>(symbol<ShutdownFn>(Library, "nvmlShutdown"));
  unsigned int N = 0;
  if (!Init || !Count || !Handle || !GetUtilization || !GetMemoryInfo ||
      Init() != NVML_SUCCESS) {
    Description = "no GPU (NVML did not initialize)";
    Shutdown = nullptr;
    return;
  }
  if (Count(&N) != NVML_SUCCESS || N == 0) {
    Description = "no GPU (NVML sees no device)";
    return;
  }
  // CUDA_VISIBLE_DEVICES is not applied by NVML; sample every device and let
  // the report say which ones.
  std::string Names;
  for (unsigned int I = 0; I < N; ++I) {
    nvmlDevice_t D = nullptr;
    if (Handle(I, &D) != NVML_SUCCESS)
      continue;
    Handles.push_back(D);
    char Buf[96] = {0};
    if (Name && Name(D, Buf, sizeof(Buf)) == NVML_SUCCESS)
      Names += fmt::format("{}{}: {}", Names.empty() ? "" : ", ", I, Buf);
  }
  Devices = static_cast<unsigned>(Handles.size());
  Description = Devices ? Names : "no GPU (NVML gave no device handle)";
}

GpuSampler::~GpuSampler() {
  if (Shutdown != nullptr)
    reinterpret_cast<ShutdownFn>(Shutdown)();
  if (Library != nullptr)
    dlclose(Library);
}

bool GpuSampler::sample(double Seconds, GpuSample &Out) {
  if (!available())
    return false;
  double Util = 0, Mem = 0;
  for (void *D : Handles) {
    nvmlUtilization_t U{};
    nvmlMemory_t M{};
    if (reinterpret_cast<UtilFn>(GetUtilization)(D, &U) != NVML_SUCCESS ||
        reinterpret_cast<MemFn>(GetMemoryInfo)(D, &M) != NVML_SUCCESS)
      return false;
    Util += U.gpu;
    Mem += static_cast<double>(M.used) / (1024.0 * 1024.0);
  }
  Out = {Seconds, Util / static_cast<double>(Handles.size()), Mem};
  return true;
}

} // namespace libtorch_tidy::verify
