//===--- ProbeOutput.cpp - What the probe wrote ---------------------------===//
//
// Part of libtorch-tidy. SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

#include "ProbeOutput.h"
#include "Process.h"

#include <filesystem>
#include <optional>

namespace fs = std::filesystem;

namespace libtorch_tidy::verify {

namespace {

/// One probe file's counts, or nothing when it is not the probe's shape (a
/// file cut short by a killed run, or from another version of the probe).
std::optional<ProbeCounts> readProbeFile(const std::string &Path) {
  try {
    const nlohmann::json J = nlohmann::json::parse(readFile(Path));
    if (!J.is_object())
      return std::nullopt;
    ProbeCounts P;
    P.Present = true;
    P.Raw.push_back(J);
    P.Steps = J.value("steps", uint64_t{0});
    P.HostSyncs = J.value("host_syncs", uint64_t{0});
    if (J.contains("ops"))
      P.LocalScalarDense =
          J.at("ops").value("aten::_local_scalar_dense", uint64_t{0});
    P.DeviceToHost = J.value("device_to_host", uint64_t{0});
    P.HostToDeviceBlocking = J.value("host_to_device_blocking", uint64_t{0});
    P.HostToDeviceNonBlocking =
        J.value("host_to_device_non_blocking", uint64_t{0});
    P.HostToDeviceNonBlockingPageable =
        J.value("host_to_device_non_blocking_pageable", uint64_t{0});
    P.CudaSyncWarnings = J.value("cuda_sync_warnings", uint64_t{0});
    if (J.contains("cuda_runtime")) {
      const nlohmann::json &C = J.at("cuda_runtime");
      P.CudaRuntimeCalls = C.value("calls", uint64_t{0});
      P.CudaRuntimeHostSyncs = C.value("host_syncs", uint64_t{0});
      P.CudaRuntimeDeviceToHost = C.value("device_to_host", uint64_t{0});
      P.CudaRuntimeH2DPinned = C.value("host_to_device_pinned", uint64_t{0});
      P.CudaRuntimeH2DPageable =
          C.value("host_to_device_pageable", uint64_t{0});
      P.KernelLaunches = C.value("kernel_launches", uint64_t{0});
    }
    if (J.contains("step_syncs_before"))
      P.StepSyncsBefore =
          J.at("step_syncs_before").get<std::vector<uint64_t>>();
    P.CudaSyncDebug = J.value("cuda_sync_debug", false);
    if (J.contains("host_time_outside_ops")) {
      const nlohmann::json &H = J.at("host_time_outside_ops");
      P.HostTimeMeasured = H.value("measured", false);
      P.HostOutsideOpsNs = H.value("outside_ns", uint64_t{0});
      P.HostTimeSpanNs = H.value("span_ns", uint64_t{0});
    }
    if (J.contains("step_start_ns"))
      for (const auto &Ns : J.at("step_start_ns"))
        P.StepStartSeconds.push_back(Ns.get<double>() / 1e9);
    return P;
  } catch (const std::exception &) {
    // nlohmann's parse and type errors: the file is skipped.
    return std::nullopt;
  }
}

} // namespace

ProbeCounts readProbe(const std::string &Dir) {
  ProbeCounts Sum;
  uint64_t MostSteps = 0;
  std::error_code EC;
  for (const auto &Entry : fs::directory_iterator(Dir, EC)) {
    const std::string Name = Entry.path().filename().string();
    if (Name.rfind("probe-", 0) != 0 || Entry.path().extension() != ".json")
      continue;
    std::optional<ProbeCounts> P = readProbeFile(Entry.path().string());
    if (!P)
      continue;
    const bool MostSoFar = !Sum.Present || P->Steps > MostSteps;
    Sum.Present = true;
    Sum.Raw.push_back(P->Raw[0]);
    Sum.Steps += P->Steps;
    Sum.HostSyncs += P->HostSyncs;
    Sum.LocalScalarDense += P->LocalScalarDense;
    Sum.DeviceToHost += P->DeviceToHost;
    Sum.HostToDeviceBlocking += P->HostToDeviceBlocking;
    Sum.HostToDeviceNonBlocking += P->HostToDeviceNonBlocking;
    Sum.HostToDeviceNonBlockingPageable += P->HostToDeviceNonBlockingPageable;
    Sum.CudaSyncWarnings += P->CudaSyncWarnings;
    Sum.CudaRuntimeCalls += P->CudaRuntimeCalls;
    Sum.CudaRuntimeHostSyncs += P->CudaRuntimeHostSyncs;
    Sum.CudaRuntimeDeviceToHost += P->CudaRuntimeDeviceToHost;
    Sum.CudaRuntimeH2DPinned += P->CudaRuntimeH2DPinned;
    Sum.CudaRuntimeH2DPageable += P->CudaRuntimeH2DPageable;
    Sum.KernelLaunches += P->KernelLaunches;
    Sum.CudaSyncDebug = Sum.CudaSyncDebug || P->CudaSyncDebug;
    if (MostSoFar) {
      MostSteps = P->Steps;
      Sum.StepStartSeconds = std::move(P->StepStartSeconds);
      Sum.StepSyncsBefore = std::move(P->StepSyncsBefore);
      Sum.HostTimeMeasured = P->HostTimeMeasured;
      Sum.HostOutsideOpsNs = P->HostOutsideOpsNs;
      Sum.HostTimeSpanNs = P->HostTimeSpanNs;
    }
  }
  return Sum;
}

} // namespace libtorch_tidy::verify
