//===--- Report.h - Text, JSON and HTML reports of verify -------*- C++ -*-===//
//
// Part of libtorch-tidy. SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

#ifndef LIBTORCH_TIDY_RUNTIME_VERIFY_HARNESS_REPORT_H
#define LIBTORCH_TIDY_RUNTIME_VERIFY_HARNESS_REPORT_H

#include "RunData.h"

#include <optional>
#include <string>
#include <vector>

namespace libtorch_tidy::verify {

/// Median, spread and per-step figures of one variant's successful runs.
struct VariantSummary {
  std::string Variant;
  unsigned RunsOk = 0;
  double WallMedian = 0, WallMin = 0, WallMax = 0;
  double StepsPerSecondMedian = 0, StepsPerSecondMin = 0, StepsPerSecondMax = 0;
  double StepsMedian = 0;
  double HostSyncsPerStep = 0, LocalScalarDensePerStep = 0;
  double DeviceToHostPerStep = 0;
  double H2DBlockingPerStep = 0, H2DNonBlockingPerStep = 0;
  double CudaSyncWarningsPerStep = 0;
  bool CudaSyncDebug = false;
  double CpuMean = 0;
  std::optional<double> GpuMean, GpuP5, GpuP95, GpuPeakMiB;
  /// non_blocking H2D copies whose source was pageable (LibTorch level).
  double H2DNonBlockingPageablePerStep = 0;
  /// At the CUDA runtime; meaningful only when GpuUsed.
  bool GpuUsed = false;
  double CudaRuntimeSyncsPerStep = 0, CudaRuntimeD2HPerStep = 0;
  double H2DPinnedPerStep = 0, H2DPageablePerStep = 0;
  double KernelLaunchesPerStep = 0;
  /// Share of the stepping in which no kernel ran (NVML), median over runs.
  std::optional<double> NoKernelSharePercent;
  /// The training thread's host time outside LibTorch ops, in percent of
  /// the steps' time (DeviceMetrics.h), median over the runs that measured
  /// it; unset when none did.
  std::optional<double> HostOutsideOpsSharePercent;
};

VariantSummary summarize(const Session &S, const std::string &Variant);

/// One finding and the figure its fix-it should move, as the text and HTML
/// reports show it.
struct FindingEffect {
  std::string Where; ///< "train.cpp:44"
  std::string Check;
  std::string MetricName; ///< "host syncs per step"; empty without a fix-it
  /// Set when both variants were measured on that metric.
  std::optional<double> Original, Fixed;
  /// Without figures: why ("no fix-it (a note or a message only), not
  /// applied", "fix-it applied, steps/s not measured").
  std::string Status;
  /// Whether the change is beyond the runs' spread (DeviceMetrics.h).
  std::string Verdict;
};

/// The value of \p M in one run (its per-step figure, or its steps/s).
double runMetric(const RunRecord &R, Metric M);

std::vector<FindingEffect> findingEffects(const Session &S);

/// "2.00x", "=" (both 0) or "-" (no original figure).
std::string ratio(double Fixed, double Original);

/// The successful run of \p Variant with the median wall time (the lower
/// one of an even count); null when none succeeded.
const RunRecord *medianRun(const Session &S, const std::string &Variant);

std::string textReport(const Session &S);
nlohmann::json jsonReport(const Session &S);
std::string htmlReport(const Session &S);

/// Percentile (0..100) by linear interpolation; 0 for no values.
double percentile(std::vector<double> Values, double P);

} // namespace libtorch_tidy::verify

#endif
