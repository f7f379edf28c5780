//===--- GpuSampler.h - NVML through dlopen ---------------------*- C++ -*-===//
//
// Part of libtorch-tidy. SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//
//
// Samples GPU utilization and memory through NVML, opened at run time with
// dlopen("libnvidia-ml.so.1") so that the harness needs no CUDA to build or
// run. No library, no GPU or any NVML error: available() is false and the
// report says "no GPU"; nothing fails.
//
//===----------------------------------------------------------------------===//

#ifndef LIBTORCH_TIDY_RUNTIME_VERIFY_HARNESS_GPUSAMPLER_H
#define LIBTORCH_TIDY_RUNTIME_VERIFY_HARNESS_GPUSAMPLER_H

#include <string>
#include <vector>

namespace libtorch_tidy::verify {

struct GpuSample {
  double Seconds;       ///< since the run started
  double UtilPercent;   ///< mean over the devices sampled
  double MemoryUsedMiB; ///< sum over the devices sampled
};

class GpuSampler {
public:
  GpuSampler();
  ~GpuSampler();
  GpuSampler(const GpuSampler &) = delete;
  GpuSampler &operator=(const GpuSampler &) = delete;

  bool available() const { return Devices > 0; }
  /// "no GPU (libnvidia-ml.so.1 not found)", or the device names.
  const std::string &description() const { return Description; }
  /// One sample of every device; false when NVML failed.
  bool sample(double Seconds, GpuSample &Out);

private:
  void *Library = nullptr;
  unsigned Devices = 0;
  std::string Description;
  std::vector<void *> Handles;
  void *GetUtilization = nullptr;
  void *GetMemoryInfo = nullptr;
  void *Shutdown = nullptr;
};

} // namespace libtorch_tidy::verify

#endif
