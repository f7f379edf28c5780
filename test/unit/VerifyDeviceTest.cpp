//===--- VerifyDeviceTest.cpp - verify's bundles and device metrics -------===//
//
// Part of libtorch-tidy. SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//
//
// The prepare/run split (Bundle.h) and the figures GPU profilers report
// (DeviceMetrics.h), from synthetic samples: the GPU-side computations are
// tested here, without a GPU.
//
//===----------------------------------------------------------------------===//

#include "Bundle.h"
#include "DeviceMetrics.h"
#include "ProbeOutput.h"
#include "Report.h"

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include <filesystem>
#include <fstream>
#include <regex>
#include <unistd.h>

using namespace libtorch_tidy::verify;
namespace fs = std::filesystem;

namespace {

std::string tempDir(const std::string &Name) {
  fs::path P = fs::temp_directory_path() /
               ("verify-device-unit-" + std::to_string(getpid()) + "-" + Name);
  fs::remove_all(P);
  fs::create_directories(P);
  return P.string();
}

void writeText(const fs::path &P, const std::string &Text) {
  fs::create_directories(P.parent_path());
  std::ofstream(P) << Text;
}

RunRecord steppingRun(const std::string &Variant, double StepSeconds,
                      std::vector<GpuSample> Gpu, uint64_t Syncs = 0) {
  RunRecord R;
  R.Variant = Variant;
  R.Index = 1;
  R.Process.Started = true;
  R.Process.ExitCode = 0;
  R.Process.WallSeconds = 3;
  R.Probe.Present = true;
  R.Probe.Steps = 5;
  R.Probe.HostSyncs = Syncs;
  for (int I = 0; I < 5; ++I) {
    R.Probe.StepStartSeconds.push_back(1.0 + I * StepSeconds);
    R.Probe.StepSyncsBefore.push_back(I * Syncs / 5);
  }
  R.Gpu = std::move(Gpu);
  return R;
}

TEST(BundleTest, PlaceholdersNameTheBuildFirst) {
  // The build directory inside the source tree is the build's.
  EXPECT_EQ(toPlaceholder("/p/src/build/train", "/p/src/build", "/p/src"),
            "{build}/train");
  EXPECT_EQ(toPlaceholder("/p/src/data/x.csv", "/p/src/build", "/p/src"),
            "{source}/data/x.csv");
  EXPECT_EQ(toPlaceholder("--steps", "/p/src/build", "/p/src"), "--steps");
  EXPECT_EQ(toPlaceholder("/p/srcx/y", "/p/build", "/p/src"), "/p/srcx/y");
  EXPECT_EQ(fromPlaceholder("{build}/train", "/s/fixed-build", "/s/fixed"),
            "/s/fixed-build/train");
  EXPECT_EQ(fromPlaceholder("{source}", "/b", "/s/original"), "/s/original");
  EXPECT_EQ(fromPlaceholder("{buildx}/t", "/b", "/s"), "{buildx}/t");
}

TEST(BundleTest, WritesAndReadsBackAWholeBundle) {
  const fs::path Dir = tempDir("bundle");
  writeText(Dir / "src" / "CMakeLists.txt", "project(x)\n");
  writeText(Dir / "src" / "train.cpp", "int main() {}\n");
  writeText(Dir / "src" / "build" / "CMakeCache.txt", "# a build tree\n");
  writeText(Dir / "fixed" / "CMakeLists.txt", "project(x)\n");
  writeText(Dir / "fixed" / "train.cpp", "int main() { /* fixed */ }\n");
  // A kit as the source tree lays it out.
  writeText(Dir / "kit" / "runtime-verify" / "CMakeLists.txt", "# kit\n");
  writeText(Dir / "kit" / "support" / "io" / "FileIO.h", "// io\n");
  writeText(Dir / "kit" / "checks" / "Catalog.def", "// the checks\n");
  writeText(Dir / "inc" / "fmt" / "format.h", "// fmt\n");
  writeText(Dir / "inc" / "nlohmann" / "json.hpp", "// json\n");
  BundleRecipe R;
  R.Target = "train";
  R.BuildType = "Release";
  R.Command = {"{build}/train", "--steps", "5"};
  R.Findings.push_back(
      {"libtorch-dataloader-no-workers", "m", "train.cpp", 120, 7, true});
  std::string Error;
  const std::string Out = (Dir / "bundle").string();
  ASSERT_TRUE(writeBundle(
      Out, R, (Dir / "src").string(), (Dir / "fixed").string(),
      (Dir / "src/build").string(),
      {(Dir / "kit").string(), (Dir / "inc").string(), (Dir / "inc").string()},
      Error))
      << Error;
  EXPECT_TRUE(fs::exists(Out + "/original/train.cpp"));
  EXPECT_FALSE(fs::exists(Out + "/original/build"));
  EXPECT_TRUE(fs::exists(Out + "/tools/runtime-verify/CMakeLists.txt"));
  EXPECT_TRUE(fs::exists(Out + "/tools/support/io/FileIO.h"));
  EXPECT_TRUE(fs::exists(Out + "/tools/checks/Catalog.def"));
  EXPECT_TRUE(fs::exists(Out + "/tools/third_party/fmt/include/fmt/format.h"));
  EXPECT_TRUE(fs::exists(
      Out + "/tools/third_party/nlohmann_json/include/nlohmann/json.hpp"));
  // No staging directory is left beside it.
  for (const auto &E : fs::directory_iterator(Dir))
    EXPECT_EQ(E.path().filename().string().find(".partial-"),
              std::string::npos);
  BundleRecipe Back;
  ASSERT_TRUE(readBundle(Out, Back, Error)) << Error;
  EXPECT_EQ(Back.Target, "train");
  EXPECT_EQ(Back.Command, R.Command);
  ASSERT_EQ(Back.Findings.size(), 1u);
  EXPECT_EQ(Back.Findings[0].File, "train.cpp");
  EXPECT_EQ(Back.Findings[0].Line, 7u);
  EXPECT_TRUE(Back.Findings[0].HasFix);
  EXPECT_GT(directorySize(Out), 0u);
  // The bundle's directory now exists: writing it again is refused, and
  // leaves it as it was.
  EXPECT_FALSE(writeBundle(
      Out, R, (Dir / "src").string(), (Dir / "fixed").string(),
      (Dir / "src/build").string(),
      {(Dir / "kit").string(), (Dir / "inc").string(), (Dir / "inc").string()},
      Error));
  EXPECT_TRUE(fs::exists(Out + "/bundle.json"));
  fs::remove_all(Dir);
}

TEST(BundleTest, RefusesWhatIsNotABundle) {
  const fs::path Dir = tempDir("not-bundle");
  BundleRecipe R;
  std::string Error;
  EXPECT_FALSE(readBundle(Dir.string(), R, Error));
  EXPECT_NE(Error.find("bundle.json"), std::string::npos) << Error;
  writeText(Dir / "bundle.json", R"({"format": 99})");
  EXPECT_FALSE(readBundle(Dir.string(), R, Error));
  EXPECT_NE(Error.find("format 99"), std::string::npos) << Error;
  writeText(Dir / "bundle.json", "{not json");
  EXPECT_FALSE(readBundle(Dir.string(), R, Error));
  EXPECT_NE(Error.find("not a bundle recipe"), std::string::npos) << Error;
  writeText(Dir / "bundle.json",
            R"({"format": 1, "target": "t", "build_cmd": "", "command": ["x"],
                "findings": []})");
  EXPECT_FALSE(readBundle(Dir.string(), R, Error));
  EXPECT_NE(Error.find("original: missing"), std::string::npos) << Error;
  fs::remove_all(Dir);
}

