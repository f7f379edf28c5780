//===--- VerifyHarnessTest.cpp - Units of libtorch-tidy verify ------------===//
//
// Part of libtorch-tidy. SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

#include "Findings.h"
#include "LibTorchInstall.h"
#include "ProbeOutput.h"
#include "Process.h"
#include "Report.h"
#include "Workspace.h"

#include <gtest/gtest.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <set>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

using namespace libtorch_tidy::verify;
namespace fs = std::filesystem;

namespace {

/// A fresh directory under the test's temporary directory.
std::string tempDir(const std::string &Name) {
  fs::path P = fs::temp_directory_path() /
               ("verify-unit-" + std::to_string(getpid()) + "-" + Name);
  fs::remove_all(P);
  fs::create_directories(P);
  return P.string();
}

TEST(FindingsTest, ReadsTheJsonReport) {
  // Two findings as `libtorch-tidy --format=json` writes them (trimmed to
  // the fields the harness reads, and one it does not).
  const std::string Json = R"({
    "tool": {"name": "libtorch-tidy", "version": "0.1.0"},
    "findings": [
      {"checkId": "libtorch-anomaly-detection-enabled",
       "message": "'x' is on",
       "location": {"absoluteFile": "/src/train.cpp", "file": "train.cpp",
                    "offset": 16, "begin": {"line": 3, "column": 3}},
       "fixes": [{"file": "/src/train.cpp", "offset": 16, "length": 4,
                  "replacementText": ""}],
       "notes": [{"message": "a note", "fixes": []}]},
      {"checkId": "libtorch-host-sync-in-loop", "message": "item",
       "location": {"absoluteFile": "/src/train.cpp", "file": "train.cpp",
                    "offset": 0, "begin": {"line": 1, "column": 1}},
       "fixes": [],
       "notes": [{"message": "a note's fix", "fixes": [{"offset": 1}]}]}
    ]})";
  std::vector<Finding> Findings;
  std::string Error;
  ASSERT_TRUE(parseJsonReport(Json, Findings, Error)) << Error;
  ASSERT_EQ(Findings.size(), 2u);
  EXPECT_EQ(Findings[0].Check, "libtorch-anomaly-detection-enabled");
  EXPECT_EQ(Findings[0].Message, "'x' is on");
  EXPECT_EQ(Findings[0].File, "/src/train.cpp");
  EXPECT_EQ(Findings[0].Offset, 16u);
  EXPECT_EQ(Findings[0].Line, 3u);
  EXPECT_TRUE(Findings[0].HasFix);
  // A note's fix-it is not the finding's own.
  EXPECT_FALSE(Findings[1].HasFix);
  EXPECT_EQ(Findings[1].Line, 1u);
}

TEST(FindingsTest, RejectsOtherDocuments) {
  std::vector<Finding> Findings;
  std::string Error;
  EXPECT_FALSE(parseJsonReport("hello: world\n", Findings, Error));
  EXPECT_FALSE(Error.empty());
  Error.clear();
  // SARIF is JSON, but not this report.
  EXPECT_FALSE(
      parseJsonReport(R"({"version": "2.1.0", "runs": []})", Findings, Error));
  EXPECT_FALSE(Error.empty());
  Error.clear();
  // A finding without its location: the whole report is refused.
  EXPECT_FALSE(parseJsonReport(
      R"({"tool": {}, "findings": [{"checkId": "c", "message": "m"}]})",
      Findings, Error));
  EXPECT_TRUE(Findings.empty());
  EXPECT_FALSE(Error.empty());
}

TEST(FindingsTest, MetricsComeFromTheCatalog) {
  EXPECT_EQ(metricOf("libtorch-host-sync-in-loop"), Metric::HostSyncsPerStep);
  EXPECT_EQ(metricOf("libtorch-blocking-host-to-device-copy"),
            Metric::BlockingH2DPerStep);
  EXPECT_EQ(metricOf("libtorch-anomaly-detection-enabled"),
            Metric::LocalScalarDensePerStep);
  EXPECT_EQ(metricOf("libtorch-dataloader-no-workers"), Metric::StepsPerSecond);
  // Every check a metric row names is a check of the catalog.
  std::set<std::string> Checks;
  std::vector<std::string> WithMetric;
#define LIBTORCH_CHECK(Id, Class, Tier, HasFixIt, Evidence, Summary)           \
  Checks.insert(Id);
#define LIBTORCH_CHECK_METRIC(Id, Moved) WithMetric.push_back(Id);
#include "Catalog.def"
  EXPECT_EQ(WithMetric.size(), 4u);
  for (const std::string &Id : WithMetric)
    EXPECT_TRUE(Checks.count(Id)) << Id << " is no check of the catalog";
}

