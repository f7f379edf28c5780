//===--- Main.cpp - libtorch-tidy verify ----------------------------------===//
//
// Part of libtorch-tidy. SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//
//
// `libtorch-tidy verify`: runs the analyzer on a target's sources, applies
// the fix-its to a scratch copy, builds both variants, runs each several
// times (alternating, same arguments and environment, each under a time
// limit, with the probe preloaded) and reports what each finding cost.
//
// Exit codes: 0 every build and run succeeded; 2 bad usage, or a build or a
// run failed (each failure is a report line).
//
//===----------------------------------------------------------------------===//

#include "GpuSampler.h"
#include "Process.h"
#include "Report.h"
#include "RunData.h"
#include "Workspace.h"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <climits>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <optional>
#include <sstream>
#include <unistd.h>

namespace fs = std::filesystem;
using namespace libtorch_tidy::verify;

namespace {

constexpr int ExitOk = 0;
constexpr int ExitFailed = 2;

const char *Usage =
    R"(usage: libtorch-tidy verify -p <build dir> (--target <cmake target> | --build-cmd '<cmd>')
                           [--checks=<globs>] [--runs N] [--timeout S]
                           [--source <dir>] [--json <file>] [--html <file>]
                           [--keep] [--no-probe] -- <run command> [args...]

Runs the analyzer on the target's sources, applies its fix-its to a scratch
copy, builds the original and the fixed copy, runs each N times (default 3,
alternating) under a time limit (default 600 s) with the probe preloaded, and
reports wall time, steps/s, host syncs and copies per step, CPU and GPU
utilization, and what each finding moved.

In the run command, paths under the build directory or the source root
name the original; the fixed variant runs the same command with them moved
to the scratch copy. Exit codes: 0 all builds and runs succeeded, 2 usage
error or a failed build or run (reported).
)";

struct Options {
  std::string BuildDir;
  std::string Target;
  std::string BuildCmd;
  std::string SourceRoot;
  std::string Checks;
  unsigned Runs = 3;
  double Timeout = 600;
  std::string JsonPath, HtmlPath;
  bool Keep = false;
  bool Probe = true;
  std::vector<std::string> Command;
};

[[noreturn]] void usageError(const std::string &Message) {
  std::cerr << "libtorch-tidy verify: error: " << Message << " (see --help)\n";
  std::exit(ExitFailed);
}

std::string absolute(const std::string &P) {
  std::error_code EC;
  fs::path A = fs::weakly_canonical(fs::absolute(P), EC);
  return EC ? fs::absolute(P).lexically_normal().string() : A.string();
}

