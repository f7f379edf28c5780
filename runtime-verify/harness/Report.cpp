//===--- Report.cpp - Text and JSON reports of verify ---------------------===//
//
// Part of libtorch-tidy. SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

#include "Report.h"
#include "DeviceMetrics.h"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>

namespace libtorch_tidy::verify {

double RunRecord::stepsPerSecond() const {
  // Over the stepping itself when the probe saw the steps: process start-up
  // (loading LibTorch) and the final evaluation are not training throughput.
  const auto &T = Probe.StepStartSeconds;
  if (T.size() >= 2 && T.back() > T.front())
    return static_cast<double>(T.size() - 1) / (T.back() - T.front());
  if (Process.WallSeconds > 0)
    return static_cast<double>(Probe.Steps) / Process.WallSeconds;
  return 0;
}

double percentile(std::vector<double> Values, double P) {
  if (Values.empty())
    return 0;
  std::sort(Values.begin(), Values.end());
  const double Pos = P / 100.0 * static_cast<double>(Values.size() - 1);
  const size_t Lo = static_cast<size_t>(std::floor(Pos));
  const size_t Hi = std::min(Lo + 1, Values.size() - 1);
  return Values[Lo] +
         (Values[Hi] - Values[Lo]) * (Pos - static_cast<double>(Lo));
}

VariantSummary summarize(const Session &S, const std::string &Variant) {
  VariantSummary V;
  V.Variant = Variant;
  std::vector<double> Wall, Sps, Steps, Syncs, Lsd, D2H, H2DB, H2DN, Warn, Cpu,
      Gpu, Mem, H2DNPageable, RtSyncs, RtD2H, RtPinned, RtPageable, Launches,
      NoKernel, HostOutside;
  for (const RunRecord &R : S.RunsDone) {
    if (R.Variant != Variant || !R.Failure.empty())
      continue;
    ++V.RunsOk;
    Wall.push_back(R.Process.WallSeconds);
    Sps.push_back(R.stepsPerSecond());
    const double N = static_cast<double>(R.Probe.Steps);
    Steps.push_back(N);
    auto PerStep = [&](uint64_t X) {
      return N > 0 ? static_cast<double>(X) / N : 0.0;
    };
    Syncs.push_back(PerStep(R.Probe.HostSyncs));
    Lsd.push_back(PerStep(R.Probe.LocalScalarDense));
    D2H.push_back(PerStep(R.Probe.DeviceToHost));
    H2DB.push_back(PerStep(R.Probe.HostToDeviceBlocking));
    H2DN.push_back(PerStep(R.Probe.HostToDeviceNonBlocking));
    Warn.push_back(PerStep(R.Probe.CudaSyncWarnings));
    H2DNPageable.push_back(PerStep(R.Probe.HostToDeviceNonBlockingPageable));
    RtSyncs.push_back(PerStep(R.Probe.CudaRuntimeHostSyncs));
    RtD2H.push_back(PerStep(R.Probe.CudaRuntimeDeviceToHost));
    RtPinned.push_back(PerStep(R.Probe.CudaRuntimeH2DPinned));
    RtPageable.push_back(PerStep(R.Probe.CudaRuntimeH2DPageable));
    Launches.push_back(PerStep(R.Probe.KernelLaunches));
    V.GpuUsed = V.GpuUsed || R.Probe.CudaRuntimeCalls > 0;
    if (std::optional<double> Idle = noKernelSharePercent(R))
      NoKernel.push_back(*Idle);
    if (std::optional<double> Outside = hostOutsideOpsSharePercent(R))
      HostOutside.push_back(*Outside);
    V.CudaSyncDebug = V.CudaSyncDebug || R.Probe.CudaSyncDebug;
    for (const CpuSample &C : R.Cpu)
      Cpu.push_back(C.Percent);
    for (const GpuSample &G : R.Gpu) {
      Gpu.push_back(G.UtilPercent);
      Mem.push_back(G.MemoryUsedMiB);
    }
  }
  auto Median = [](const std::vector<double> &X) { return percentile(X, 50); };
  auto Min = [](const std::vector<double> &X) {
    return X.empty() ? 0 : *std::min_element(X.begin(), X.end());
  };
  auto Max = [](const std::vector<double> &X) {
    return X.empty() ? 0 : *std::max_element(X.begin(), X.end());
  };
  V.WallMedian = Median(Wall);
  V.WallMin = Min(Wall);
  V.WallMax = Max(Wall);
  V.StepsPerSecondMedian = Median(Sps);
  V.StepsPerSecondMin = Min(Sps);
  V.StepsPerSecondMax = Max(Sps);
  V.StepsMedian = Median(Steps);
  V.HostSyncsPerStep = Median(Syncs);
  V.LocalScalarDensePerStep = Median(Lsd);
  V.DeviceToHostPerStep = Median(D2H);
  V.H2DBlockingPerStep = Median(H2DB);
  V.H2DNonBlockingPerStep = Median(H2DN);
  V.CudaSyncWarningsPerStep = Median(Warn);
  V.H2DNonBlockingPageablePerStep = Median(H2DNPageable);
  V.CudaRuntimeSyncsPerStep = Median(RtSyncs);
  V.CudaRuntimeD2HPerStep = Median(RtD2H);
  V.H2DPinnedPerStep = Median(RtPinned);
  V.H2DPageablePerStep = Median(RtPageable);
  V.KernelLaunchesPerStep = Median(Launches);
  if (!NoKernel.empty())
    V.NoKernelSharePercent = Median(NoKernel);
  if (!HostOutside.empty())
    V.HostOutsideOpsSharePercent = Median(HostOutside);
  double CpuSum = 0;
  for (double C : Cpu)
    CpuSum += C;
  V.CpuMean = Cpu.empty() ? 0 : CpuSum / static_cast<double>(Cpu.size());
  if (!Gpu.empty()) {
    double Sum = 0;
    for (double G : Gpu)
      Sum += G;
    V.GpuMean = Sum / static_cast<double>(Gpu.size());
    V.GpuP5 = percentile(Gpu, 5);
    V.GpuP95 = percentile(Gpu, 95);
    V.GpuPeakMiB = Max(Mem);
  }
  return V;
}

std::string ratio(double Fixed, double Original) {
  if (Original == 0)
    return Fixed == 0 ? "=" : "-";
  return fmt::format("{:.2f}x", Fixed / Original);
}

const RunRecord *medianRun(const Session &S, const std::string &Variant) {
  std::vector<const RunRecord *> Ok;
  for (const RunRecord &R : S.RunsDone)
    if (R.Variant == Variant && R.Failure.empty())
      Ok.push_back(&R);
  if (Ok.empty())
    return nullptr;
  std::sort(Ok.begin(), Ok.end(), [](const RunRecord *A, const RunRecord *B) {
    return A->Process.WallSeconds < B->Process.WallSeconds;
  });
  return Ok[(Ok.size() - 1) / 2];
}

namespace {

double metricValue(const VariantSummary &V, Metric M) {
  switch (M) {
  case Metric::LocalScalarDensePerStep:
    return V.LocalScalarDensePerStep;
  case Metric::HostSyncsPerStep:
    return V.HostSyncsPerStep;
  case Metric::BlockingH2DPerStep:
    // A non_blocking copy from pageable memory is synchronous all the same:
    // a fix that adds non_blocking without pinning has not removed it.
    return V.H2DBlockingPerStep + V.H2DNonBlockingPageablePerStep;
  case Metric::H2DPerStep:
    return V.H2DBlockingPerStep + V.H2DNonBlockingPerStep;
  case Metric::StepsPerSecond:
    return V.StepsPerSecondMedian;
  }
  return 0;
}

const char *metricName(Metric M) {
  switch (M) {
  case Metric::LocalScalarDensePerStep:
    return "_local_scalar_dense per step";
  case Metric::HostSyncsPerStep:
    return "host syncs per step";
  case Metric::BlockingH2DPerStep:
    return "blocking H2D copies per step (pageable non_blocking included)";
  case Metric::H2DPerStep:
    return "H2D copies per step";
  case Metric::StepsPerSecond:
    return "steps/s";
  }
  return "";
}

std::string fileName(const std::string &Path) {
  const size_t Slash = Path.rfind('/');
  return Slash == std::string::npos ? Path : Path.substr(Slash + 1);
}

std::string gpuCell(const std::optional<double> &V, const char *Format) {
  return V ? fmt::format(fmt::runtime(Format), *V) : "no GPU";
}

} // namespace

double runMetric(const RunRecord &R, Metric M) {
  const double N = static_cast<double>(R.Probe.Steps);
  auto PerStep = [&](uint64_t X) {
    return N > 0 ? static_cast<double>(X) / N : 0.0;
  };
  switch (M) {
  case Metric::LocalScalarDensePerStep:
    return PerStep(R.Probe.LocalScalarDense);
  case Metric::HostSyncsPerStep:
    return PerStep(R.Probe.HostSyncs);
  case Metric::BlockingH2DPerStep:
    return PerStep(R.Probe.HostToDeviceBlocking +
                   R.Probe.HostToDeviceNonBlockingPageable);
  case Metric::H2DPerStep:
    return PerStep(R.Probe.HostToDeviceBlocking +
                   R.Probe.HostToDeviceNonBlocking);
  case Metric::StepsPerSecond:
    return R.stepsPerSecond();
  }
  return 0;
}

std::vector<FindingEffect> findingEffects(const Session &S) {
  const VariantSummary O = summarize(S, "original");
  const VariantSummary F = summarize(S, "fixed");
  const bool Measured = O.RunsOk > 0 && F.RunsOk > 0;
  std::vector<FindingEffect> Effects;
  for (const Finding &Fd : S.Findings) {
    FindingEffect E;
    E.Where = fmt::format("{}:{}", fileName(Fd.File), Fd.Line);
    E.Check = Fd.Check;
    if (!Fd.HasFix) {
      E.Status = "no fix-it (a note or a message only), not applied";
      Effects.push_back(std::move(E));
      continue;
    }
    const Metric M = metricOf(Fd.Check);
    E.MetricName = metricName(M);
    if (!Measured || (!S.ProbeEnabled && M != Metric::StepsPerSecond))
      E.Status = fmt::format("fix-it applied, {} not measured", E.MetricName);
    else {
      E.Original = metricValue(O, M);
      E.Fixed = metricValue(F, M);
      std::vector<double> PerRun[2];
      for (const RunRecord &R : S.RunsDone)
        if (R.Failure.empty())
          PerRun[R.Variant == "fixed"].push_back(runMetric(R, M));
      E.Verdict = describe(changeBeyondNoise(PerRun[0], PerRun[1]));
    }
    Effects.push_back(std::move(E));
  }
  return Effects;
}

std::string textReport(const Session &S) {
  std::string Out;
  const VariantSummary O = summarize(S, "original");
  const VariantSummary F = summarize(S, "fixed");
  Out += fmt::format("libtorch-tidy verify: {} run(s) per variant, GPU: {}, "
                     "LibTorch: {}\n",
                     S.Runs, S.GpuDescription,
                     S.LibTorchVersion.empty()
                         ? std::string("unknown (no Torch_DIR in the build)")
                         : S.LibTorchVersion + " (" + S.LibTorchDir + ")");
  if (!S.PreparedWithLibTorch.empty())
    Out += fmt::format("bundle prepared with LibTorch {}\n",
                       S.PreparedWithLibTorch);
  if (S.ProbeBuiltForRun)
    Out += "probe built for this LibTorch (the installed one links another)\n";
  if (!S.ProbeEnabled)
    Out += "probe disabled (--no-probe): no per-step counts\n";
  Out += "\n";
  const std::string Row = "{:<34} {:>18} {:>18} {:>8}\n";
  Out += fmt::format(fmt::runtime(Row), "", "original", "fixed", "ratio");
  auto Line = [&](const std::string &Name, const std::string &A,
                  const std::string &B, const std::string &R) {
    Out += fmt::format(fmt::runtime(Row), Name, A, B, R);
  };
  auto Num = [](double X) { return fmt::format("{:.3g}", X); };
  Line("runs completed", fmt::format("{}/{}", O.RunsOk, S.Runs),
       fmt::format("{}/{}", F.RunsOk, S.Runs), "");
  Line("wall time s (median)", fmt::format("{:.2f}", O.WallMedian),
       fmt::format("{:.2f}", F.WallMedian), ratio(F.WallMedian, O.WallMedian));
  Line("wall time s (min-max)",
       fmt::format("{:.2f}-{:.2f}", O.WallMin, O.WallMax),
       fmt::format("{:.2f}-{:.2f}", F.WallMin, F.WallMax), "");
  if (S.ProbeEnabled) {
    Line("steps (backward passes)", Num(O.StepsMedian), Num(F.StepsMedian), "");
    Line("steps/s (median)", fmt::format("{:.2f}", O.StepsPerSecondMedian),
         fmt::format("{:.2f}", F.StepsPerSecondMedian),
         ratio(F.StepsPerSecondMedian, O.StepsPerSecondMedian));
    Line("steps/s (min-max)",
         fmt::format("{:.2f}-{:.2f}", O.StepsPerSecondMin, O.StepsPerSecondMax),
         fmt::format("{:.2f}-{:.2f}", F.StepsPerSecondMin, F.StepsPerSecondMax),
         "");
    Line("host syncs per step", Num(O.HostSyncsPerStep),
         Num(F.HostSyncsPerStep),
         ratio(F.HostSyncsPerStep, O.HostSyncsPerStep));
    Line("  _local_scalar_dense per step", Num(O.LocalScalarDensePerStep),
         Num(F.LocalScalarDensePerStep),
         ratio(F.LocalScalarDensePerStep, O.LocalScalarDensePerStep));
    Line("  device-to-host copies per step", Num(O.DeviceToHostPerStep),
         Num(F.DeviceToHostPerStep),
         ratio(F.DeviceToHostPerStep, O.DeviceToHostPerStep));
    Line("H2D copies per step (blocking)", Num(O.H2DBlockingPerStep),
         Num(F.H2DBlockingPerStep),
         ratio(F.H2DBlockingPerStep, O.H2DBlockingPerStep));
    Line("H2D copies per step (non_blocking)", Num(O.H2DNonBlockingPerStep),
         Num(F.H2DNonBlockingPerStep),
         ratio(F.H2DNonBlockingPerStep, O.H2DNonBlockingPerStep));
    Line("CUDA sync warnings per step",
         O.CudaSyncDebug ? Num(O.CudaSyncWarningsPerStep) : "CPU build",
         F.CudaSyncDebug ? Num(F.CudaSyncWarningsPerStep) : "CPU build", "");
  }
  // Measured at the CUDA runtime: only a run that used a GPU has them.
  const char *NoGpu = "not measured (no GPU)";
  auto Gpu = [&](const VariantSummary &V, double X) {
    return V.GpuUsed ? Num(X) : std::string(NoGpu);
  };
  if (S.ProbeEnabled) {
    Line("  of non_blocking: pageable (sync)",
         Gpu(O, O.H2DNonBlockingPageablePerStep),
         Gpu(F, F.H2DNonBlockingPageablePerStep), "");
    Line("CUDA runtime host syncs per step", Gpu(O, O.CudaRuntimeSyncsPerStep),
         Gpu(F, F.CudaRuntimeSyncsPerStep), "");
    Line("CUDA runtime D2H copies per step", Gpu(O, O.CudaRuntimeD2HPerStep),
         Gpu(F, F.CudaRuntimeD2HPerStep), "");
    Line("CUDA runtime H2D pinned per step", Gpu(O, O.H2DPinnedPerStep),
         Gpu(F, F.H2DPinnedPerStep), "");
    Line("CUDA runtime H2D pageable per step", Gpu(O, O.H2DPageablePerStep),
         Gpu(F, F.H2DPageablePerStep), "");
    Line("kernel launches per step", Gpu(O, O.KernelLaunchesPerStep),
         Gpu(F, F.KernelLaunchesPerStep), "");
  }
  Line("no-kernel share of steps %",
       O.NoKernelSharePercent ? fmt::format("{:.0f}", *O.NoKernelSharePercent)
                              : NoGpu,
       F.NoKernelSharePercent ? fmt::format("{:.0f}", *F.NoKernelSharePercent)
                              : NoGpu,
       "");
  // Measured by the probe on any device; the share of the step a data loader
  // could take at most, held to the DataLoader-share threshold.
  auto Share = [](const std::optional<double> &X) {
    return X ? fmt::format("{:.1f}", *X) : std::string("not measured");
  };
  Line("host time outside LibTorch ops %", Share(O.HostOutsideOpsSharePercent),
       Share(F.HostOutsideOpsSharePercent), "");
  Out += "  (data loading and the program's own host code, % of the step)\n";
  Line(fmt::format("  < {:.0f} % (the DataLoader-share threshold)",
                   DataLoadingShareThresholdPercent),
       dataLoadingVerdict(O.HostOutsideOpsSharePercent),
       dataLoadingVerdict(F.HostOutsideOpsSharePercent), "");
  Line("CPU utilization % (mean, 1 core=100)", fmt::format("{:.0f}", O.CpuMean),
       fmt::format("{:.0f}", F.CpuMean), ratio(F.CpuMean, O.CpuMean));
  Line("GPU utilization % (mean)", gpuCell(O.GpuMean, "{:.0f}"),
       gpuCell(F.GpuMean, "{:.0f}"), "");
  Line("GPU utilization % (p5/p95)",
       O.GpuP5 ? fmt::format("{:.0f}/{:.0f}", *O.GpuP5, *O.GpuP95) : "no GPU",
       F.GpuP5 ? fmt::format("{:.0f}/{:.0f}", *F.GpuP5, *F.GpuP95) : "no GPU",
       "");
  Line("GPU memory peak MiB", gpuCell(O.GpuPeakMiB, "{:.0f}"),
       gpuCell(F.GpuPeakMiB, "{:.0f}"), "");

  Out += "\nfindings:\n";
  if (S.Findings.empty())
    Out += "  none\n";
  for (const FindingEffect &E : findingEffects(S)) {
    if (E.Original)
      Out +=
          fmt::format("  {} {}: {} {:.3g} -> {:.3g} ({})\n", E.Where, E.Check,
                      E.MetricName, *E.Original, *E.Fixed, E.Verdict);
    else
      Out += fmt::format("  {} {}: {}\n", E.Where, E.Check, E.Status);
  }
  const bool Measured = O.RunsOk > 0 && F.RunsOk > 0;
  if (Measured && S.ProbeEnabled && O.StepsMedian != F.StepsMedian)
    Out += fmt::format("\nwarning: the variants ran different numbers of "
                       "steps ({} and {}): the per-step figures compare "
                       "different work\n",
                       O.StepsMedian, F.StepsMedian);
  for (const std::string &W : S.Warnings)
    Out += fmt::format("warning: {}\n", W);
  for (const std::string &E : S.Errors)
    Out += fmt::format("error: {}\n", E);
  if (!S.ScratchDir.empty() && S.ScratchKept)
    Out += fmt::format("scratch copy kept in {}\n", S.ScratchDir);
  return Out;
}

} // namespace libtorch_tidy::verify
