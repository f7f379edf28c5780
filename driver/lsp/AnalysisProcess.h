//===--- AnalysisProcess.h - One analysis in a worker process ---*- C++ -*-===//
//
// Part of libtorch-tidy. SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//
//
// The server analyzes a document the way the CLI analyzes a unit: in a worker
// process of the same executable (`--worker-unit`), with the CLI's option
// setup (.clang-tidy discovery, CheckOptions, NOLINT, the default tier) and
// the flags of the compile command. What the editor holds and has not saved
// reaches the worker through a virtual file system overlay (`--vfsoverlay`)
// of every open document. A worker that crashes or hangs takes nothing with
// it: the server kills its process group, and a newer edit does the same to
// an analysis of an older version that only just started.
//
//===----------------------------------------------------------------------===//

#ifndef LIBTORCH_TIDY_DRIVER_LSP_ANALYSISPROCESS_H
#define LIBTORCH_TIDY_DRIVER_LSP_ANALYSISPROCESS_H

#include "model/Findings.h"
#include "worker/PrefixRole.h"
#include "llvm/ADT/StringRef.h"
#include <chrono>
#include <map>
#include <optional>
#include <string>
#include <sys/types.h>
#include <vector>

namespace libtorch_tidy::lsp {

struct AnalysisRequest {
  /// The tool's executable (absolute).
  std::string Executable;
  /// The document (absolute path).
  std::string File;
  /// The directory of compile_commands.json (the CLI's `-p`).
  std::string DatabaseDirectory;
  /// Every open document: absolute path -> the editor's content.
  std::map<std::string, std::string> Unsaved;
  /// Seconds the analysis may take.
  unsigned TimeoutSeconds = 120;
  /// `--cache-max-size` for the worker; empty for the default.
  std::string CacheMaxSize;
  /// `--remote-cache` for a lookup before the analysis (read only); empty
  /// for none.
  std::string RemoteCache;
  /// Where the unsaved texts go (the server's ScratchDirectory); empty for
  /// the system's temporary directory.
  std::string ScratchRoot;
  /// Who builds a missing prefix (worker/PrefixRole.h): ReuseOnly for an
  /// analysis, BuildOnly for a prefix builder.
  worker::PrefixRole Prefix = worker::PrefixRole::ReuseOnly;
  /// The tests' slow machine: the analysis is not reported done before
  /// this many seconds (LIBTORCH_TIDY_TEST_ANALYSIS_SECONDS, read by the
  /// server); 0 outside the tests.
  double MinimumSeconds = 0;
};

struct AnalysisOutcome {
  /// Set when the worker wrote its result.
  std::optional<model::TranslationUnitResult> Unit;
  /// Otherwise one line: why there is no result (a configuration error the
  /// worker printed, a crash, a timeout).
  std::string Problem;
  double Seconds = 0;
};

class AnalysisProcess {
public:
  /// Starts the worker; on failure, finished() is true at once with the
  /// problem.
  explicit AnalysisProcess(const AnalysisRequest &Request);
  /// Kills the worker if it still runs, and removes the temporary files.
  ~AnalysisProcess();
  AnalysisProcess(const AnalysisProcess &) = delete;
  AnalysisProcess &operator=(const AnalysisProcess &) = delete;

  /// Whether the worker has ended (or was killed for its timeout); then
  /// outcome() holds what it produced. Does not block.
  bool poll();
  AnalysisOutcome &outcome() { return Outcome; }
  /// Once, when the worker has said that the unit's precompiled prefix
  /// started building (`building <torch/torch.h>`) or that it waits for
  /// another process building it (`waiting ...`): the line it wrote.
  std::optional<std::string> preambleNotice();

  /// Stops the worker's process group where it is (SIGSTOP) until resume();
  /// the server's time limit for it does not run meanwhile. The worker's
  /// own --unit-timeout counts wall time: pauses must stay short beside it.
  void pause();
  void resume();
  bool paused() const { return PausedAt.has_value(); }
  /// Seconds it has spent paused, the pause in progress included.
  double pausedSeconds() const;
  /// Seconds since it started, less those it spent paused.
  double activeSeconds() const;

private:
  /// Makes the worker's scratch directory with the unsaved texts, their
  /// overlay and the paths of its files; returns why it could not.
  std::optional<std::string> writeScratch(const AnalysisRequest &Request);
  /// Starts the worker in a process group of its own, with nothing on its
  /// standard input and output and its stderr into StderrPath; returns why
  /// it could not.
  std::optional<std::string> start(std::vector<std::string> Arguments,
                                   std::vector<std::string> Environment);
  void finish(int Status);

  std::string TempDir, OverlayPath, OutputPath, StderrPath, NoticePath;
  bool NoticeSeen = false;
  pid_t Pid = -1;
  std::chrono::steady_clock::time_point Started, Deadline, NotBefore;
  std::optional<std::chrono::steady_clock::time_point> PausedAt;
  std::chrono::steady_clock::duration PausedBefore{};
  bool Done = false;
  AnalysisOutcome Outcome;
};

/// The YAML of clang's -ivfsoverlay mapping each path of \p Files to the
/// file of the same index under \p Directory (`<index>.src`), with the
/// original names kept (use-external-names: false).
std::string overlayYaml(const std::map<std::string, std::string> &Files,
                        llvm::StringRef Directory);

} // namespace libtorch_tidy::lsp

#endif // LIBTORCH_TIDY_DRIVER_LSP_ANALYSISPROCESS_H
