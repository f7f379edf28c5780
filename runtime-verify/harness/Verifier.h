//===--- Verifier.h - One verify run, end to end ----------------*- C++ -*-===//
//
// Part of libtorch-tidy. SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

#ifndef LIBTORCH_TIDY_RUNTIME_VERIFY_HARNESS_VERIFIER_H
#define LIBTORCH_TIDY_RUNTIME_VERIFY_HARNESS_VERIFIER_H

#include "Bundle.h"
#include "GpuSampler.h"
#include "LibTorchInstall.h"
#include "Options.h"
#include "RunData.h"
#include "Watchdog.h"
#include "Workspace.h"

#include <optional>
#include <string>
#include <vector>

namespace libtorch_tidy::verify {

/// Analyzes the target, applies the fix-its to a scratch copy, builds both
/// variants, runs each Options::Runs times (alternating) and reports.
class Verifier {
public:
  explicit Verifier(Options O) : Opt(std::move(O)) {}
  int run();

private:
  bool prepare();
  bool analyze();
  bool makeFixedCopy();
  /// Runs the analyzer with \p Args and --checks on \p Files, its output
  /// in <scratch>/<LogName>.log. Its exit code when the analysis itself
  /// succeeded (0 or 1); else an error naming \p What, and nothing.
  std::optional<int> runAnalyzer(std::vector<std::string> Args,
                                 const std::vector<std::string> &Files,
                                 const std::string &LogName,
                                 const std::string &What);
  bool build(const std::string &Variant, const std::string &BuildDir,
             const std::string &SourceRoot);
  /// The probe for the program's LibTorch: the installed one when it links
  /// the same LibTorch, else one built now from the probe's sources.
  bool chooseProbe();
  void runAll();
  RunRecord runOnce(const std::string &Variant, unsigned Index);
  std::vector<std::string> commandFor(const std::string &Variant) const;
  int finish();
  void removeScratch();

  // --prepare and --run-prepared (PreparedRun.cpp).
  /// Writes the bundle of the analyzed, fixed sources to Opt.PrepareDir.
  int writePrepared();
  int runPrepared();
  /// The LibTorch CMake package a bundle is built against: --torch-dir,
  /// else the one this harness was built with, else python3's torch.
  bool findTorchForBundle();
  bool buildPrepared(const std::string &Variant);
  /// The build and source directories of a variant of a bundle.
  std::string preparedBuildDir(const std::string &Variant) const;
  std::string preparedSourceRoot(const std::string &Variant) const;

  Options Opt;
  Session S;
  std::string Tools, Analyzer, Probe;
  std::string Scratch, ScratchSource, ScratchBuild;
  std::string SourceRoot; ///< the root copied (CMake home or --source)
  CMakeCache Cache;
  std::optional<LibTorchInstall> ProgramTorch; ///< from the build's Torch_DIR
  std::vector<std::string> Sources;
  GpuSampler Gpu;
  BundleRecipe Recipe; ///< --run-prepared: the bundle's
  Watchdog Guard;      ///< cleans up if this process is killed
  /// A new scratch directory, owned by this process and watched.
  bool makeScratch();
};

} // namespace libtorch_tidy::verify

#endif // LIBTORCH_TIDY_RUNTIME_VERIFY_HARNESS_VERIFIER_H
