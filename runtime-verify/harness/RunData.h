//===--- RunData.h - What one verify session measured -----------*- C++ -*-===//
//
// Part of libtorch-tidy. SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

#ifndef LIBTORCH_TIDY_RUNTIME_VERIFY_HARNESS_RUNDATA_H
#define LIBTORCH_TIDY_RUNTIME_VERIFY_HARNESS_RUNDATA_H

#include "Findings.h"
#include "GpuSampler.h"
#include "Process.h"

#include <nlohmann/json.hpp>

#include <string>
#include <vector>

namespace libtorch_tidy::verify {

/// The probe's counts for one run, summed over the processes that ran
/// LibTorch code (a wrapper script loads the probe too, and records nothing).
struct ProbeCounts {
  bool Present = false; ///< at least one probe file was read
  uint64_t Steps = 0;
  uint64_t HostSyncs = 0;
  uint64_t LocalScalarDense = 0;
  uint64_t DeviceToHost = 0;
  uint64_t HostToDeviceBlocking = 0;
  uint64_t HostToDeviceNonBlocking = 0;
  /// Of those, from pageable memory: synchronous in fact.
  uint64_t HostToDeviceNonBlockingPageable = 0;
  uint64_t CudaSyncWarnings = 0;
  bool CudaSyncDebug = false;
  /// At the CUDA runtime (probe/CudaRuntimeCounters.h): any call at all
  /// (the program used a GPU), host syncs, device-to-host copies,
  /// host-to-device copies from pinned and pageable memory, kernel launches.
  uint64_t CudaRuntimeCalls = 0;
  uint64_t CudaRuntimeHostSyncs = 0;
  uint64_t CudaRuntimeDeviceToHost = 0;
  uint64_t CudaRuntimeH2DPinned = 0;
  uint64_t CudaRuntimeH2DPageable = 0;
  uint64_t KernelLaunches = 0;
  std::vector<double> StepStartSeconds; ///< of the process with most steps
  /// Of that process too: the training thread's time outside LibTorch ops
  /// and backward passes from its first to its last step start, and that
  /// span (probe/HostTimeOutsideOps.h); HostTimeMeasured is false when the
  /// probe did not measure them (fewer than two steps, an older probe).
  bool HostTimeMeasured = false;
  uint64_t HostOutsideOpsNs = 0;
  uint64_t HostTimeSpanNs = 0;
  std::vector<uint64_t> StepSyncsBefore;        ///< host syncs before each step
  nlohmann::json Raw = nlohmann::json::array(); ///< every probe file
};

struct CpuSample {
  double Seconds;
  double Percent; ///< of one core, summed over the process group
};

struct RunRecord {
  std::string Variant; ///< "original" or "fixed"
  unsigned Index = 0;  ///< 1-based within the variant
  ProcessResult Process;
  ProbeCounts Probe;
  std::vector<CpuSample> Cpu;
  std::vector<GpuSample> Gpu;
  std::string OutputTail;
  std::string Failure; ///< empty when the run counts
  double stepsPerSecond() const;
};

struct BuildRecord {
  std::string Variant;
  std::vector<std::string> Command;
  bool Ok = false;
  std::string Log; ///< the tail of the compiler output
};

struct Session {
  std::vector<std::string> RunCommand;
  unsigned Runs = 0;
  double TimeoutSeconds = 0;
  bool ProbeEnabled = true;
  std::string GpuDescription;
  /// The LibTorch the program links (the prefix above its build's Torch_DIR)
  /// and its version; empty when unknown (--build-cmd, no Torch_DIR).
  std::string LibTorchDir, LibTorchVersion;
  /// `--run-prepared`: the LibTorch the bundle was analyzed and fixed
  /// against (its prepared_with_libtorch); empty otherwise or unknown.
  std::string PreparedWithLibTorch;
  /// The probe was built for this run against the program's LibTorch (the
  /// installed one links another).
  bool ProbeBuiltForRun = false;
  std::vector<Finding> Findings;
  std::vector<BuildRecord> Builds;
  std::vector<RunRecord> RunsDone;
  std::vector<std::string> Errors;   ///< the reasons for exit code 2
  std::vector<std::string> Warnings; ///< reported, not fatal
  std::string ScratchDir;
  bool ScratchKept = false;
};

} // namespace libtorch_tidy::verify

#endif
