//===--- DeviceMetrics.h - What GPU profilers report, per run ---*- C++ -*-===//
//
// Part of libtorch-tidy. SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//
//
// The figures that GPU profilers put first, computed from what verify
// measures: the share of the steps in which no kernel runs (from NVML's
// utilization, which is the share of each sample period in which a kernel
// ran), whether a change between the variants is beyond the runs' spread,
// and a Chrome trace (the JSON format of chrome://tracing, Perfetto and the
// PyTorch profiler) of a run, one ProfilerStep#N range per step.
//
//===----------------------------------------------------------------------===//

#ifndef LIBTORCH_TIDY_RUNTIME_VERIFY_HARNESS_DEVICEMETRICS_H
#define LIBTORCH_TIDY_RUNTIME_VERIFY_HARNESS_DEVICEMETRICS_H

#include "RunData.h"

#include <optional>
#include <string>
#include <vector>

namespace libtorch_tidy::verify {

/// 100 less the mean NVML utilization of the samples taken while the run
/// stepped (its first to its last step start, the probe's clock, seconds
/// since the program started); nothing without such a sample.
std::optional<double> noKernelSharePercent(const RunRecord &R);

/// The training thread's host time outside LibTorch ops and backward passes
/// (data loading and the program's own host code) in percent of the time
/// from the first to the last step start; nothing when the probe did not
/// measure it. An upper bound on the data loader's share of the step.
std::optional<double> hostOutsideOpsSharePercent(const RunRecord &R);

/// The DataLoader-share threshold of GPU profilers: data loading under 5 %
/// of the step (the PyTorch profiler's TensorBoard plugin; XProf calls a
/// program input bound from 5 % on).
constexpr double DataLoadingShareThresholdPercent = 5;

/// "reached" or "not reached" for a host-outside-ops share; "not measured"
/// without one.
std::string dataLoadingVerdict(const std::optional<double> &SharePercent);

/// Whether a metric moved beyond the noise of the runs.
enum class Change {
  Real,        ///< the variants' ranges (min-max over runs) do not overlap
  WithinNoise, ///< they overlap
  NoChange,    ///< every run measured the same value in both variants
  CannotTell   ///< fewer than two runs of a variant
};
Change changeBeyondNoise(const std::vector<double> &Original,
                         const std::vector<double> &Fixed);
/// "real (beyond the runs' spread)", "within the runs' spread"...
const char *describe(Change C);

/// The Chrome trace JSON of one run: a ProfilerStep#N complete event per
/// step (its host syncs in args), the CPU and GPU utilization as counters.
std::string chromeTrace(const RunRecord &R, const std::string &ProcessName);

} // namespace libtorch_tidy::verify

#endif
