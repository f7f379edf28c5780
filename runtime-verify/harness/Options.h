//===--- Options.h - verify's command line ----------------------*- C++ -*-===//
//
// Part of libtorch-tidy. SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

#ifndef LIBTORCH_TIDY_RUNTIME_VERIFY_HARNESS_OPTIONS_H
#define LIBTORCH_TIDY_RUNTIME_VERIFY_HARNESS_OPTIONS_H

#include <string>
#include <vector>

namespace libtorch_tidy::verify {

/// Exit codes: 0 every build and run succeeded; 2 bad usage, or a build or a
/// run failed (each failure is a report line).
constexpr int ExitOk = 0;
constexpr int ExitFailed = 2;

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
  /// --prepare=<dir>: analyze and fix as usual, then write a bundle that
  /// --run-prepared builds and runs on a machine without the analyzer.
  std::string PrepareDir;
  /// --run-prepared=<dir>: build and run a bundle; -p, --target,
  /// --build-cmd and the run command come from it.
  std::string RunPreparedDir;
  /// --torch-dir: the LibTorch CMake package to build a bundle against.
  std::string TorchDir;
};

/// Parses the command line; prints the usage and exits (ExitOk) on --help,
/// or a one-line error and exits (ExitFailed) on bad usage.
Options parseOptions(int Argc, char **Argv);

/// \p P made absolute and normal, symlinks resolved where it exists.
std::string absolute(const std::string &P);

} // namespace libtorch_tidy::verify

#endif // LIBTORCH_TIDY_RUNTIME_VERIFY_HARNESS_OPTIONS_H
