//===--- WorkerProtocol.h - What a worker is asked and answers --*- C++ -*-===//
//
// Part of libtorch-tidy. SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//
//
// The one home of the worker protocol: a worker is the tool's own executable
// started with a request (run/Workers.h for a CLI run, lsp/AnalysisProcess.h
// for the language server, run/DetachedPrefixBuild.h for a prefix builder),
// and it answers with a result file. Both ends convert through here, as
// clangd's remote index marshals both ways in one translator:
//
// - The request is a few hidden `--worker-*` flags before the tool's own
//   arguments. WorkerRequest::arguments() writes them; takeWorkerRequest()
//   takes them out of a command line before the command-line parser sees
//   the rest (config/OptionsSetup.cpp), so no other file spells them.
// - The result (cache::WorkerResult without what the parent adds) is
//   MessagePack, not JSON text: paths are bytes, and JSON text can only
//   hold UTF-8. writeWorkerResult() writes it atomically; readWorkerResult()
//   reads it back or says why it cannot.
//
// Secrets are not part of the request: the remote cache's URLs, which may
// hold a password, travel in the worker's environment
// (LIBTORCH_TIDY_REMOTE_CACHE), never on a command line every user can read.
//
//===----------------------------------------------------------------------===//

#ifndef LIBTORCH_TIDY_DRIVER_WORKER_WORKERPROTOCOL_H
#define LIBTORCH_TIDY_DRIVER_WORKER_WORKERPROTOCOL_H

#include "cache/WorkerResult.h"
#include "worker/PrefixRole.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Error.h"
#include <string>
#include <vector>

namespace libtorch_tidy::worker {

/// What a parent asks of a worker. Empty and false fields are not sent.
struct WorkerRequest {
  /// `--worker-unit`: the one unit to analyze (absolute). Empty: this
  /// process is not a worker.
  std::string Unit;
  /// `--worker-output`: where the result goes (writeWorkerResult). Empty
  /// only for a prefix builder, which hands nothing back.
  std::string Output;
  /// `--worker-preamble=`: who builds a missing prefix.
  PrefixRole Prefix = PrefixRole::Analyze;
  /// `--worker-preamble-shared`: another unit of the run starts with the
  /// same includes (run/AnalysisSettings.h, PreambleShared).
  bool PreambleShared = false;
  /// `--worker-preamble-notice`, from the language server: the file that
  /// gets a line when the unit's prefix starts building.
  std::string PreambleNotice;
  /// `--worker-remote-lookup`, from the language server for a file whose
  /// open buffers all equal the files on disk: look the unit up in the
  /// remote cache (read only) before analyzing it.
  bool RemoteLookup = false;
  /// `--worker-summary-file`, from a CLI parent: the summaries of the
  /// database's other units written for this round
  /// (run/DatabaseSummaries.h), left out of the unit's dependencies.
  std::string SummaryFile;
  /// `--worker-database-summaries`, from the language server: read the
  /// summaries of the database's other units that the local result cache
  /// holds (run/DatabaseSummaries.h, cachedDatabaseSummaries).
  bool DatabaseSummaries = false;

  /// Whether this process was started as a worker.
  bool isWorker() const { return !Unit.empty(); }

  /// The request as the flags that go before the tool's own arguments.
  std::vector<std::string> arguments() const;
};

/// Takes the worker's flags out of \p Arguments (a command line without
/// the program's name) and returns the request they make; what is left is
/// the tool's own. Stops at `--`, after which every argument is the
/// compiler's. A flag whose value is not one the protocol knows is an
/// error that names it; an unknown `--worker-` flag is left for the
/// command-line parser to refuse.
llvm::Expected<WorkerRequest>
takeWorkerRequest(std::vector<std::string> &Arguments);

/// Writes \p Result to \p Path, atomically: the unit's findings and the
/// files it read (the parent adds the worker's stderr and time). Returns
/// why it could not, or nothing.
std::optional<std::string> writeWorkerResult(llvm::StringRef Path,
                                             const cache::WorkerResult &Result);

/// The result a worker wrote (\p Bytes: its whole file), or why none can be
/// read from it.
llvm::Expected<cache::WorkerResult> readWorkerResult(llvm::StringRef Bytes);

} // namespace libtorch_tidy::worker

#endif // LIBTORCH_TIDY_DRIVER_WORKER_WORKERPROTOCOL_H
