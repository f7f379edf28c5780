//===--- Options.cpp - verify's command line ------------------------------===//
//
// Part of libtorch-tidy. SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

#include "Options.h"
#include "io/FileIO.h"

#include <fmt/format.h>

#include <cstdlib>
#include <filesystem>
#include <iostream>
#include <optional>

namespace fs = std::filesystem;

namespace libtorch_tidy::verify {

namespace {

const char *Usage =
    R"(usage: libtorch-tidy verify -p <build dir> (--target <cmake target> | --build-cmd '<cmd>')
                           [--checks=<globs>] [--runs N] [--timeout S]
                           [--source <dir>] [--json <file>] [--html <file>]
                           [--keep] [--no-probe] [--prepare=<dir>]
                           -- <run command> [args...]
       libtorch-tidy-verify --run-prepared=<dir> [--torch-dir <dir>]
                           [--runs N] [--timeout S] [--json <file>]
                           [--html <file>] [--keep] [--no-probe]

Runs the analyzer on the target's sources, applies its fix-its to a scratch
copy, builds the original and the fixed copy, runs each N times (default 3,
alternating) under a time limit (default 600 s) with the probe preloaded, and
reports wall time, steps/s, host syncs and copies per step, CPU and GPU
utilization, and what each finding moved.

In the run command, paths under the build directory or the source root
name the original; the fixed variant runs the same command with them moved
to the scratch copy.

--prepare=<dir> stops after the fix-its and writes a bundle to <dir> (which
must not exist): both source trees, the build recipe, the findings and the
harness's and the probe's sources. --run-prepared=<dir> (the harness alone:
a C++17 compiler, CMake and LibTorch, no analyzer) builds both variants of
a bundle against the LibTorch it finds (--torch-dir, else the one this
harness was built with, else python3's torch) and runs them as verify does.

Exit codes: 0 all builds and runs succeeded, 2 usage
error or a failed build or run (reported).
)";

[[noreturn]] void usageError(const std::string &Message) {
  std::cerr << "libtorch-tidy verify: error: " << Message << " (see --help)\n";
  std::exit(ExitFailed);
}

} // namespace

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
    // Not `D < Min || D > Max`, which would let NaN through.
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
    else if (auto V = Value(I, Arg, "--prepare"))
      O.PrepareDir = *V;
    else if (auto V = Value(I, Arg, "--run-prepared"))
      O.RunPreparedDir = *V;
    else if (auto V = Value(I, Arg, "--torch-dir"))
      O.TorchDir = *V;
    else if (Arg == "--keep")
      O.Keep = true;
    else if (Arg == "--no-probe")
      O.Probe = false;
    else
      usageError(fmt::format("unknown argument '{}'", Arg));
  }
  if (!O.RunPreparedDir.empty()) {
    // Everything else comes from the bundle (Bundle.h).
    if (!O.BuildDir.empty() || !O.Target.empty() || !O.BuildCmd.empty() ||
        !O.Command.empty() || !O.PrepareDir.empty() || !O.Checks.empty())
      usageError("--run-prepared takes the build, the target and the run "
                 "command from the bundle: drop -p, --target, --build-cmd, "
                 "--checks, --prepare and the command after '--'");
    for (const std::string *Report : {&O.JsonPath, &O.HtmlPath})
      if (std::optional<std::string> Problem = io::checkWritable(*Report))
        usageError(*Problem);
    O.RunPreparedDir = absolute(O.RunPreparedDir);
    if (!fs::is_directory(O.RunPreparedDir))
      usageError(fmt::format("{}: not a directory (a bundle written by "
                             "verify --prepare)",
                             O.RunPreparedDir));
    if (!O.TorchDir.empty())
      O.TorchDir = absolute(O.TorchDir);
    return O;
  }
  if (!O.TorchDir.empty())
    usageError("--torch-dir goes with --run-prepared");
  if (O.BuildDir.empty())
    usageError("-p <build dir> is required");
  if (O.Target.empty() == O.BuildCmd.empty())
    usageError("give exactly one of --target and --build-cmd");
  if (O.Command.empty())
    usageError("the run command is missing after '--'");
  // The reports are written after every build and run: a path that cannot
  // be written must fail now, not after minutes of work.
  for (const std::string *Report : {&O.JsonPath, &O.HtmlPath})
    if (std::optional<std::string> Problem = io::checkWritable(*Report))
      usageError(*Problem);
  O.BuildDir = absolute(O.BuildDir);
  if (!fs::is_directory(O.BuildDir))
    usageError(fmt::format("{}: not a directory", O.BuildDir));
  if (!O.PrepareDir.empty()) {
    // A bundle is written whole into a new directory, never over files.
    O.PrepareDir = absolute(O.PrepareDir);
    std::error_code EC;
    if (fs::exists(O.PrepareDir, EC) && !fs::is_empty(O.PrepareDir, EC))
      usageError(fmt::format("{}: exists and is not empty; --prepare writes "
                             "a new directory (remove it or name another)",
                             O.PrepareDir));
    if (!fs::is_directory(fs::path(O.PrepareDir).parent_path(), EC))
      usageError(
          fmt::format("{}: its parent directory does not exist", O.PrepareDir));
  }
  return O;
}

} // namespace libtorch_tidy::verify
