//===--- Verifier.cpp - One verify run, end to end ------------------------===//
//
// Part of libtorch-tidy. SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

#include "Verifier.h"
#include "DeviceMetrics.h"
#include "LibTorchInstall.h"
#include "Phases.h"
#include "ProbeOutput.h"
#include "Process.h"
#include "Report.h"
#include "io/FileIO.h"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <chrono>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <optional>
#include <unistd.h>

namespace fs = std::filesystem;

namespace libtorch_tidy::verify {

std::vector<std::string>
Verifier::commandFor(const std::string &Variant) const {
  if (!Opt.RunPreparedDir.empty()) {
    std::vector<std::string> Out;
    Out.reserve(Opt.Command.size());
    for (const std::string &A : Opt.Command)
      Out.push_back(fromPlaceholder(A, preparedBuildDir(Variant),
                                    preparedSourceRoot(Variant)));
    return Out;
  }
  if (Variant == "original")
    return Opt.Command;
  std::vector<std::string> Out;
  for (const std::string &A : Opt.Command) {
    // Absolute, or relative to the current directory: both are moved.
    const std::string Abs = A.find('/') != std::string::npos ? absolute(A) : A;
    std::string M = movePath(Abs, Opt.BuildDir, ScratchBuild);
    if (M == Abs)
      M = movePath(Abs, SourceRoot, ScratchSource);
    Out.push_back(M == Abs ? A : M);
  }
  return Out;
}

RunRecord Verifier::runOnce(const std::string &Variant, unsigned Index) {
  RunRecord R;
  R.Variant = Variant;
  R.Index = Index;
  const std::string Dir = fmt::format("{}/runs/{}-{}", Scratch, Variant, Index);
  fs::create_directories(Dir);
  ProcessSpec Spec;
  Spec.Argv = commandFor(Variant);
  Spec.OutputFile = Dir + "/output.txt";
  Spec.TimeoutSeconds = Opt.Timeout;
  if (Opt.Probe) {
    const char *Old = std::getenv("LD_PRELOAD");
    Spec.SetEnv["LD_PRELOAD"] = Old && *Old ? Probe + ":" + Old : Probe;
    Spec.SetEnv["LIBTORCH_TIDY_PROBE_DIR"] = Dir;
  }
  double LastT = 0, LastCpu = 0, NextGpu = 0;
  R.Process = runProcess(Spec, [&](double T, int Group) {
    const double Cpu = groupCpuSeconds(Group);
    if (Cpu >= 0 && T > LastT) {
      R.Cpu.push_back({T, std::max(0.0, (Cpu - LastCpu) / (T - LastT) * 100)});
      LastCpu = Cpu;
      LastT = T;
    }
    GpuSample G;
    if (T >= NextGpu && Gpu.sample(T, G)) {
      R.Gpu.push_back(G);
      NextGpu = T + 0.1;
    }
  });
  R.Probe = Opt.Probe ? readProbe(Dir) : ProbeCounts{};
  R.OutputTail = fileTail(Spec.OutputFile, 2000);
  if (!R.Process.ok())
    R.Failure = R.Process.describe(Opt.Timeout);
  else if (Opt.Probe && !R.Probe.Present)
    R.Failure = "the probe wrote no counts (did the command run a LibTorch "
                "program?)";
  else if (Opt.Probe && R.Probe.Steps == 0)
    R.Failure = R.OutputTail.empty()
                    ? "printed nothing and ran no training step (no backward "
                      "pass seen)"
                    : "ran no training step (no backward pass seen)";
  else if (!Opt.Probe && R.OutputTail.empty())
    R.Failure = "printed nothing";
  if (!R.Process.Leftovers.empty())
    S.Warnings.push_back(fmt::format(
        "{} run {}: killed {} leftover process{}: {}", Variant, Index,
        R.Process.Leftovers.size(), R.Process.Leftovers.size() == 1 ? "" : "es",
        fmt::join(R.Process.Leftovers, ", ")));
  if (!R.Failure.empty())
    S.Errors.push_back(fmt::format(
        "{} run {} ({}): {}{}", Variant, Index, fmt::join(Spec.Argv, " "),
        R.Failure,
        R.OutputTail.empty() ? "" : "; output ends with:\n" + R.OutputTail));
  return R;
}

void Verifier::runAll() {
  for (unsigned I = 1; I <= Opt.Runs; ++I)
    for (const char *Variant : {"original", "fixed"}) {
      const Clock::time_point Start = Clock::now();
      S.RunsDone.push_back(runOnce(Variant, I));
      const RunRecord &R = S.RunsDone.back();
      std::string Detail;
      if (!R.Failure.empty())
        Detail = "failed: " + R.Failure;
      else if (Opt.Probe)
        Detail = fmt::format("{}, {:.2f} steps/s",
                             countOf(R.Probe.Steps, "step", "steps"),
                             R.stepsPerSecond());
      phaseDone(fmt::format("run {}/{} {}", I, Opt.Runs, Variant), Start,
                Detail);
    }
}

void Verifier::removeScratch() {
  if (Scratch.empty() || Opt.Keep)
    return;
  std::error_code EC;
  fs::remove_all(Scratch, EC);
}

int Verifier::finish() {
  S.ScratchKept = Opt.Keep && !Scratch.empty();
  std::cout << textReport(S);
  // Written whole or not at all: a half-written report would read as a
  // complete one to whatever consumes it.
  auto Write = [&](const std::string &Path, auto Content) {
    if (Path.empty())
      return;
    std::cout.flush();
    if (std::optional<std::string> Problem = libtorch_tidy::io::writeFile(
            Path, Content(), libtorch_tidy::io::FileMode::Fresh)) {
      std::cerr << "libtorch-tidy verify: error: " << *Problem << "\n";
      S.Errors.push_back(*Problem);
    }
  };
  Write(Opt.JsonPath, [&] { return jsonReport(S).dump(2) + "\n"; });
  Write(Opt.HtmlPath, [&] { return htmlReport(S); });
  // The median run of each variant as a Chrome trace, beside the JSON
  // (report.json: report.trace-original.json, report.trace-fixed.json).
  if (!Opt.JsonPath.empty() && Opt.JsonPath != "-")
    for (const char *Variant : {"original", "fixed"})
      if (const RunRecord *R = medianRun(S, Variant)) {
        std::string Stem = Opt.JsonPath;
        if (Stem.size() > 5 && Stem.compare(Stem.size() - 5, 5, ".json") == 0)
          Stem.resize(Stem.size() - 5);
        Write(Stem + ".trace-" + Variant + ".json", [&] {
          return chromeTrace(*R, fmt::format("{} run {}", Variant, R->Index));
        });
      }
  removeScratch();
  Guard.disarm();
  return S.Errors.empty() ? ExitOk : ExitFailed;
}

int Verifier::run() {
  // Before any child: they all carry the watchdog's token. And what killed
  // runs of earlier verifies left is removed now.
  Guard.start();
  std::error_code EC;
  for (const std::string &Dir :
       removeOrphanedScratch(fs::temp_directory_path(EC).string()))
    std::cerr << "libtorch-tidy verify: removed " << Dir
              << ", left by a verify that was killed\n";
  S.RunCommand = Opt.Command;
  S.Runs = Opt.Runs;
  S.TimeoutSeconds = Opt.Timeout;
  S.ProbeEnabled = Opt.Probe;
  S.GpuDescription = Gpu.description();
  if (!Opt.RunPreparedDir.empty())
    return runPrepared();
  if (!prepare() || !analyze() || !makeFixedCopy())
    return finish();
  if (!Opt.PrepareDir.empty())
    return writePrepared();
  const bool OriginalBuilt = build("original", Opt.BuildDir, SourceRoot);
  const bool FixedBuilt = build("fixed", ScratchBuild, ScratchSource);
  if (!OriginalBuilt || !FixedBuilt || !chooseProbe())
    return finish();
  runAll();
  return finish();
}

} // namespace libtorch_tidy::verify
