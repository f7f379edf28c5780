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
// document's analysis after a quiet period (the debounce); the analysis of
// the version before it is stopped if it only just started, else it ends,
// publishes, and then the newest version is analyzed (editKeeps()); never
// two of one document at once. Code actions asked for while the
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
#include "lsp/WorkDoneProgress.h"
#include <chrono>
#include <map>
#include <memory>
#include <optional>
#include <set>
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
/// Whether \p Path names a header: it has no compile command of its own; its
/// findings come with the sources that include it (as in the CLI).
bool isHeaderPath(llvm::StringRef Path);

int runLanguageServer(llvm::ArrayRef<const char *> Args,
                      const std::string &Executable);

class Server {
public:
  explicit Server(ServerOptions Options);
  /// Serves until the end; returns the exit code.
  int run(int InFd, int OutFd);

private:
  using Clock = std::chrono::steady_clock;

  struct WaitingRequest {
    nlohmann::json Id;
    std::string Method;
    nlohmann::json Params;
  };

  struct Document {
    std::string Uri, Path, Text;
    long long Version = 0;
    /// When the next analysis is due; unset when none is.
    std::optional<Clock::time_point> Due;
    std::unique_ptr<AnalysisProcess> Running;
    /// The work-done progress token of the running analysis
    /// (WorkDoneProgress.h); empty when none.
    std::string Progress;
    /// The running analysis found its precompiled prefix missing (a
    /// `missing <headers>` notice): the headers, for PrefixBuild.
    std::string MissingPrefix;
    /// The running analysis parses without the prefix that a build of ours
    /// is making: when that build ends, it starts again against it.
    bool ParsingBesideBuild = false;
    /// How long the last analysis took that parsed without a prefix.
    std::optional<double> PlainSeconds;
    /// When the running (or last) analysis started.
    Clock::time_point AnalysisStarted;
    /// When the document was opened.
    Clock::time_point Opened;
    /// How long the longest analysis ran that was stopped before it
    /// published, since the document was opened: the least one takes.
    std::optional<double> StoppedSeconds;
    /// An edit stopped an analysis since the last publish (editKeeps()).
    bool EditStopped = false;
    /// The prefix build's wait for the first diagnostics is over
    /// (startOverdueBuild()).
    bool BuildOverdue = false;
    long long RunningVersion = 0;
    std::string RunningText;
    /// The last analysis's findings, of version ResultVersion.
    std::optional<long long> ResultVersion;
    DocumentFindings Findings;
    /// The problem last shown for the document (shown once).
    std::string LastProblem;
    /// Requests on the document (code actions, pulled diagnostics, hovers)
    /// waiting for the current version's analysis.
    std::vector<WaitingRequest> Waiting;
    /// Counts the results: the resultId of pulled diagnostics.
    unsigned long long ResultSerial = 0;
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

  // --- Documents (ServerDocuments.cpp). ---
  void didOpen(const nlohmann::json &Params);
  void didChange(const nlohmann::json &Params);
  void didSave(const nlohmann::json &Params);
  void didClose(const nlohmann::json &Params);
  void didChangeWatchedFiles(const nlohmann::json &Params);
  /// textDocument/codeAction, textDocument/diagnostic and
  /// textDocument/hover: answered from the current version's findings, once
  /// its analysis is done.
  void documentRequest(const nlohmann::json &Id, const std::string &Method,
                       const nlohmann::json &Params);
  void answer(Document &Doc, const WaitingRequest &Request);
  /// Answers every request waiting for \p Doc's analysis.
  void answerWaiting(Document &Doc);
  void executeCommand(const nlohmann::json &Id, const nlohmann::json &Params);
  void cancelRequest(const nlohmann::json &Params);
  /// Answers the requests waiting for \p Doc's analysis with an error, but
  /// pulled diagnostics, which wait for the next version's, unless the
  /// document was \p Closed.
  void dropWaiting(Document &Doc, int Code, llvm::StringRef Message,
                   bool Closed = false);

