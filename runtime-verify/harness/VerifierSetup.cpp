//===--- VerifierSetup.cpp - Before the runs ------------------------------===//
//
// Part of libtorch-tidy. SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//
//
// What a verify does before it measures (Verifier::run): the tools and the
// scratch directory, the analysis, the fixed copy of the sources, the build
// of each variant, and the probe that matches their LibTorch.
//
//===----------------------------------------------------------------------===//

#include "DeviceMetrics.h"
#include "LibTorchInstall.h"
#include "Phases.h"
#include "ProbeOutput.h"
#include "Process.h"
#include "Report.h"
#include "Verifier.h"
#include "io/FileIO.h"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <chrono>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <optional>
#include <string_view>
#include <unistd.h>

namespace fs = std::filesystem;

namespace libtorch_tidy::verify {

/// `--header-filter` for the headers of the tree at \p Root: the project's
/// own, as the main files are. The fix-its applied to the copy are then
/// those of the copy's files, never of a header elsewhere (an include
/// directory the build names outside the tree, a directory link), and the
/// analysis of the original counts the same findings on every LLVM (whose
/// default header filters differ).
static std::string headerFilterFor(const std::string &Root) {
  std::string Regex = "--header-filter=^";
  for (char C : fs::path(Root).lexically_normal().string()) {
    if (std::string_view("\\^$.|?*+()[]{}").find(C) != std::string_view::npos)
      Regex += '\\';
    Regex += C;
  }
  if (Regex.back() != '/')
    Regex += '/';
  return Regex;
}

bool Verifier::prepare() {
  Tools = selfDir();
  Analyzer = Tools + "/libtorch-tidy";
  if (!fs::exists(Analyzer)) {
    S.Errors.push_back(fmt::format("{}: the analyzer is not next to "
                                   "libtorch-tidy-verify; reinstall",
                                   Analyzer));
    return false;
  }
  for (const std::string &Candidate :
       {Tools + "/../lib/libtorch-tidy-probe.so",
        Tools + "/../" CMAKE_INSTALL_LIBDIR_STRING "/libtorch-tidy-probe.so"}) {
    if (fs::exists(Candidate)) {
      Probe = absolute(Candidate);
      break;
    }
  }
  if (!Opt.BuildCmd.empty()) {
    SourceRoot = absolute(Opt.SourceRoot.empty() ? "." : Opt.SourceRoot);
  } else {
    std::string Error;
    if (!readCMakeCache(Opt.BuildDir, Cache, Error)) {
      S.Errors.push_back(Error);
      return false;
    }
    SourceRoot =
        absolute(Opt.SourceRoot.empty() ? Cache.HomeDirectory : Opt.SourceRoot);
    if (!Cache.TorchDir.empty())
      ProgramTorch = libTorchOfTorchDir(Cache.TorchDir);
    if (ProgramTorch) {
      S.LibTorchDir = ProgramTorch->Prefix.empty() ? ProgramTorch->TorchDir
                                                   : ProgramTorch->Prefix;
      S.LibTorchVersion = ProgramTorch->Version;
    }
  }
  // Without an installed probe, one is built for a program whose LibTorch
  // is known (chooseProbe()).
  if (Opt.Probe && Probe.empty() && !ProgramTorch && Opt.PrepareDir.empty()) {
    S.Errors.push_back(fmt::format(
        "libtorch-tidy-probe.so not found next to {} (in ../lib): it is "
        "built only where LibTorch was found; or pass --no-probe",
        Tools));
    return false;
  }
  std::string Error;
  if (!targetSources(Opt.BuildDir, Opt.Target, SourceRoot, Sources, Error)) {
    S.Errors.push_back(Error);
    return false;
  }
  if (!makeScratch())
    return false;
  ScratchSource = Scratch + "/src";
  ScratchBuild = Opt.BuildCmd.empty()
                     ? Scratch + "/build"
                     : movePath(Opt.BuildDir, SourceRoot, ScratchSource);
  installInterruptCleanup([this] { removeScratch(); });
  return true;
}

bool Verifier::makeScratch() {
  std::string Template =
      (fs::temp_directory_path() / "libtorch-tidy-verify-XXXXXX").string();
  if (mkdtemp(Template.data()) == nullptr) {
    S.Errors.push_back(fmt::format("cannot create a scratch directory in {}",
                                   fs::temp_directory_path().string()));
    return false;
  }
  Scratch = Template;
  S.ScratchDir = Scratch;
  markOwner(Scratch);
  if (!Opt.Keep)
    Guard.watchDirectory(Scratch);
  return true;
}

bool Verifier::analyze() {
  const Clock::time_point Start = Clock::now();
  const std::string Report = Scratch + "/findings.json";
  const std::optional<int> Exit =
      runAnalyzer({"-p", Opt.BuildDir, headerFilterFor(SourceRoot),
                   "--format=json", "--output=" + Report},
                  Sources, "analyze", "the analyzer");
  if (!Exit) {
    phaseDone("analyze", Start, "failed");
    return false;
  }
  std::string Error;
  if (!parseJsonReport(readFile(Report), S.Findings, Error)) {
    S.Errors.push_back(fmt::format("{}: {}", Report, Error));
    phaseDone("analyze", Start, "failed");
    return false;
  }
  size_t Fixable = 0;
  for (const Finding &F : S.Findings)
    Fixable += F.HasFix;
  phaseDone("analyze", Start,
            fmt::format("{} in {}, {} with a fix-it",
                        countOf(S.Findings.size(), "finding", "findings"),
                        countOf(Sources.size(), "file", "files"), Fixable));
  return true;
}

std::optional<int> Verifier::runAnalyzer(std::vector<std::string> Args,
                                         const std::vector<std::string> &Files,
                                         const std::string &LogName,
                                         const std::string &What) {
  ProcessSpec Spec;
  Spec.Argv = {Analyzer, "--quiet"};
  Spec.Argv.insert(Spec.Argv.end(), Args.begin(), Args.end());
  if (!Opt.Checks.empty())
    Spec.Argv.push_back("--checks=" + Opt.Checks);
  Spec.Argv.insert(Spec.Argv.end(), Files.begin(), Files.end());
  Spec.OutputFile = Scratch + "/" + LogName + ".log";
  ProcessResult R = runProcess(Spec);
  // 0 no findings, 1 findings; 2 and 3 are errors of the analysis itself.
  if (!R.Started || R.Signal != 0 || (R.ExitCode != 0 && R.ExitCode != 1)) {
    S.Errors.push_back(fmt::format("{} failed ({}):\n{}", What, R.describe(0),
                                   fileTail(Spec.OutputFile, 4000)));
    return std::nullopt;
  }
  return R.ExitCode;
}

bool Verifier::makeFixedCopy() {
  const Clock::time_point Start = Clock::now();
  std::string Error;
  if (!copySourceTree(SourceRoot, Opt.BuildDir, ScratchSource, Error) ||
      !writeMovedCompileCommands(Opt.BuildDir, Sources, SourceRoot,
                                 ScratchSource, ScratchBuild,
                                 Scratch + "/fixdb", Error)) {
    S.Errors.push_back(Error);
    phaseDone("fix", Start, "failed");
    return false;
  }
  bool AnyFix = false;
  for (const Finding &F : S.Findings)
    AnyFix = AnyFix || F.HasFix;
  if (!AnyFix) {
    S.Warnings.push_back("no finding has a fix-it: both variants are the "
                         "same program (the runs measure the noise)");
    phaseDone("fix", Start, "copied, no fix-it to apply");
    return true;
  }
  std::vector<std::string> Copies;
  Copies.reserve(Sources.size());
  for (const std::string &F : Sources)
    Copies.push_back(movePath(F, SourceRoot, ScratchSource));
  const bool Fixed = runAnalyzer({"-p", Scratch + "/fixdb",
                                  headerFilterFor(ScratchSource), "--fix"},
                                 Copies, "fix", "applying the fix-its")
                         .has_value();
  phaseDone("fix", Start, Fixed ? "fix-its applied to the copy" : "failed");
  return Fixed;
}

bool Verifier::build(const std::string &Variant, const std::string &BuildDir,
                     const std::string &Root) {
  BuildRecord B;
  B.Variant = Variant;
  const std::string Log = Scratch + "/build-" + Variant + ".log";
  auto Step = [&](const std::string &Phase, std::vector<std::string> Argv,
                  const std::string &Dir) {
    const Clock::time_point Start = Clock::now();
    B.Command = Argv;
    ProcessSpec Spec;
    Spec.Argv = std::move(Argv);
    Spec.WorkDir = Dir;
    Spec.OutputFile = Log;
    ProcessResult R = runProcess(Spec);
    phaseDone(Phase + " " + Variant, Start, R.ok() ? "" : "failed");
    if (!R.ok()) {
      B.Log = fileTail(Log, 6000);
      S.Errors.push_back(
          fmt::format("the {} variant failed to build ({}: {}):\n{}", Variant,
                      fmt::join(B.Command, " "), R.describe(0), B.Log));
      return false;
    }
    return true;
  };
  bool Ok = true;
  if (!Opt.BuildCmd.empty()) {
    Ok = Step("build", {"/bin/sh", "-c", Opt.BuildCmd}, Root);
  } else {
    if (Variant == "fixed") {
      std::ofstream(Scratch + "/initial-cache.cmake")
          << Cache.InitialCacheScript;
      std::vector<std::string> Configure = {
          "cmake",
          "-S",
          movePath(Cache.HomeDirectory, SourceRoot, ScratchSource),
          "-B",
          BuildDir,
          "-C",
          Scratch + "/initial-cache.cmake"};
      if (!Cache.Generator.empty())
        Configure.insert(Configure.end(), {"-G", Cache.Generator});
      Ok = Step("configure", Configure, Scratch);
    }
    Ok = Ok &&
         Step("build", {"cmake", "--build", BuildDir, "--target", Opt.Target},
              Scratch);
  }
  B.Ok = Ok;
  S.Builds.push_back(B);
  return Ok;
}

bool Verifier::chooseProbe() {
  if (!Opt.Probe || !ProgramTorch)
    return true;
  // The installed probe links the LibTorch this project was built with: it
  // serves programs that link that one, and only those (another LibTorch's
  // objects have other layouts, and both would be loaded).
  std::error_code EC;
  const fs::path Installed = fs::canonical(LIBTORCH_TIDY_PROBE_TORCH_DIR, EC);
  if (!Probe.empty() && !EC && Installed.string() == ProgramTorch->TorchDir)
    return true;
  const Clock::time_point Start = Clock::now();
  std::string Sources;
  for (const std::string &Candidate :
       {Tools + "/../" CMAKE_INSTALL_DATADIR_STRING "/libtorch-tidy/probe",
        std::string(LIBTORCH_TIDY_PROBE_SOURCE_DIR)})
    if (fs::exists(Candidate + "/Probe.cpp")) {
      Sources = Candidate;
      break;
    }
  if (Sources.empty()) {
    S.Errors.push_back(fmt::format(
        "the program links LibTorch {} ({}), not the one the installed probe "
        "links, and the probe's sources are not installed (share/libtorch-tidy/"
        "probe); reinstall, or pass --no-probe",
        S.LibTorchVersion, ProgramTorch->TorchDir));
    return false;
  }
  const std::string Dir = Scratch + "/probe-build";
  const std::string Log = Scratch + "/build-probe.log";
  std::vector<std::string> Configure = {"cmake",
                                        "-S",
                                        Sources,
                                        "-B",
                                        Dir,
                                        "-DCMAKE_BUILD_TYPE=Release",
                                        "-DTorch_DIR=" +
                                            ProgramTorch->TorchDir};
  // Its prefix first, as the program's build would find it: not another
  // LibTorch's Caffe2 package on CMake's default paths.
  if (!ProgramTorch->Prefix.empty())
    Configure.push_back("-DCMAKE_PREFIX_PATH=" + ProgramTorch->Prefix);
  if (!Cache.Generator.empty())
    Configure.insert(Configure.end(), {"-G", Cache.Generator});
  for (std::vector<std::string> Argv :
       {Configure, std::vector<std::string>{"cmake", "--build", Dir}}) {
    ProcessSpec Spec;
    Spec.Argv = Argv;
    Spec.WorkDir = Scratch;
    Spec.OutputFile = Log;
    ProcessResult R = runProcess(Spec);
    if (!R.ok()) {
      phaseDone("probe", Start, "failed");
      S.Errors.push_back(
          fmt::format("building the probe for LibTorch {} failed ({}: {}):\n{}",
                      S.LibTorchVersion, fmt::join(Argv, " "), R.describe(0),
                      fileTail(Log, 6000)));
      return false;
    }
  }
  Probe = Dir + "/lib/libtorch-tidy-probe.so";
  S.ProbeBuiltForRun = true;
  phaseDone("probe", Start,
            fmt::format("built for LibTorch {}", S.LibTorchVersion));
  return true;
}

} // namespace libtorch_tidy::verify