TEST(DeviceMetricsTest, NoKernelShareIsIdleTimeWhileStepping) {
  // Steps from 1.0 s to 1.4 s; samples before and long after the stepping
  // (start-up, evaluation) do not count.
  const RunRecord R = steppingRun(
      "original", 0.1, {{0.5, 0, 0}, {1.1, 40, 0}, {1.3, 60, 0}, {3.0, 0, 0}});
  const std::optional<double> Idle = noKernelSharePercent(R);
  ASSERT_TRUE(Idle.has_value());
  EXPECT_DOUBLE_EQ(*Idle, 50);
  // No GPU sample: not measured, never 0 or 100.
  EXPECT_FALSE(noKernelSharePercent(steppingRun("x", 0.1, {})).has_value());
}

TEST(DeviceMetricsTest, ChangeIsRealOnlyBeyondTheSpread) {
  EXPECT_EQ(changeBeyondNoise({10, 12}, {20, 25}), Change::Real);
  EXPECT_EQ(changeBeyondNoise({10, 21}, {20, 25}), Change::WithinNoise);
  EXPECT_EQ(changeBeyondNoise({9, 9}, {9, 9}), Change::NoChange);
  EXPECT_EQ(changeBeyondNoise({9}, {0}), Change::CannotTell);
  EXPECT_EQ(changeBeyondNoise({}, {1, 2}), Change::CannotTell);
}

