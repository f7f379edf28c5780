//===--- Report.h - Text, JSON and HTML reports of verify -------*- C++ -*-===//
//
// Part of libtorch-tidy. SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

#ifndef LIBTORCH_TIDY_VERIFY_REPORT_H
#define LIBTORCH_TIDY_VERIFY_REPORT_H

#include "RunData.h"

#include <optional>
#include <string>

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
};

VariantSummary summarize(const Session &S, const std::string &Variant);

std::string textReport(const Session &S);
nlohmann::json jsonReport(const Session &S);
std::string htmlReport(const Session &S);

/// Percentile (0..100) by linear interpolation; 0 for no values.
double percentile(std::vector<double> Values, double P);

} // namespace libtorch_tidy::verify

#endif