TEST(WorkspaceTest, MovesWholePathComponents) {
  EXPECT_EQ(movePath("/src/build/x", "/src/build", "/tmp/b"), "/tmp/b/x");
  EXPECT_EQ(movePath("/src/build", "/src/build", "/tmp/b"), "/tmp/b");
  EXPECT_EQ(movePath("/src/build2/x", "/src/build", "/tmp/b"), "/src/build2/x");
  EXPECT_EQ(movePath("relative", "/src", "/tmp"), "relative");
}

TEST(WorkspaceTest, CopiesLinksIntoTheCopyNeverBesideTheirTargets) {
  char Template[] = "/tmp/verify-links-XXXXXX";
  ASSERT_NE(::mkdtemp(Template), nullptr);
  const fs::path Base = Template;
  const fs::path Root = Base / "project", Outside = Base / "outside",
                 Dest = Base / "copy";
  fs::create_directories(Root / "inc");
  fs::create_directories(Outside / "include");
  std::ofstream(Root / "train.cpp") << "#include \"h.h\"\n";
  std::ofstream(Root / "inc" / "h.h") << "// h\n";
  std::ofstream(Outside / "o.h") << "// outside\n";
  fs::create_symlink("inc/h.h", Root / "relative-in.h");
  fs::create_symlink(Root / "inc", Root / "absolute-in");
  fs::create_symlink("../outside/o.h", Root / "out.h");
  fs::create_directory_symlink(Outside / "include", Root / "out-dir");
  fs::create_symlink("nowhere.h", Root / "dangling.h");
  std::string Error;
  ASSERT_TRUE(copySourceTree(Root.string(), (Root / "build").string(),
                             Dest.string(), Error))
      << Error;
  // Links inside the tree point inside the copy, however they were spelled.
  EXPECT_TRUE(fs::is_symlink(Dest / "relative-in.h"));
  EXPECT_EQ(fs::canonical(Dest / "relative-in.h"),
            fs::canonical(Dest / "inc" / "h.h"));
  EXPECT_TRUE(fs::is_symlink(Dest / "absolute-in"));
  EXPECT_EQ(fs::canonical(Dest / "absolute-in"), fs::canonical(Dest / "inc"));
  // A file outside is copied, so that a fix-it in the copy stays there.
  EXPECT_FALSE(fs::is_symlink(Dest / "out.h"));
  EXPECT_TRUE(fs::is_regular_file(Dest / "out.h"));
  // A directory outside stays a link to it; a dangling link is left out.
  EXPECT_EQ(fs::canonical(Dest / "out-dir"),
            fs::canonical(Outside / "include"));
  EXPECT_FALSE(fs::exists(fs::symlink_status(Dest / "dangling.h")));
  // Nothing was made beside the targets.
  std::set<std::string> OutsideNow;
  for (const auto &Entry : fs::recursive_directory_iterator(Outside))
    OutsideNow.insert(Entry.path().lexically_relative(Outside).string());
  EXPECT_EQ(OutsideNow, (std::set<std::string>{"include", "o.h"}));
  std::set<std::string> BaseNow;
  for (const auto &Entry : fs::directory_iterator(Base))
    BaseNow.insert(Entry.path().filename().string());
  EXPECT_EQ(BaseNow, (std::set<std::string>{"copy", "outside", "project"}));
  fs::remove_all(Base);
}