Options parseOptions(int Argc, char **Argv) {
  Options O;
  auto Value = [&](int &I, const std::string &Arg,
                   const std::string &Name) -> std::optional<std::string> {
    if (Arg == Name) {
      if (I + 1 >= Argc)
        usageError(Name + " needs a value");
      return std::string(Argv[++I]);
    }
    if (Arg.rfind(Name + "=", 0) == 0)
      return Arg.substr(Name.size() + 1);
    return std::nullopt;
  };
  auto Number = [](const std::string &Name, const std::string &V, double Min,
                   double Max) {
    char *End = nullptr;
    const double D = std::strtod(V.c_str(), &End);
    if (V.empty() || *End != '\0' || !(D >= Min && D <= Max))
      usageError(fmt::format("{} '{}': expected a number from {} to {}", Name,
                             V, Min, Max));
    return D;
  };
  for (int I = 1; I < Argc; ++I) {
    const std::string Arg = Argv[I];
    if (Arg == "--") {
      for (++I; I < Argc; ++I)
        O.Command.push_back(Argv[I]);
      break;
    }
    if (Arg == "-h" || Arg == "--help") {
      std::cout << Usage;
      std::exit(ExitOk);
    }
    if (auto V = Value(I, Arg, "-p"))
      O.BuildDir = *V;
    else if (auto V = Value(I, Arg, "--target"))
      O.Target = *V;
    else if (auto V = Value(I, Arg, "--build-cmd"))
      O.BuildCmd = *V;
    else if (auto V = Value(I, Arg, "--source"))
      O.SourceRoot = *V;
    else if (auto V = Value(I, Arg, "--checks"))
      O.Checks = *V;
    else if (auto V = Value(I, Arg, "--runs"))
      O.Runs = static_cast<unsigned>(Number("--runs", *V, 1, 1000));
    else if (auto V = Value(I, Arg, "--timeout"))
      O.Timeout = Number("--timeout", *V, 0.1, 86400);
    else if (auto V = Value(I, Arg, "--json"))
      O.JsonPath = *V;
    else if (auto V = Value(I, Arg, "--html"))
      O.HtmlPath = *V;
    else if (Arg == "--keep")
      O.Keep = true;
    else if (Arg == "--no-probe")
      O.Probe = false;
    else
      usageError(fmt::format("unknown argument '{}'", Arg));
  }
  if (O.BuildDir.empty())
    usageError("-p <build dir> is required");
  if (O.Target.empty() == O.BuildCmd.empty())
    usageError("give exactly one of --target and --build-cmd");
  if (O.Command.empty())
    usageError("the run command is missing after '--'");
  O.BuildDir = absolute(O.BuildDir);
  if (!fs::is_directory(O.BuildDir))
    usageError(fmt::format("{}: not a directory", O.BuildDir));
  return O;
}

/// The directory of this executable, for its siblings.
std::string selfDir() {
  std::error_code EC;
  return fs::read_symlink("/proc/self/exe", EC).parent_path().string();
}

std::string readFile(const std::string &Path) {
  std::ifstream In(Path, std::ios::binary);
  std::stringstream SS;
  SS << In.rdbuf();
  return SS.str();
}

/// Reads every probe-<pid>.json a run left in Dir.
ProbeCounts readProbe(const std::string &Dir) {
  ProbeCounts P;
  std::error_code EC;
  uint64_t MostSteps = 0;
  for (const auto &Entry : fs::directory_iterator(Dir, EC)) {
    const std::string Name = Entry.path().filename().string();
    if (Name.rfind("probe-", 0) != 0 || Entry.path().extension() != ".json")
      continue;
    nlohmann::json J;
    try {
      J = nlohmann::json::parse(readFile(Entry.path().string()));
    } catch (const std::exception &) {
      continue;
    }
    P.Present = true;
    P.Raw.push_back(J);
    const uint64_t Steps = J.value("steps", uint64_t{0});
    P.Steps += Steps;
    P.HostSyncs += J.value("host_syncs", uint64_t{0});
    P.LocalScalarDense +=
        J["ops"].value("aten::_local_scalar_dense", uint64_t{0});
    P.DeviceToHost += J.value("device_to_host", uint64_t{0});
    P.HostToDeviceBlocking += J.value("host_to_device_blocking", uint64_t{0});
    P.HostToDeviceNonBlocking +=
        J.value("host_to_device_non_blocking", uint64_t{0});
    P.CudaSyncWarnings += J.value("cuda_sync_warnings", uint64_t{0});
    P.CudaSyncDebug = P.CudaSyncDebug || J.value("cuda_sync_debug", false);
    if (Steps > MostSteps || P.StepStartSeconds.empty()) {
      MostSteps = Steps;
      P.StepStartSeconds.clear();
      for (const auto &Ns : J["step_start_ns"])
        P.StepStartSeconds.push_back(Ns.get<double>() / 1e9);
    }
  }
  return P;
}

class Verifier {
public:
  explicit Verifier(Options O) : Opt(std::move(O)) {}
  int run();

private:
  bool prepare();
  bool analyze();
  bool makeFixedCopy();
  bool build(const std::string &Variant, const std::string &BuildDir,
             const std::string &SourceRoot);
  void runAll();
  RunRecord runOnce(const std::string &Variant, unsigned Index);
  std::vector<std::string> commandFor(const std::string &Variant) const;
  int finish();
  void removeScratch();