TEST(DeviceMetricsTest, FindingsCarryTheirVerdict) {
  Session S;
  S.Runs = 2;
  S.Findings.push_back({"libtorch-blocking-host-to-device-copy", "m",
                        "/src/train.cpp", 0, 9, true});
  // A non_blocking copy from pageable memory is still a blocking copy: the
  // fixed variant's 2 non_blocking copies per step, both pageable, count.
  for (unsigned I = 1; I <= 2; ++I) {
    RunRecord O = steppingRun("original", 0.1, {});
    O.Index = I;
    O.Probe.HostToDeviceBlocking = 10;
    RunRecord F = steppingRun("fixed", 0.1, {});
    F.Index = I;
    F.Probe.HostToDeviceNonBlocking = 10;
    F.Probe.HostToDeviceNonBlockingPageable = 10;
    S.RunsDone.push_back(O);
    S.RunsDone.push_back(F);
  }
  std::vector<FindingEffect> E = findingEffects(S);
  ASSERT_EQ(E.size(), 1u);
  EXPECT_DOUBLE_EQ(*E[0].Original, 2);
  EXPECT_DOUBLE_EQ(*E[0].Fixed, 2);
  EXPECT_EQ(E[0].Verdict, describe(Change::NoChange));
  // Pinned: the copies are gone from the metric, in every run.
  for (RunRecord &R : S.RunsDone)
    R.Probe.HostToDeviceNonBlockingPageable = 0;
  E = findingEffects(S);
  EXPECT_DOUBLE_EQ(*E[0].Fixed, 0);
  EXPECT_EQ(E[0].Verdict, describe(Change::Real));
}

TEST(DeviceMetricsTest, CpuRunsSayGpuFiguresAreNotMeasured) {
  Session S;
  S.Runs = 1;
  S.RunsDone = {steppingRun("original", 0.1, {}),
                steppingRun("fixed", 0.05, {})};
  const std::string Text = textReport(S);
  EXPECT_NE(Text.find("CUDA runtime host syncs per step"), std::string::npos);
  EXPECT_NE(Text.find("not measured (no GPU)"), std::string::npos);
  const nlohmann::json J = jsonReport(S);
  EXPECT_TRUE(
      J["summary"]["original"]["cuda_runtime_syncs_per_step"].is_null());
  EXPECT_TRUE(J["summary"]["original"]["no_kernel_share_percent"].is_null());
  // A run that called the CUDA runtime has the figures, zeros included.
  S.RunsDone[1].Probe.CudaRuntimeCalls = 3;
  S.RunsDone[1].Probe.CudaRuntimeH2DPageable = 5;
  const nlohmann::json G = jsonReport(S);
  EXPECT_DOUBLE_EQ(
      G["summary"]["fixed"]["cuda_runtime_h2d_pageable_per_step"].get<double>(),
      1);
  EXPECT_DOUBLE_EQ(
      G["summary"]["fixed"]["cuda_runtime_syncs_per_step"].get<double>(), 0);
}