TEST(WorkspaceTest, CacheKeepsUserSettingsOnly) {
  const std::string Dir = tempDir("cache");
  std::ofstream(Dir + "/CMakeCache.txt")
      << "# comment\n"
         "//doc line\n"
         "CMAKE_BUILD_TYPE:STRING=Release\n"
         "Torch_DIR:PATH=/opt/torch/share/cmake/Torch\n"
         "CMAKE_HOME_DIRECTORY:INTERNAL=/src\n"
         "CMAKE_GENERATOR:INTERNAL=Ninja\n"
         "FETCHCONTENT_BASE_DIR:PATH=" +
             Dir +
             "/_deps\n"
             "proj_BINARY_DIR:STATIC=" +
             Dir + "\n";
  CMakeCache Cache;
  std::string Error;
  ASSERT_TRUE(readCMakeCache(Dir, Cache, Error)) << Error;
  EXPECT_EQ(Cache.HomeDirectory, "/src");
  EXPECT_EQ(Cache.Generator, "Ninja");
  EXPECT_EQ(Cache.TorchDir, "/opt/torch/share/cmake/Torch");
  EXPECT_NE(Cache.InitialCacheScript.find(
                "set(CMAKE_BUILD_TYPE \"Release\" CACHE STRING \"\" FORCE)"),
            std::string::npos);
  EXPECT_NE(Cache.InitialCacheScript.find("Torch_DIR"), std::string::npos);
  EXPECT_EQ(Cache.InitialCacheScript.find("FETCHCONTENT"), std::string::npos);
  EXPECT_EQ(Cache.InitialCacheScript.find("INTERNAL"), std::string::npos);
  EXPECT_EQ(Cache.InitialCacheScript.find("STATIC"), std::string::npos);
  fs::remove_all(Dir);
}

TEST(LibTorchInstallTest, VersionFromTheHeaders) {
  EXPECT_EQ(versionOfHeader("#define TORCH_VERSION_MAJOR 2\n"
                            "#define TORCH_VERSION_MINOR 15\n"
                            "#define TORCH_VERSION_PATCH 0\n"),
            "2.15.0");
  EXPECT_EQ(versionOfHeader("#define TORCH_VERSION_MAJOR 1\n"), "");
}

TEST(LibTorchInstallTest, FindsThePrefixOfTheZipsAndDebiansLayouts) {
  const std::string Dir = tempDir("libtorch");
  // The zip (2.x): <prefix>/share/cmake/Torch, the version macros in
  // torch/headeronly/version.h.
  fs::create_directories(Dir + "/zip/share/cmake/Torch");
  fs::create_directories(Dir + "/zip/include/torch/headeronly");
  std::ofstream(Dir + "/zip/include/torch/headeronly/version.h")
      << "#define TORCH_VERSION_MAJOR 2\n#define TORCH_VERSION_MINOR 15\n"
         "#define TORCH_VERSION_PATCH 0\n";
  std::optional<LibTorchInstall> Zip =
      libTorchOfTorchDir(Dir + "/zip/share/cmake/Torch");
  ASSERT_TRUE(Zip.has_value());
  EXPECT_EQ(Zip->Prefix, fs::canonical(Dir + "/zip").string());
  EXPECT_EQ(Zip->Version, "2.15.0");
  // Debian (1.x): <prefix>/lib/<arch>/cmake/Torch, the macros in the C++
  // API's torch/version.h.
  fs::create_directories(Dir + "/usr/lib/x86_64-linux-gnu/cmake/Torch");
  fs::create_directories(Dir + "/usr/include/torch/csrc/api/include/torch");
  std::ofstream(Dir + "/usr/include/torch/csrc/api/include/torch/version.h")
      << "#define TORCH_VERSION_MAJOR 1\n#define TORCH_VERSION_MINOR 13\n"
         "#define TORCH_VERSION_PATCH 1\n";
  std::optional<LibTorchInstall> Debian =
      libTorchOfTorchDir(Dir + "/usr/lib/x86_64-linux-gnu/cmake/Torch");
  ASSERT_TRUE(Debian.has_value());
  EXPECT_EQ(Debian->Version, "1.13.1");
  EXPECT_FALSE(libTorchOfTorchDir(Dir + "/missing").has_value());
  fs::remove_all(Dir);
}

