//===--- DeviceMetrics.cpp - What GPU profilers report, per run -----------===//
//
// Part of libtorch-tidy. SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

#include "DeviceMetrics.h"
#include "Report.h"

#include <algorithm>
#include <cmath>

namespace libtorch_tidy::verify {

std::optional<double> noKernelSharePercent(const RunRecord &R) {
  const std::vector<double> &Steps = R.Probe.StepStartSeconds;
  if (Steps.size() < 2 || R.Gpu.empty())
    return std::nullopt;
  // NVML reports the share of its last sample period (1/6 s to 1 s, by
  // device) in which a kernel ran; a sample taken up to one period after
  // the last step start still covers stepping.
  double Sum = 0;
  size_t N = 0;
  for (const GpuSample &G : R.Gpu)
    if (G.Seconds >= Steps.front() && G.Seconds <= Steps.back() + 0.2) {
      Sum += 100.0 - G.UtilPercent;
      ++N;
    }
  if (N == 0)
    return std::nullopt;
  return Sum / static_cast<double>(N);
}

std::optional<double> hostOutsideOpsSharePercent(const RunRecord &R) {
  if (!R.Probe.HostTimeMeasured || R.Probe.HostTimeSpanNs == 0)
    return std::nullopt;
  return 100.0 * static_cast<double>(R.Probe.HostOutsideOpsNs) /
         static_cast<double>(R.Probe.HostTimeSpanNs);
}

std::string dataLoadingVerdict(const std::optional<double> &SharePercent) {
  if (!SharePercent)
    return "not measured";
  return *SharePercent < DataLoadingShareThresholdPercent ? "reached"
                                                          : "not reached";
}

Change changeBeyondNoise(const std::vector<double> &Original,
                         const std::vector<double> &Fixed) {
  if (Original.empty() || Fixed.empty())
    return Change::CannotTell;
  const auto [OMin, OMax] =
      std::minmax_element(Original.begin(), Original.end());
  const auto [FMin, FMax] = std::minmax_element(Fixed.begin(), Fixed.end());
  if (*OMin == *OMax && *FMin == *FMax && *OMin == *FMin)
    return Change::NoChange;
  if (Original.size() < 2 || Fixed.size() < 2)
    return Change::CannotTell;
  return *FMax < *OMin || *FMin > *OMax ? Change::Real : Change::WithinNoise;
}

const char *describe(Change C) {
  switch (C) {
  case Change::Real:
    return "real: beyond the runs' spread";
  case Change::WithinNoise:
    return "within the runs' spread: not shown to be real";
  case Change::NoChange:
    return "no change";
  case Change::CannotTell:
    return "cannot tell: needs two runs or more per variant (--runs)";
  }
  return "";
}

std::string chromeTrace(const RunRecord &R, const std::string &ProcessName) {
  nlohmann::json Events = nlohmann::json::array();
  // One process per trace: the measured program's main thread.
  const int Pid = 1;
  Events.push_back({{"ph", "M"},
                    {"name", "process_name"},
                    {"pid", Pid},
                    {"tid", 0},
                    {"args", {{"name", ProcessName}}}});
  const std::vector<double> &T = R.Probe.StepStartSeconds;
  const std::vector<uint64_t> &Syncs = R.Probe.StepSyncsBefore;
  std::vector<double> Durations;
  for (size_t I = 0; I + 1 < T.size(); ++I)
    Durations.push_back(T[I + 1] - T[I]);
  // The last step has no next start: it lasts as long as the median step.
  const double LastDuration = percentile(Durations, 50);
  for (size_t I = 0; I < T.size(); ++I) {
    const double End = I + 1 < T.size() ? T[I + 1] : T[I] + LastDuration;
    nlohmann::json Args = nlohmann::json::object();
    if (I + 1 < Syncs.size())
      Args["host_syncs"] = Syncs[I + 1] - Syncs[I];
    // PyTorch's profiler names its step ranges so, in the user_annotation
    // category; trace viewers and HTA split a trace into steps by them.
    Events.push_back({{"ph", "X"},
                      {"cat", "user_annotation"},
                      {"name", "ProfilerStep#" + std::to_string(I)},
                      {"pid", Pid},
                      {"tid", Pid},
                      {"ts", std::llround(T[I] * 1e6)},
                      {"dur", std::llround((End - T[I]) * 1e6)},
                      {"args", Args}});
  }
  for (const CpuSample &C : R.Cpu)
    Events.push_back({{"ph", "C"},
                      {"name", "CPU utilization %"},
                      {"pid", Pid},
                      {"ts", std::llround(C.Seconds * 1e6)},
                      {"args", {{"percent", C.Percent}}}});
  for (const GpuSample &G : R.Gpu)
    Events.push_back({{"ph", "C"},
                      {"name", "GPU utilization %"},
                      {"pid", Pid},
                      {"ts", std::llround(G.Seconds * 1e6)},
                      {"args", {{"percent", G.UtilPercent}}}});
  nlohmann::json Trace = {
      {"traceEvents", Events}, {"displayTimeUnit", "ms"}, {"schemaVersion", 1}};
  return Trace.dump() + "\n";
}

} // namespace libtorch_tidy::verify