TEST(DeviceMetricsTest, ChromeTraceHasOneProfilerStepPerStep) {
  const RunRecord R = steppingRun("fixed", 0.1, {{1.2, 80, 100}}, 10);
  const nlohmann::json T = nlohmann::json::parse(chromeTrace(R, "fixed run 1"));
  std::vector<std::string> Steps;
  int64_t LastEnd = 0;
  for (const nlohmann::json &E : T["traceEvents"]) {
    if (E["ph"] != "X")
      continue;
    Steps.push_back(E["name"]);
    EXPECT_EQ(E["cat"], "user_annotation");
    // Steps follow each other without a gap or an overlap.
    if (LastEnd != 0)
      EXPECT_EQ(E["ts"].get<int64_t>(), LastEnd);
    LastEnd = E["ts"].get<int64_t>() + E["dur"].get<int64_t>();
    EXPECT_EQ(E["dur"].get<int64_t>(), 100000);
  }
  EXPECT_EQ(Steps, (std::vector<std::string>{"ProfilerStep#0", "ProfilerStep#1",
                                             "ProfilerStep#2", "ProfilerStep#3",
                                             "ProfilerStep#4"}));
  bool GpuCounter = false;
  for (const nlohmann::json &E : T["traceEvents"])
    GpuCounter =
        GpuCounter || (E["ph"] == "C" && E["name"] == "GPU utilization %" &&
                       E["args"]["percent"] == 80);
  EXPECT_TRUE(GpuCounter);
}

RunRecord hostTimeRun(const std::string &Variant, unsigned Index,
                      uint64_t OutsideNs, uint64_t SpanNs) {
  RunRecord R = steppingRun(Variant, 0.1, {});
  R.Index = Index;
  R.Probe.HostTimeMeasured = true;
  R.Probe.HostOutsideOpsNs = OutsideNs;
  R.Probe.HostTimeSpanNs = SpanNs;
  return R;
}