TEST(WorkspaceTest, TargetSourcesComeFromItsObjectDirectory) {
  const std::string Dir = tempDir("db");
  std::ofstream(Dir + "/compile_commands.json")
      << R"([{"directory": ")" << Dir
      << R"(", "file": "/src/a.cpp", "command": "g++ -o CMakeFiles/app.dir/a.cpp.o -c /src/a.cpp"},
{"directory": ")"
      << Dir
      << R"(", "file": "/src/b.cpp", "command": "g++ -o CMakeFiles/other.dir/b.cpp.o -c /src/b.cpp"}])";
  std::vector<std::string> Files;
  std::string Error;
  ASSERT_TRUE(targetSources(Dir, "app", "/src", Files, Error)) << Error;
  EXPECT_EQ(Files, std::vector<std::string>{"/src/a.cpp"});
  Files.clear();
  EXPECT_FALSE(targetSources(Dir, "missing", "/src", Files, Error));
  EXPECT_NE(Error.find("no source of target 'missing'"), std::string::npos);
  fs::remove_all(Dir);
}

TEST(ProbeOutputTest, SumsEveryProcessOfARun) {
  const std::string Dir = tempDir("probe");
  // A launcher process with no steps, the trainer, an unreadable file and a
  // file that is not the probe's.
  std::ofstream(Dir + "/probe-100.json")
      << R"({"steps": 0, "host_syncs": 1, "ops": {}, "step_start_ns": []})";
  std::ofstream(Dir + "/probe-101.json") << R"({"steps": 3, "host_syncs": 6,
      "ops": {"aten::_local_scalar_dense": 3}, "device_to_host": 2,
      "host_to_device_blocking": 4, "host_to_device_non_blocking": 1,
      "cuda_sync_warnings": 0, "cuda_sync_debug": true,
      "step_start_ns": [1000000000, 1500000000, 2000000000]})";
  std::ofstream(Dir + "/probe-102.json") << "{ cut short";
  std::ofstream(Dir + "/probe-103.json") << R"({"steps": "three", "ops": 1})";
  std::ofstream(Dir + "/probe-104.json") << "[1, 2]";
  std::ofstream(Dir + "/other.json") << R"({"steps": 99})";
  ProbeCounts P = readProbe(Dir);
  EXPECT_TRUE(P.Present);
  EXPECT_EQ(P.Steps, 3u);
  EXPECT_EQ(P.HostSyncs, 7u);
  EXPECT_EQ(P.LocalScalarDense, 3u);
  EXPECT_EQ(P.DeviceToHost, 2u);
  EXPECT_EQ(P.HostToDeviceBlocking, 4u);
  EXPECT_EQ(P.HostToDeviceNonBlocking, 1u);
  EXPECT_TRUE(P.CudaSyncDebug);
  EXPECT_EQ(P.StepStartSeconds, (std::vector<double>{1.0, 1.5, 2.0}));
  EXPECT_EQ(P.Raw.size(), 2u);
  fs::remove_all(Dir);
}

TEST(ProbeOutputTest, NoFileNoCounts) {
  const std::string Dir = tempDir("probe-empty");
  EXPECT_FALSE(readProbe(Dir).Present);
  EXPECT_FALSE(readProbe(Dir + "/missing").Present);
  fs::remove_all(Dir);
}

TEST(ProcessTest, FileTailReadsOnlyTheTail) {
  const std::string Dir = tempDir("tail");
  const std::string Small = Dir + "/small.txt";
  std::ofstream(Small) << "hello\n";
  EXPECT_EQ(fileTail(Small, 100), "hello\n");
  EXPECT_EQ(fileTail(Small, 3), "...lo\n");
  EXPECT_EQ(fileTail(Dir + "/missing", 3), "");
  // A program that printed 2 GiB (a sparse file here): the tail is read
  // under a 256 MiB address-space limit, where reading it whole could not be.
  const std::string Huge = Dir + "/huge.txt";
  std::ofstream(Huge, std::ios::trunc).close();
  ASSERT_EQ(::truncate(Huge.c_str(), 2LL << 30), 0);
  std::ofstream(Huge, std::ios::app) << "the end\n";
  pid_t Child = ::fork();
  ASSERT_GE(Child, 0);
  if (Child == 0) {
    struct rlimit Limit = {256ULL << 20, 256ULL << 20};
    ::setrlimit(RLIMIT_AS, &Limit);
    ::_exit(fileTail(Huge, 8) == "...the end\n" ? 0 : 1);
  }
  int Status = 0;
  ASSERT_EQ(::waitpid(Child, &Status, 0), Child);
  EXPECT_TRUE(WIFEXITED(Status) && WEXITSTATUS(Status) == 0);
  fs::remove_all(Dir);
}