  Options Opt;
  Session S;
  std::string Tools, Analyzer, Probe;
  std::string Scratch, ScratchSource, ScratchBuild;
  std::string SourceRoot; ///< the root copied (CMake home or --source)
  CMakeCache Cache;
  std::vector<std::string> Sources;
  GpuSampler Gpu;
};

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
  if (Opt.Probe && Probe.empty()) {
    S.Errors.push_back(fmt::format(
        "libtorch-tidy-probe.so not found next to {} (in ../lib): it is "
        "built only where LibTorch was found; or pass --no-probe",
        Tools));
    return false;
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
  }
  std::string Error;
  if (!targetSources(Opt.BuildDir, Opt.Target, SourceRoot, Sources, Error)) {
    S.Errors.push_back(Error);
    return false;
  }
  std::string Template =
      (fs::temp_directory_path() / "libtorch-tidy-verify-XXXXXX").string();
  if (mkdtemp(Template.data()) == nullptr) {
    S.Errors.push_back(fmt::format("cannot create a scratch directory in {}",
                                   fs::temp_directory_path().string()));
    return false;
  }
  Scratch = Template;
  S.ScratchDir = Scratch;
  ScratchSource = Scratch + "/src";
  ScratchBuild = Opt.BuildCmd.empty()
                     ? Scratch + "/build"
                     : movePath(Opt.BuildDir, SourceRoot, ScratchSource);
  installInterruptCleanup([this] { removeScratch(); });
  return true;
}

bool Verifier::analyze() {
  const std::string Yaml = Scratch + "/findings.yaml";
  ProcessSpec Spec;
  Spec.Argv = {Analyzer, "-p", Opt.BuildDir, "--quiet",
               "--export-fixes=" + Yaml};
  if (!Opt.Checks.empty())
    Spec.Argv.push_back("--checks=" + Opt.Checks);
  Spec.Argv.insert(Spec.Argv.end(), Sources.begin(), Sources.end());
  Spec.OutputFile = Scratch + "/analyze.log";
  ProcessResult R = runProcess(Spec);
  // 0 no findings, 1 findings; 2 and 3 are errors of the analysis itself.
  if (!R.Started || R.Signal != 0 || (R.ExitCode != 0 && R.ExitCode != 1)) {
    S.Errors.push_back(fmt::format("the analyzer failed ({}):\n{}",
                                   R.describe(0),
                                   fileTail(Spec.OutputFile, 4000)));
    return false;
  }
  if (R.ExitCode == 0)
    return true;
  std::string Error;
  if (!parseExportedFixes(readFile(Yaml), S.Findings, Error)) {
    S.Errors.push_back(fmt::format("{}: {}", Yaml, Error));
    return false;
  }
  return true;
}

bool Verifier::makeFixedCopy() {
  std::string Error;
  if (!copySourceTree(SourceRoot, Opt.BuildDir, ScratchSource, Error) ||
      !writeMovedCompileCommands(Opt.BuildDir, Sources, SourceRoot,
                                 ScratchSource, ScratchBuild,
                                 Scratch + "/fixdb", Error)) {
    S.Errors.push_back(Error);
    return false;
  }
  bool AnyFix = false;
  for (const Finding &F : S.Findings)
    AnyFix = AnyFix || F.HasFix;
  if (!AnyFix) {
    S.Warnings.push_back("no finding has a fix-it: both variants are the "
                         "same program (the runs measure the noise)");
    return true;
  }
  ProcessSpec Spec;
  Spec.Argv = {Analyzer, "-p", Scratch + "/fixdb", "--quiet", "--fix"};
  if (!Opt.Checks.empty())
    Spec.Argv.push_back("--checks=" + Opt.Checks);
  for (const std::string &F : Sources)
    Spec.Argv.push_back(movePath(F, SourceRoot, ScratchSource));
  Spec.OutputFile = Scratch + "/fix.log";
  ProcessResult R = runProcess(Spec);
  if (!R.Started || R.Signal != 0 || (R.ExitCode != 0 && R.ExitCode != 1)) {
    S.Errors.push_back(fmt::format("applying the fix-its failed ({}):\n{}",
                                   R.describe(0),
                                   fileTail(Spec.OutputFile, 4000)));
    return false;
  }
  return true;
}