  // --- Analyses (ServerAnalyses.cpp). ---
  void publish(Document &Doc, long long Version);
  void showProblemOnce(Document &Doc, const std::string &Problem);
  /// Starts the analyses that are due, polls the running ones; returns how
  /// long the loop may sleep.
  int step();
  void start(Document &Doc);
  /// A worker for \p Doc with \p Command's database and every open
  /// document's text, whose prefix role is \p Prefix.
  AnalysisRequest workerRequest(const Document &Doc,
                                const CommandLookup &Command,
                                worker::PrefixRole Prefix) const;
  /// Stops the running analysis of \p Doc, if any.
  void stopAnalysis(Document &Doc);
  /// Whether an edit of \p Doc lets its running analysis end and publish,
  /// rather than stopping it.
  bool editKeeps(const Document &Doc) const;
  /// Tells the client that the running analysis builds (or waits for) its
  /// precompiled prefix, from the worker's notice line.
  void reportPreamble(Document &Doc, llvm::StringRef Notice);
  void finished(Document &Doc);
  Document *document(const nlohmann::json &TextDocument);

  // --- Precompiled prefixes built apart (ServerPrefixBuilds.cpp). ---
  /// A prefix build of ours, for the documents that start with its
  /// headers and share its compilation database.
  struct PrefixBuild {
    std::unique_ptr<AnalysisProcess> Process;
    std::set<std::string> Uris;
    std::string Progress;
  };
  /// The running analysis of \p Doc said that its prefix is missing
  /// (\p AnalysisSeconds: unset while it runs): builds it, when that pays.
  void considerPrefixBuild(Document &Doc,
                           std::optional<double> AnalysisSeconds);
  /// The key of \p Doc's prefix build, from its MissingPrefix.
  std::string prefixBuildKey(const Document &Doc);
  /// Starts \p Doc's prefix build on a busy machine too once one
  /// analysis's time has passed since it was opened with no diagnostics.
  void startOverdueBuild(Document &Doc);
  void pollPrefixBuilds();
  /// Whether \p Doc's due analysis waits for the prefix build it joined:
  /// when that build should end before a plain parse would.
  bool waitsForPrefixBuild(const Document &Doc);
  /// Whether the machine's cores hold \p Wanted more processes of ours
  /// beside those of ours that run and what others run (/proc/loadavg):
  /// one core each.
  bool coresFor(unsigned Wanted) const;
  /// Pauses the builds \p Doc wants while its new analysis parses without
  /// them, on a machine whose cores do not hold both.
  void pauseBuildsBeside(const Document &Doc);
  /// Resumes the paused builds whose documents' parses have ended, or that
  /// were paused long enough.
  void resumePausedBuilds();
  /// \p Uri no longer wants its builds (closed); a build nobody wants
  /// stops. All of them, when \p Uri is empty (the flags changed).
  void dropPrefixBuilds(const std::string &Uri);

  ServerOptions Options;
  CompileCommandsLookup Lookup;
  std::map<std::string, Document> Documents;
  std::map<std::string, PrefixBuild> PrefixBuilds;
  /// Keys of prefix builds that made none: not tried again until the flags
  /// change.
  std::set<std::string> FailedPrefixBuilds;
  /// Keys of prefix builds that made one, and when they ended: an analysis
  /// started before that finds the prefix missing, and needs no new build.
  std::map<std::string, Clock::time_point> MadePrefixBuilds;
  /// Where the analyses' copies of unsaved texts go (ScratchDirectory.h).
  std::optional<ScratchDirectory> Scratch;
  int OutFd = 1;
  bool Initialized = false, ShuttingDown = false, Exited = false;
  int ExitCode = 1;
  int ParentPid = 0;
  bool DocumentChanges = false, WatchRegistration = false;
  /// The client pulls diagnostics (textDocument/diagnostic): none are
  /// pushed; it is asked to pull again after each analysis when it can be.
  bool PullDiagnostics = false, DiagnosticRefresh = false;
  bool ShowDocument = false;
  int NextRequestId = 1;
  bool OutputBroken = false;
  WorkDoneProgress Progress{[this](const nlohmann::json &M) { send(M); }};
};

} // namespace libtorch_tidy::lsp

#endif // LIBTORCH_TIDY_DRIVER_LSP_SERVER_H
