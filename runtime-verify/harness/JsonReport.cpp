//===--- JsonReport.cpp - The JSON report of verify -----------------------===//
//
// Part of libtorch-tidy. SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

#include "DeviceMetrics.h"
#include "Report.h"

namespace libtorch_tidy::verify {

namespace {

nlohmann::json summaryJson(const VariantSummary &V) {
  nlohmann::json J = {
      {"runs_ok", V.RunsOk},
      {"wall_s",
       {{"median", V.WallMedian}, {"min", V.WallMin}, {"max", V.WallMax}}},
      {"steps_per_s",
       {{"median", V.StepsPerSecondMedian},
        {"min", V.StepsPerSecondMin},
        {"max", V.StepsPerSecondMax}}},
      {"steps", V.StepsMedian},
      {"host_syncs_per_step", V.HostSyncsPerStep},
      {"local_scalar_dense_per_step", V.LocalScalarDensePerStep},
      {"device_to_host_per_step", V.DeviceToHostPerStep},
      {"h2d_blocking_per_step", V.H2DBlockingPerStep},
      {"h2d_non_blocking_per_step", V.H2DNonBlockingPerStep},
      {"cuda_sync_debug", V.CudaSyncDebug},
      {"cuda_sync_warnings_per_step", V.CudaSyncWarningsPerStep},
      {"cpu_util_mean_percent", V.CpuMean},
  };
  auto Opt = [](const std::optional<double> &X) {
    return X ? nlohmann::json(*X) : nlohmann::json(nullptr);
  };
  J["gpu_util_percent"] = {
      {"mean", Opt(V.GpuMean)}, {"p5", Opt(V.GpuP5)}, {"p95", Opt(V.GpuP95)}};
  J["gpu_memory_peak_mib"] = Opt(V.GpuPeakMiB);
  // Measured at the CUDA runtime: null (not measured) where no GPU was used,
  // never a 0 that reads as "none".
  auto IfGpu = [&](double X) {
    return V.GpuUsed ? nlohmann::json(X) : nlohmann::json(nullptr);
  };
  J["gpu_used"] = V.GpuUsed;
  J["h2d_non_blocking_pageable_per_step"] =
      IfGpu(V.H2DNonBlockingPageablePerStep);
  J["h2d_non_blocking_pinned_per_step"] =
      IfGpu(V.H2DNonBlockingPerStep - V.H2DNonBlockingPageablePerStep);
  J["cuda_runtime_syncs_per_step"] = IfGpu(V.CudaRuntimeSyncsPerStep);
  J["cuda_runtime_d2h_per_step"] = IfGpu(V.CudaRuntimeD2HPerStep);
  J["cuda_runtime_h2d_pinned_per_step"] = IfGpu(V.H2DPinnedPerStep);
  J["cuda_runtime_h2d_pageable_per_step"] = IfGpu(V.H2DPageablePerStep);
  J["kernel_launches_per_step"] = IfGpu(V.KernelLaunchesPerStep);
  J["no_kernel_share_percent"] = Opt(V.NoKernelSharePercent);
  // An upper bound on data loading: the training thread's host time outside
  // LibTorch ops (data loading and the program's own host code).
  J["host_outside_ops_share_percent"] = Opt(V.HostOutsideOpsSharePercent);
  J["data_loading_share_threshold_percent"] = DataLoadingShareThresholdPercent;
  J["data_loading_share_below_threshold"] =
      V.HostOutsideOpsSharePercent
          ? nlohmann::json(*V.HostOutsideOpsSharePercent <
                           DataLoadingShareThresholdPercent)
          : nlohmann::json(nullptr);
  return J;
}

} // namespace

nlohmann::json jsonReport(const Session &S) {
  nlohmann::json J;
  J["version"] = 1;
  J["command"] = S.RunCommand;
  J["runs_per_variant"] = S.Runs;
  J["timeout_s"] = S.TimeoutSeconds;
  J["probe"] = S.ProbeEnabled;
  J["gpu"] = S.GpuDescription;
  J["libtorch"] = {{"version", S.LibTorchVersion},
                   {"prefix", S.LibTorchDir},
                   {"probe_built_for_run", S.ProbeBuiltForRun}};
  if (!S.PreparedWithLibTorch.empty())
    J["libtorch"]["prepared_with"] = S.PreparedWithLibTorch;
  J["ok"] = S.Errors.empty();
  J["scratch_dir"] = S.ScratchDir;
  J["scratch_kept"] = S.ScratchKept;
  J["errors"] = S.Errors;
  J["warnings"] = S.Warnings;
  J["findings"] = nlohmann::json::array();
  for (const Finding &F : S.Findings)
    J["findings"].push_back({{"check", F.Check},
                             {"file", F.File},
                             {"line", F.Line},
                             {"message", F.Message},
                             {"fix_applied", F.HasFix}});
  J["builds"] = nlohmann::json::array();
  for (const BuildRecord &B : S.Builds)
    J["builds"].push_back({{"variant", B.Variant},
                           {"command", B.Command},
                           {"ok", B.Ok},
                           {"log_tail", B.Ok ? "" : B.Log}});
  J["summary"] = {{"original", summaryJson(summarize(S, "original"))},
                  {"fixed", summaryJson(summarize(S, "fixed"))}};
  J["finding_effects"] = nlohmann::json::array();
  for (const FindingEffect &E : findingEffects(S)) {
    auto Opt = [](const std::optional<double> &X) {
      return X ? nlohmann::json(*X) : nlohmann::json(nullptr);
    };
    J["finding_effects"].push_back({{"where", E.Where},
                                    {"check", E.Check},
                                    {"metric", E.MetricName},
                                    {"original", Opt(E.Original)},
                                    {"fixed", Opt(E.Fixed)},
                                    {"status", E.Status},
                                    {"verdict", E.Verdict}});
  }
  J["runs"] = nlohmann::json::array();
  for (const RunRecord &R : S.RunsDone) {
    const std::optional<double> OutsideOps = hostOutsideOpsSharePercent(R);
    nlohmann::json Run = {
        {"variant", R.Variant},
        {"index", R.Index},
        {"ok", R.Failure.empty()},
        {"failure", R.Failure},
        {"status", R.Process.describe(S.TimeoutSeconds)},
        {"exit_code", R.Process.ExitCode},
        {"signal", R.Process.Signal},
        {"timed_out", R.Process.TimedOut},
        {"left_children", R.Process.LeftChildren},
        {"leftover_processes", R.Process.Leftovers},
        {"wall_s", R.Process.WallSeconds},
        {"steps_per_s", R.stepsPerSecond()},
        {"host_outside_ops_share_percent",
         OutsideOps ? nlohmann::json(*OutsideOps) : nlohmann::json(nullptr)},
        {"output_tail", R.OutputTail},
    };
    Run["probe"] = {
        {"present", R.Probe.Present},
        {"steps", R.Probe.Steps},
        {"host_syncs", R.Probe.HostSyncs},
        {"local_scalar_dense", R.Probe.LocalScalarDense},
        {"device_to_host", R.Probe.DeviceToHost},
        {"h2d_blocking", R.Probe.HostToDeviceBlocking},
        {"h2d_non_blocking", R.Probe.HostToDeviceNonBlocking},
        {"h2d_non_blocking_pageable", R.Probe.HostToDeviceNonBlockingPageable},
        {"cuda_sync_warnings", R.Probe.CudaSyncWarnings},
        {"cuda_runtime_calls", R.Probe.CudaRuntimeCalls},
        {"cuda_runtime_host_syncs", R.Probe.CudaRuntimeHostSyncs},
        {"cuda_runtime_d2h", R.Probe.CudaRuntimeDeviceToHost},
        {"cuda_runtime_h2d_pinned", R.Probe.CudaRuntimeH2DPinned},
        {"cuda_runtime_h2d_pageable", R.Probe.CudaRuntimeH2DPageable},
        {"kernel_launches", R.Probe.KernelLaunches},
        {"step_start_s", R.Probe.StepStartSeconds},
        {"host_time_measured", R.Probe.HostTimeMeasured},
        {"host_outside_ops_ns", R.Probe.HostOutsideOpsNs},
        {"host_time_span_ns", R.Probe.HostTimeSpanNs},
        {"processes", R.Probe.Raw}};
    Run["cpu_samples"] = nlohmann::json::array();
    for (const CpuSample &C : R.Cpu)
      Run["cpu_samples"].push_back({C.Seconds, C.Percent});
    Run["gpu_samples"] = nlohmann::json::array();
    for (const GpuSample &G : R.Gpu)
      Run["gpu_samples"].push_back({G.Seconds, G.UtilPercent, G.MemoryUsedMiB});
    J["runs"].push_back(std::move(Run));
  }
  return J;
}

} // namespace libtorch_tidy::verify