TEST(DeviceMetricsTest, HostOutsideOpsShareOfTheSteps) {
  const RunRecord R = hostTimeRun("original", 1, 250'000'000, 1'000'000'000);
  ASSERT_TRUE(hostOutsideOpsSharePercent(R).has_value());
  EXPECT_DOUBLE_EQ(*hostOutsideOpsSharePercent(R), 25);
  // Not measured (fewer than two steps, a probe without the figure, a span
  // of no time): nothing, never 0.
  RunRecord Unmeasured = R;
  Unmeasured.Probe.HostTimeMeasured = false;
  EXPECT_FALSE(hostOutsideOpsSharePercent(Unmeasured).has_value());
  EXPECT_FALSE(hostOutsideOpsSharePercent(steppingRun("x", 0.1, {})));
  RunRecord NoSpan = R;
  NoSpan.Probe.HostTimeSpanNs = 0;
  EXPECT_FALSE(hostOutsideOpsSharePercent(NoSpan).has_value());
  EXPECT_EQ(dataLoadingVerdict(std::nullopt), "not measured");
  EXPECT_EQ(dataLoadingVerdict(4.9), "reached");
  EXPECT_EQ(dataLoadingVerdict(5.0), "not reached");
}

TEST(DeviceMetricsTest, HostOutsideOpsShareIsTheMedianOfTheRuns) {
  Session S;
  S.Runs = 3;
  // Original: 80, 60 and 70 % of the steps outside ops; fixed: 2, 4, 30 %.
  const uint64_t Span = 2'000'000'000;
  S.RunsDone = {hostTimeRun("original", 1, Span * 8 / 10, Span),
                hostTimeRun("fixed", 1, Span * 2 / 100, Span),
                hostTimeRun("original", 2, Span * 6 / 10, Span),
                hostTimeRun("fixed", 2, Span * 4 / 100, Span),
                hostTimeRun("original", 3, Span * 7 / 10, Span),
                hostTimeRun("fixed", 3, Span * 30 / 100, Span)};
  EXPECT_DOUBLE_EQ(*summarize(S, "original").HostOutsideOpsSharePercent, 70);
  EXPECT_DOUBLE_EQ(*summarize(S, "fixed").HostOutsideOpsSharePercent, 4);
  const nlohmann::json J = jsonReport(S);
  EXPECT_DOUBLE_EQ(
      J["summary"]["original"]["host_outside_ops_share_percent"].get<double>(),
      70);
  EXPECT_EQ(J["summary"]["original"]["data_loading_share_below_threshold"],
            false);
  EXPECT_EQ(J["summary"]["fixed"]["data_loading_share_below_threshold"], true);
  EXPECT_DOUBLE_EQ(J["runs"][0]["host_outside_ops_share_percent"].get<double>(),
                   80);
  const std::string Text = textReport(S);
  EXPECT_NE(Text.find("host time outside LibTorch ops %"), std::string::npos)
      << Text;
  EXPECT_NE(Text.find("(data loading and the program's own host code, % of "
                      "the step)"),
            std::string::npos);
  EXPECT_TRUE(std::regex_search(
      Text, std::regex(R"(\n  < 5 % \(the DataLoader-share threshold\) +not )"
                       R"(reached +reached *\n)")))
      << Text;
  const std::string Html = htmlReport(S);
  EXPECT_NE(Html.find("% of the step</th><td>70.0</td><td>4.0</td>"),
            std::string::npos)
      << Html;

  // A run that did not measure it is left out of the median; no run: null.
  S.RunsDone[1].Probe.HostTimeMeasured = false;
  EXPECT_DOUBLE_EQ(*summarize(S, "fixed").HostOutsideOpsSharePercent, 17);
  for (RunRecord &R : S.RunsDone)
    R.Probe.HostTimeMeasured = false;
  const nlohmann::json None = jsonReport(S);
  EXPECT_TRUE(
      None["summary"]["fixed"]["host_outside_ops_share_percent"].is_null());
  EXPECT_TRUE(
      None["summary"]["fixed"]["data_loading_share_below_threshold"].is_null());
  const std::string Unmeasured = textReport(S);
  EXPECT_TRUE(std::regex_search(
      Unmeasured, std::regex(R"(\nhost time outside LibTorch ops % +not )"
                             R"(measured +not measured *\n)")))
      << Unmeasured;
}

TEST(DeviceMetricsTest, ProbeOutputTakesHostTimeOfTheSteppingProcess) {
  const fs::path Dir = tempDir("host-time");
  // A launcher that loaded the probe and ran no step, and the trainer.
  writeText(Dir / "probe-200.json",
            R"({"steps": 0, "host_time_outside_ops": {"measured": false,
                "outside_ns": 0, "span_ns": 0, "steps": 0}})");
  writeText(Dir / "probe-201.json",
            R"({"steps": 4, "host_time_outside_ops": {"measured": true,
                "outside_ns": 300, "span_ns": 1200, "steps": 3}})");
  const ProbeCounts P = readProbe(Dir.string());
  EXPECT_TRUE(P.HostTimeMeasured);
  EXPECT_EQ(P.HostOutsideOpsNs, 300u);
  EXPECT_EQ(P.HostTimeSpanNs, 1200u);
  // A probe from before the figure: not measured.
  fs::remove(Dir / "probe-201.json");
  writeText(Dir / "probe-202.json", R"({"steps": 4})");
  EXPECT_FALSE(readProbe(Dir.string()).HostTimeMeasured);
  fs::remove_all(Dir);
}

} // namespace