bool Verifier::build(const std::string &Variant, const std::string &BuildDir,
                     const std::string &Root) {
  BuildRecord B;
  B.Variant = Variant;
  const std::string Log = Scratch + "/build-" + Variant + ".log";
  auto Step = [&](std::vector<std::string> Argv, const std::string &Dir) {
    B.Command = Argv;
    ProcessSpec Spec;
    Spec.Argv = std::move(Argv);
    Spec.WorkDir = Dir;
    Spec.OutputFile = Log;
    ProcessResult R = runProcess(Spec);
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
    Ok = Step({"/bin/sh", "-c", Opt.BuildCmd}, Root);
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
      Ok = Step(Configure, Scratch);
    }
    Ok = Ok &&
         Step({"cmake", "--build", BuildDir, "--target", Opt.Target}, Scratch);
  }
  B.Ok = Ok;
  S.Builds.push_back(B);
  return Ok;
}

std::vector<std::string>
Verifier::commandFor(const std::string &Variant) const {
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
  if (R.Process.LeftChildren)
    S.Warnings.push_back(fmt::format(
        "{} run {} left processes running; they were killed", Variant, Index));
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
      std::cerr << fmt::format("libtorch-tidy verify: run {}/{} of {}\n", I,
                               Opt.Runs, Variant);
      S.RunsDone.push_back(runOnce(Variant, I));
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
  if (!Opt.JsonPath.empty()) {
    const std::string Tmp = Opt.JsonPath + ".tmp";
    std::ofstream Out(Tmp);
    Out << jsonReport(S).dump(2) << "\n";
    Out.close();
    if (!Out || std::rename(Tmp.c_str(), Opt.JsonPath.c_str()) != 0) {
      std::cerr << "libtorch-tidy verify: error: cannot write " << Opt.JsonPath
                << "\n";
      S.Errors.push_back("cannot write " + Opt.JsonPath);
    }
  }
  if (!Opt.HtmlPath.empty()) {
    const std::string Tmp = Opt.HtmlPath + ".tmp";
    std::ofstream Out(Tmp);
    Out << htmlReport(S);
    Out.close();
    if (!Out || std::rename(Tmp.c_str(), Opt.HtmlPath.c_str()) != 0) {
      std::cerr << "libtorch-tidy verify: error: cannot write " << Opt.HtmlPath
                << "\n";
      S.Errors.push_back("cannot write " + Opt.HtmlPath);
    }
  }
  removeScratch();
  return S.Errors.empty() ? ExitOk : ExitFailed;
}

int Verifier::run() {
  S.RunCommand = Opt.Command;
  S.Runs = Opt.Runs;
  S.TimeoutSeconds = Opt.Timeout;
  S.ProbeEnabled = Opt.Probe;
  S.GpuDescription = Gpu.description();
  if (!prepare() || !analyze() || !makeFixedCopy())
    return finish();
  const bool OriginalBuilt = build("original", Opt.BuildDir, SourceRoot);
  const bool FixedBuilt = build("fixed", ScratchBuild, ScratchSource);
  if (!OriginalBuilt || !FixedBuilt)
    return finish();
  runAll();
  return finish();
}

} // namespace

int main(int Argc, char **Argv) {
  Verifier V(parseOptions(Argc, Argv));
  return V.run();
}