TEST(ProcessTest, ReportsExitSignalAndTimeout) {
  ProcessSpec Exit;
  Exit.Argv = {"/bin/sh", "-c", "exit 3"};
  ProcessResult R = runProcess(Exit);
  EXPECT_TRUE(R.Started);
  EXPECT_EQ(R.ExitCode, 3);
  EXPECT_EQ(R.describe(0), "exit 3");

  ProcessSpec Crash;
  Crash.Argv = {"/bin/sh", "-c", "kill -SEGV $$"};
  R = runProcess(Crash);
  EXPECT_EQ(R.Signal, 11);
  EXPECT_FALSE(R.ok());

  ProcessSpec Missing;
  Missing.Argv = {"/nonexistent/program"};
  R = runProcess(Missing);
  EXPECT_FALSE(R.Started);
  EXPECT_NE(R.StartError.find("No such file"), std::string::npos);

  ProcessSpec Hang;
  Hang.Argv = {"/bin/sh", "-c", "sleep 30 & sleep 30"};
  Hang.TimeoutSeconds = 0.5;
  R = runProcess(Hang);
  EXPECT_TRUE(R.TimedOut);
  EXPECT_FALSE(R.ok());
  EXPECT_NE(R.describe(0.5).find("timed out after 0.5 s"), std::string::npos);
}

TEST(ProcessTest, PassesEnvironmentAndDirectory) {
  const std::string Dir = tempDir("env");
  ProcessSpec Spec;
  Spec.Argv = {"/bin/sh", "-c", "echo \"$VERIFY_UNIT $PWD\""};
  Spec.SetEnv["VERIFY_UNIT"] = "set";
  Spec.WorkDir = Dir;
  Spec.OutputFile = Dir + "/out.txt";
  ASSERT_TRUE(runProcess(Spec).ok());
  EXPECT_EQ(fileTail(Spec.OutputFile, 1000), "set " + Dir + "\n");
  fs::remove_all(Dir);
}

TEST(ReportTest, Percentile) {
  EXPECT_EQ(percentile({}, 50), 0);
  EXPECT_EQ(percentile({3, 1, 2}, 50), 2);
  EXPECT_DOUBLE_EQ(percentile({0, 10}, 5), 0.5);
  EXPECT_EQ(percentile({0, 10}, 100), 10);
}

RunRecord run(const std::string &Variant, unsigned Index, uint64_t Syncs,
              double StepsPerSecond) {
  RunRecord R;
  R.Variant = Variant;
  R.Index = Index;
  R.Process.Started = true;
  R.Process.ExitCode = 0;
  R.Process.WallSeconds = 2;
  R.Probe.Present = true;
  R.Probe.Steps = 10;
  R.Probe.HostSyncs = Syncs;
  R.Probe.LocalScalarDense = Syncs;
  for (int I = 0; I < 10; ++I)
    R.Probe.StepStartSeconds.push_back(I / StepsPerSecond);
  R.Cpu = {{0.1, 50}, {0.2, 100}};
  return R;
}

Session session() {
  Session S;
  S.RunCommand = {"train", "--steps", "10"};
  S.Runs = 2;
  S.GpuDescription = "no GPU (test)";
  S.Findings.push_back({"libtorch-anomaly-detection-enabled", "m",
                        "/src/train.cpp", 0, 44, true});
  S.Findings.push_back(
      {"libtorch-host-sync-in-loop", "m", "/src/train.cpp", 0, 50, false});
  S.RunsDone = {run("original", 1, 90, 4), run("fixed", 1, 0, 100),
                run("original", 2, 90, 6), run("fixed", 2, 0, 200)};
  return S;
}

TEST(ReportTest, SummarizesEachVariant) {
  const Session S = session();
  const VariantSummary O = summarize(S, "original");
  EXPECT_EQ(O.RunsOk, 2u);
  EXPECT_DOUBLE_EQ(O.LocalScalarDensePerStep, 9);
  EXPECT_DOUBLE_EQ(O.StepsPerSecondMedian, 5);
  EXPECT_DOUBLE_EQ(O.CpuMean, 75);
  EXPECT_FALSE(O.GpuMean.has_value());
  const VariantSummary F = summarize(S, "fixed");
  EXPECT_DOUBLE_EQ(F.LocalScalarDensePerStep, 0);
  EXPECT_DOUBLE_EQ(F.StepsPerSecondMedian, 150);
}

