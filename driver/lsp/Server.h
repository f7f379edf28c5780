//===--- Server.h - `libtorch-tidy lsp`, a language server ------*- C++ -*-===//
//
// Part of libtorch-tidy. SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//
//
// A language server (LSP 3.17 over stdio) that runs beside clangd and
// publishes libtorch-tidy's findings with their fix-its as code actions.
// One thread: it reads messages, answers them at once, and runs analyses
// as worker processes (AnalysisProcess.h) that it polls, so a slow, hung or
// crashing analysis never holds up the protocol. An edit schedules the
// document's analysis after a quiet period (the debounce) and stops the
// analysis of the version before it; code actions asked for while the
// current version is being analyzed are answered when it is done, or with
// an error if the request is cancelled or the document changes first.
//
//===----------------------------------------------------------------------===//

#ifndef LIBTORCH_TIDY_DRIVER_LSP_SERVER_H
#define LIBTORCH_TIDY_DRIVER_LSP_SERVER_H

#include "lsp/AnalysisProcess.h"
#include "lsp/CompileCommandsLookup.h"
#include "lsp/Diagnostics.h"
#include "lsp/JsonRpc.h"
#include "lsp/ScratchDirectory.h"
#include <chrono>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace libtorch_tidy::lsp {

struct ServerOptions {
  /// The tool's own executable (absolute): the analyses' worker.
  std::string Executable;
  /// `--compile-commands-dir`: the database's directory; empty to search.
  std::string CompileCommandsDir;
  /// `--debounce-ms`: quiet time after an edit before its analysis starts.
  unsigned DebounceMs = 300;
  /// `--jobs`: analyses at once.
  unsigned Jobs = 2;
  /// `--analysis-timeout`: seconds one analysis may take.
  unsigned TimeoutSeconds = 120;
  /// `--cache-max-size`, handed to the analyses: the bound of the cache
  /// directory that holds the precompiled prefixes (empty: the CLI's
  /// default).
  std::string CacheMaxSize;
  /// `--remote-cache` (else LIBTORCH_TIDY_REMOTE_CACHE): read, never
  /// written, for files opened unchanged; empty for none.
  std::string RemoteCache;
  /// The installed docs/checks directory, or empty.
  std::string DocsDir;
};

/// `libtorch-tidy lsp [options]`: parses \p Args (after `lsp`) and serves on
/// stdin/stdout until `exit`, the end of the input or the parent's death.
/// Returns the exit code: 0 for exit (or the input's end) after shutdown, 1
/// without shutdown or when the editor is gone, 2 for bad usage.
int runLanguageServer(llvm::ArrayRef<const char *> Args,
                      const std::string &Executable);

class Server {
public:
  explicit Server(ServerOptions Options);
  /// Serves until the end; returns the exit code.
  int run(int InFd, int OutFd);

private:
  using Clock = std::chrono::steady_clock;

  struct Document {
    std::string Uri, Path, Text;
    long long Version = 0;
    /// When the next analysis is due; unset when none is.
    std::optional<Clock::time_point> Due;
    std::unique_ptr<AnalysisProcess> Running;
    /// The work-done progress token of the running analysis, once the
    /// client accepted it (its answer to window/workDoneProgress/create):
    /// nothing is sent on a token before that, or on one it refused.
    std::string Progress;
    /// The token asked for and not answered yet; its "begin" message.
    std::string ProgressAsked, ProgressBegin;
    long long RunningVersion = 0;
    std::string RunningText;
    /// The last analysis's findings, of version ResultVersion.
    std::optional<long long> ResultVersion;
    DocumentFindings Findings;
    /// The problem last shown for the document (shown once).
    std::string LastProblem;
    /// codeAction requests waiting for the current version's analysis.
    std::vector<std::pair<nlohmann::json, nlohmann::json>> Waiting;
  };

  // --- Protocol (Server.cpp). ---
  void handleBody(const std::string &Body);
  void handleRequest(const nlohmann::json &Id, const std::string &Method,
                     const nlohmann::json &Params);
  void handleNotification(const std::string &Method,
                          const nlohmann::json &Params);
  nlohmann::json initialize(const nlohmann::json &Params);
  void send(const nlohmann::json &Message);
  void reply(const nlohmann::json &Id, nlohmann::json Result);
  void replyError(const nlohmann::json &Id, int Code, llvm::StringRef Message);
  void notify(const std::string &Method, nlohmann::json Params);
  void showMessage(int Type, const std::string &Message);
  void logMessage(const std::string &Message);

  // --- Documents and analyses (ServerDocuments.cpp). ---
  void didOpen(const nlohmann::json &Params);
  void didChange(const nlohmann::json &Params);
  void didSave(const nlohmann::json &Params);
  void didClose(const nlohmann::json &Params);
  void didChangeWatchedFiles(const nlohmann::json &Params);
  void codeAction(const nlohmann::json &Id, const nlohmann::json &Params);
  void cancelRequest(const nlohmann::json &Params);
  void answerCodeAction(Document &Doc, const nlohmann::json &Id,
                        const nlohmann::json &Params);
  /// Answers the waiting code actions of \p Doc with an error.
  void dropWaiting(Document &Doc, int Code, llvm::StringRef Message);
  void publish(Document &Doc, long long Version);
  void showProblemOnce(Document &Doc, const std::string &Problem);
  /// Starts the analyses that are due, polls the running ones; returns how
  /// long the loop may sleep.
  int step();
  void start(Document &Doc);
  /// Stops the running analysis of \p Doc, if any.
  void stopAnalysis(Document &Doc);
  /// Tells the client that the running analysis builds (or waits for) its
  /// precompiled prefix, from the worker's notice line.
  void reportPreamble(Document &Doc, llvm::StringRef Notice);
  void endProgress(Document &Doc, const std::string &Message);
  void finished(Document &Doc);
  Document *document(const nlohmann::json &TextDocument);

  ServerOptions Options;
  CompileCommandsLookup Lookup;
  std::map<std::string, Document> Documents;
  /// Where the analyses' copies of unsaved texts go (ScratchDirectory.h).
  std::optional<ScratchDirectory> Scratch;
  int OutFd = 1;
  bool Initialized = false, ShuttingDown = false, Exited = false;
  int ExitCode = 1;
  int ParentPid = 0;
  bool DocumentChanges = false, WatchRegistration = false,
       WorkDoneProgress = false;
  int NextRequestId = 1;
  bool OutputBroken = false;
  /// Our window/workDoneProgress/create requests not answered yet: request
  /// id -> the document's URI.
  std::map<std::string, std::string> ProgressRequests;
  void progressAnswered(const nlohmann::json &Id, bool Accepted);
};

} // namespace libtorch_tidy::lsp

#endif // LIBTORCH_TIDY_DRIVER_LSP_SERVER_H
