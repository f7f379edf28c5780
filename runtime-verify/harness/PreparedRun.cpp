//===--- PreparedRun.cpp - verify --prepare and --run-prepared ------------===//
//
// Part of libtorch-tidy. SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//
//
// The analysis needs clang-16; a GPU machine often has none. --prepare ends
// a verify after the fix-its and writes a bundle (Bundle.h); --run-prepared,
// which needs only a C++17 compiler, CMake and LibTorch, builds the bundle's
// two trees against the LibTorch it finds and measures them as verify does.
//
//===----------------------------------------------------------------------===//

#include "LibTorchInstall.h"
#include "Phases.h"
#include "Process.h"
#include "Verifier.h"
#include "Workspace.h"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <cstdlib>
#include <filesystem>
#include <iostream>
#include <stdlib.h>
#include <unistd.h>

namespace fs = std::filesystem;

namespace libtorch_tidy::verify {

namespace {

/// The sources a bundle carries: an installed kit (share/libtorch-tidy/kit,
/// third-party headers inside), else the ones this harness was built from.
KitSources kitSources(const std::string &Tools) {
  const std::string Installed =
      Tools + "/../" CMAKE_INSTALL_DATADIR_STRING "/libtorch-tidy/kit";
  if (fs::exists(Installed + "/runtime-verify/harness/Verifier.cpp"))
    return {Installed, Installed + "/third_party/fmt/include",
            Installed + "/third_party/nlohmann_json/include"};
  return {LIBTORCH_TIDY_KIT_ROOT, LIBTORCH_TIDY_FMT_INCLUDE_DIR,
          LIBTORCH_TIDY_JSON_INCLUDE_DIR};
}

bool onPath(const std::string &Program) {
  const char *Path = std::getenv("PATH");
  std::string Dirs = Path ? Path : "";
  size_t Start = 0;
  while (Start <= Dirs.size()) {
    const size_t End = std::min(Dirs.find(':', Start), Dirs.size());
    const std::string Dir = Dirs.substr(Start, End - Start);
    std::string Candidate = Dir;
    Candidate.append("/").append(Program);
    if (!Dir.empty() && access(Candidate.c_str(), X_OK) == 0)
      return true;
    Start = End + 1;
  }
  return false;
}

} // namespace

int Verifier::writePrepared() {
  const Clock::time_point Start = Clock::now();
  BundleRecipe R;
  R.Target = Opt.Target;
  R.BuildCmd = Opt.BuildCmd;
  if (Opt.BuildCmd.empty()) {
    R.CMakeSubdir =
        fs::path(Cache.HomeDirectory).lexically_relative(SourceRoot).string();
    if (R.CMakeSubdir == ".")
      R.CMakeSubdir.clear();
    R.BuildType = Cache.BuildType;
  } else {
    R.BuildSubdir =
        fs::path(Opt.BuildDir).lexically_relative(SourceRoot).string();
  }
  for (const std::string &A : Opt.Command) {
    const std::string Abs = A.find('/') != std::string::npos ? absolute(A) : A;
    const std::string P = toPlaceholder(Abs, Opt.BuildDir, SourceRoot);
    R.Command.push_back(P == Abs ? A : P);
  }
  for (Finding F : S.Findings) {
    F.File = fs::path(F.File).lexically_relative(SourceRoot).string();
    R.Findings.push_back(std::move(F));
  }
  R.PreparedWithLibTorch = S.LibTorchVersion;
  std::string Error;
  if (!writeBundle(Opt.PrepareDir, R, SourceRoot, ScratchSource, Opt.BuildDir,
                   kitSources(Tools), Error)) {
    S.Errors.push_back(Error);
    phaseDone("prepare", Start, "failed");
  } else {
    phaseDone("prepare", Start,
              fmt::format("bundle of {:.1f} MiB",
                          static_cast<double>(directorySize(Opt.PrepareDir)) /
                              (1 << 20)));
    std::cout << fmt::format(
        "libtorch-tidy verify: bundle written to {}\n"
        "build and run it where LibTorch is (no analyzer needed):\n"
        "  libtorch-tidy-verify --run-prepared={} --json report.json\n",
        Opt.PrepareDir, Opt.PrepareDir);
  }
  for (const std::string &E : S.Errors)
    std::cout << "error: " << E << "\n";
  removeScratch();
  Guard.disarm();
  return S.Errors.empty() ? ExitOk : ExitFailed;
}

std::string Verifier::preparedSourceRoot(const std::string &Variant) const {
  return Scratch + "/" + Variant;
}

std::string Verifier::preparedBuildDir(const std::string &Variant) const {
  if (!Recipe.BuildCmd.empty())
    return preparedSourceRoot(Variant) +
           (Recipe.BuildSubdir.empty() ? "" : "/" + Recipe.BuildSubdir);
  return Scratch + "/" + Variant + "-build";
}

bool Verifier::findTorchForBundle() {
  std::string TorchDir = Opt.TorchDir;
  if (TorchDir.empty() && fs::exists(LIBTORCH_TIDY_PROBE_TORCH_DIR))
    TorchDir = LIBTORCH_TIDY_PROBE_TORCH_DIR;
  if (TorchDir.empty()) {
    // A pip-installed torch holds the CMake package LibTorch users build
    // with (torch.utils.cmake_prefix_path).
    ProcessSpec Spec;
    Spec.Argv = {"python3", "-c",
                 "import torch, sys; sys.stdout.write(torch.utils.cmake_"
                 "prefix_path)"};
    Spec.OutputFile = Scratch + "/python-torch.txt";
    Spec.TimeoutSeconds = 120;
    if (runProcess(Spec).ok())
      TorchDir = readFile(Spec.OutputFile) + "/Torch";
  }
  ProgramTorch = TorchDir.empty() ? std::nullopt : libTorchOfTorchDir(TorchDir);
  if (!ProgramTorch) {
    S.Errors.push_back(fmt::format(
        "no LibTorch found{}: pass --torch-dir <dir with TorchConfig.cmake>, "
        "or install torch for python3",
        TorchDir.empty() ? "" : " in " + TorchDir));
    return false;
  }
  S.LibTorchDir = ProgramTorch->Prefix.empty() ? ProgramTorch->TorchDir
                                               : ProgramTorch->Prefix;
  S.LibTorchVersion = ProgramTorch->Version;
  Cache.TorchDir = ProgramTorch->TorchDir;
  S.PreparedWithLibTorch = Recipe.PreparedWithLibTorch;
  // The fix-its were written against the headers of the LibTorch the
  // bundle was analyzed with; another one may not build them, or run them
  // differently.
  if (!Recipe.PreparedWithLibTorch.empty() && !S.LibTorchVersion.empty() &&
      Recipe.PreparedWithLibTorch != S.LibTorchVersion)
    S.Warnings.push_back(fmt::format(
        "the bundle was prepared with LibTorch {} and runs here against "
        "LibTorch {} ({}): its fixed variant was checked against the first; "
        "pass --torch-dir to run it against the LibTorch it was prepared with",
        Recipe.PreparedWithLibTorch, S.LibTorchVersion, S.LibTorchDir));
  return true;
}

bool Verifier::buildPrepared(const std::string &Variant) {
  BuildRecord B;
  B.Variant = Variant;
  const std::string Log = Scratch + "/build-" + Variant + ".log";
  const std::string Source = preparedSourceRoot(Variant);
  const std::string Build = preparedBuildDir(Variant);
  std::map<std::string, std::string> Env = {
      {"Torch_DIR", ProgramTorch->TorchDir}};
  auto Step = [&](const std::string &Phase, std::vector<std::string> Argv,
                  const std::string &Dir) {
    const Clock::time_point Start = Clock::now();
    B.Command = Argv;
    ProcessSpec Spec;
    Spec.Argv = std::move(Argv);
    Spec.WorkDir = Dir;
    Spec.OutputFile = Log;
    Spec.SetEnv = Env;
    ProcessResult R = runProcess(Spec);
    phaseDone(Phase + " " + Variant, Start, R.ok() ? "" : "failed");
    if (R.ok())
      return true;
    B.Log = fileTail(Log, 6000);
    S.Errors.push_back(
        fmt::format("the {} variant failed to build ({}: {}):\n{}", Variant,
                    fmt::join(B.Command, " "), R.describe(0), B.Log));
    return false;
  };
  bool Ok;
  if (!Recipe.BuildCmd.empty()) {
    Ok = Step("build", {"/bin/sh", "-c", Recipe.BuildCmd}, Source);
  } else {
    std::vector<std::string> Configure = {
        "cmake",
        "-S",
        Source + (Recipe.CMakeSubdir.empty() ? "" : "/" + Recipe.CMakeSubdir),
        "-B",
        Build,
        "-DCMAKE_BUILD_TYPE=" +
            (Recipe.BuildType.empty() ? "Release" : Recipe.BuildType),
        "-DTorch_DIR=" + ProgramTorch->TorchDir};
    if (!ProgramTorch->Prefix.empty())
      Configure.push_back("-DCMAKE_PREFIX_PATH=" + ProgramTorch->Prefix);
    if (!Cache.Generator.empty())
      Configure.insert(Configure.end(), {"-G", Cache.Generator});
    Ok = Step("configure", Configure, Scratch) &&
         Step("build", {"cmake", "--build", Build, "--target", Recipe.Target},
              Scratch);
  }
  B.Ok = Ok;
  S.Builds.push_back(B);
  return Ok;
}

int Verifier::runPrepared() {
  std::string Error;
  if (!readBundle(Opt.RunPreparedDir, Recipe, Error)) {
    S.Errors.push_back(Error);
    return finish();
  }
  Tools = selfDir();
  for (const std::string &Candidate :
       {Tools + "/../lib/libtorch-tidy-probe.so",
        Tools + "/../" CMAKE_INSTALL_LIBDIR_STRING "/libtorch-tidy-probe.so"})
    if (fs::exists(Candidate)) {
      Probe = absolute(Candidate);
      break;
    }
  Opt.Command = Recipe.Command;
  Opt.Target = Recipe.Target;
  Opt.BuildCmd = Recipe.BuildCmd;
  S.RunCommand = Recipe.Command;
  S.Findings = Recipe.Findings;
  if (!makeScratch())
    return finish();
  installInterruptCleanup([this] { removeScratch(); });
  // Built in a copy: the bundle may be read-only, and stays reusable.
  for (const char *Variant : {"original", "fixed"})
    if (!copySourceTree(Opt.RunPreparedDir + "/" + Variant, Scratch + "/none",
                        preparedSourceRoot(Variant), Error)) {
      S.Errors.push_back(Error);
      return finish();
    }
  if (onPath("ninja"))
    Cache.Generator = "Ninja";
  if (!findTorchForBundle())
    return finish();
  const bool OriginalBuilt = buildPrepared("original");
  const bool FixedBuilt = buildPrepared("fixed");
  if (!OriginalBuilt || !FixedBuilt || !chooseProbe())
    return finish();
  if (Opt.Probe && Probe.empty()) {
    S.Errors.push_back("libtorch-tidy-probe.so was neither built next to "
                       "this harness nor buildable; or pass --no-probe");
    return finish();
  }
  runAll();
  return finish();
}

} // namespace libtorch_tidy::verify