TEST(ReportTest, TextTiesFindingsToMetrics) {
  const std::string Text = textReport(session());
  EXPECT_NE(Text.find("train.cpp:44 libtorch-anomaly-detection-enabled: "
                      "_local_scalar_dense per step 9 -> 0"),
            std::string::npos)
      << Text;
  EXPECT_NE(Text.find("train.cpp:50 libtorch-host-sync-in-loop: no fix-it"),
            std::string::npos);
  EXPECT_NE(Text.find("30.00x"), std::string::npos) << Text; // steps/s
  EXPECT_NE(Text.find("no GPU"), std::string::npos);
}

TEST(ReportTest, FailedRunsAreLeftOutAndReported) {
  Session S = session();
  S.RunsDone[1].Failure = "killed by signal 11 (Segmentation fault)";
  S.Errors.push_back("fixed run 1 (train): killed by signal 11");
  EXPECT_EQ(summarize(S, "fixed").RunsOk, 1u);
  const nlohmann::json J = jsonReport(S);
  EXPECT_FALSE(J["ok"].get<bool>());
  EXPECT_FALSE(J["runs"][1]["ok"].get<bool>());
  EXPECT_EQ(J["summary"]["fixed"]["runs_ok"], 1);
  EXPECT_TRUE(J["summary"]["fixed"]["gpu_util_percent"]["mean"].is_null());
}

TEST(ReportTest, HtmlDrawsBothSeries) {
  const std::string Html = htmlReport(session());
  EXPECT_NE(Html.find("data-variant=\"original\""), std::string::npos);
  EXPECT_NE(Html.find("data-variant=\"fixed\""), std::string::npos);
  EXPECT_NE(Html.find("CPU (no GPU sampled)"), std::string::npos);
  // Offline: nothing is loaded from elsewhere.
  EXPECT_EQ(Html.find("http://"), Html.find("http://www.w3.org/2000/svg"));
  EXPECT_EQ(Html.find("https://"), std::string::npos);
}

TEST(ReportTest, HtmlGivesEachVariantItsOwnTimeAxis) {
  Session S = session();
  // The fixed runs take a quarter of the original's time.
  for (RunRecord &R : S.RunsDone)
    if (R.Variant == "fixed") {
      R.Process.WallSeconds = 0.5;
      R.Cpu = {{0.1, 50}, {0.4, 100}};
    }
  const std::string Html = htmlReport(S);
  const size_t Original =
      Html.find("<svg class=\"timeline\" data-variant=\"original\" "
                "data-seconds=\"2.000\"");
  const size_t Fixed = Html.find(
      "<svg class=\"timeline\" data-variant=\"fixed\" data-seconds=\"0.500\"");
  ASSERT_NE(Original, std::string::npos) << Html;
  ASSERT_NE(Fixed, std::string::npos) << Html;
  // Each axis ends at its own run's end, and the last sample of the short
  // run is drawn at 0.4 / 0.5 of its plot (x from 50 to 770).
  EXPECT_NE(Html.find(">2.0 s</text>", Original), std::string::npos);
  EXPECT_NE(Html.find(">0.50 s</text>", Fixed), std::string::npos);
  EXPECT_NE(Html.find("626.0,", Fixed), std::string::npos) << Html;
  // The tables come first; no debug output, no script.
  const size_t Summary = Html.find("<table id=\"summary\">");
  const size_t Findings = Html.find("<table id=\"findings\">");
  ASSERT_NE(Summary, std::string::npos);
  ASSERT_NE(Findings, std::string::npos);
  EXPECT_LT(Summary, Original);
  EXPECT_LT(Findings, Original);
  EXPECT_NE(Html.find("<th>steps/s (median)</th>", Summary), std::string::npos);
  EXPECT_NE(Html.find("_local_scalar_dense per step</td><td>9</td><td>0</td>",
                      Findings),
            std::string::npos)
      << Html;
  EXPECT_EQ(Html.find("render-check"), std::string::npos);
  EXPECT_EQ(Html.find("<script"), std::string::npos);
}

} // namespace
