//===--- ServerAnalyses.cpp - `libtorch-tidy lsp`: running analyses -------===//
//
// Part of libtorch-tidy. SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//
//
// The documents' analyses: started when due (the debounce), polled, stopped,
// and their findings published.
//
//===----------------------------------------------------------------------===//

#include "io/FileIO.h"
#include "lsp/Server.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/raw_ostream.h"
#include <algorithm>

using namespace llvm;

namespace libtorch_tidy::lsp {
namespace {

/// Whether every open buffer holds what its file on disk holds: the remote
/// cache's entries are checked against the files, so it is asked only then.
bool buffersMatchFiles(const std::map<std::string, std::string> &Buffers) {
  for (const auto &[Path, Text] : Buffers) {
    std::string Why;
    std::optional<std::string> OnDisk =
        io::readRegularFile(Path, Text.size(), "source", Why);
    if (!OnDisk || *OnDisk != Text)
      return false;
  }
  return true;
}

/// The tests' slow machine: LIBTORCH_TIDY_TEST_ANALYSIS_SECONDS=<seconds>
/// makes every analysis last at least that long, to be a person who types
/// faster than an analysis ends; unset outside the tests.
double testAnalysisSeconds() {
  const char *Value = getenv("LIBTORCH_TIDY_TEST_ANALYSIS_SECONDS");
  double Seconds = 0;
  return Value && !StringRef(Value).getAsDouble(Seconds) ? Seconds : 0;
}

} // namespace

bool Server::editKeeps(const Document &Doc) const {
  // Stopping an analysis throws its work away and puts the next diagnostics
  // a whole analysis further off: where edits come faster than an analysis
  // ends (a busy machine, a slow unit), stopping each one published nothing
  // until the typing stopped. clangd's TUScheduler never stops a build it
  // started: its diagnostics come, with their version, and then the newest
  // text's. So here, but for an analysis younger than the debounce: it cost
  // less than the quiet time the edit waits anyway, and stopping it brings
  // the newest text's diagnostics sooner by nearly a whole analysis. One
  // such stop between two publishes at most: edits just over a debounce
  // apart would stop every analysis again.
  const std::chrono::duration<double> Ran = Clock::now() - Doc.AnalysisStarted;
  return Doc.EditStopped ||
         Ran >= std::chrono::milliseconds(Options.DebounceMs);
}

void Server::publish(Document &Doc, long long Version) {
  Doc.EditStopped = false;
  // Pulled diagnostics carry no version: an older version's would land on
  // the newer text's lines. A pull waits for the current version's.
  if (PullDiagnostics && Version != Doc.Version)
    return;
  ++Doc.ResultSerial;
  if (PullDiagnostics) {
    // The client asks for them; one that can be told to ask again is.
    if (DiagnosticRefresh)
      send({{"jsonrpc", "2.0"},
            {"id", "libtorch-tidy-" + std::to_string(NextRequestId++)},
            {"method", "workspace/diagnostic/refresh"}});
    return;
  }
  nlohmann::json Diagnostics = nlohmann::json::array();
  for (const DocumentDiagnostic &D : Doc.Findings.Diagnostics)
    Diagnostics.push_back(D.Diagnostic);
  notify(
      "textDocument/publishDiagnostics",
      {{"uri", Doc.Uri}, {"version", Version}, {"diagnostics", Diagnostics}});
}

void Server::showProblemOnce(Document &Doc, const std::string &Problem) {
  if (Doc.LastProblem == Problem)
    return;
  Doc.LastProblem = Problem;
  showMessage(2, "libtorch-tidy: " + Doc.Path + ": " + Problem);
}

int Server::step() {
  // An edit let the running analysis, of an older version, go on: the
  // newest version's waits for its end.
  auto KeptForEdit = [](const Document &Doc) {
    return Doc.Running && Doc.RunningVersion != Doc.Version;
  };
  pollPrefixBuilds();
  const auto Now = Clock::now();
  unsigned RunningCount = 0;
  for (auto &[Uri, Doc] : Documents) {
    startOverdueBuild(Doc);
    if (!Doc.Running)
      continue;
    if (std::optional<std::string> Notice = Doc.Running->preambleNotice())
      reportPreamble(Doc, *Notice);
    if (Doc.Running->poll())
      finished(Doc);
  }
  for (auto &[Uri, Doc] : Documents)
    RunningCount += Doc.Running != nullptr;
  // Oldest due first.
  std::vector<Document *> Due;
  for (auto &[Uri, Doc] : Documents)
    if (Doc.Due && *Doc.Due <= Now)
      Due.push_back(&Doc);
  llvm::sort(Due, [](Document *A, Document *B) { return *A->Due < *B->Due; });
  for (Document *Doc : Due) {
    if (KeptForEdit(*Doc))
      continue;
    if (RunningCount >= Options.Jobs)
      break;
    if (waitsForPrefixBuild(*Doc))
      continue;
    start(*Doc);
    RunningCount += Doc->Running != nullptr;
  }
  // Sleep until the next analysis is due, or poll the running ones.
  int Timeout = 1000;
  if (!PrefixBuilds.empty())
    Timeout = std::min(Timeout, 50);
  for (auto &[Uri, Doc] : Documents) {
    if (Doc.Running)
      Timeout = std::min(Timeout, 10);
    // One that waits for a prefix build is polled with the builds.
    if (Doc.Due && !KeptForEdit(Doc) && !waitsForPrefixBuild(Doc)) {
      auto Left = std::chrono::duration_cast<std::chrono::milliseconds>(
                      *Doc.Due - Clock::now())
                      .count();
      // Left is at most Timeout here, so it fits an int.
      if (Left < Timeout)
        Timeout = static_cast<int>(std::max<long long>(Left, 1));
    }
  }
  return Timeout;
}

void Server::stopAnalysis(Document &Doc) {
  if (!Doc.Running)
    return;
  Doc.StoppedSeconds =
      std::max(Doc.StoppedSeconds.value_or(0), Doc.Running->activeSeconds());
  Doc.Running.reset();
  Progress.end(Doc.Progress, "superseded");
  Doc.Progress.clear();
}

void Server::reportPreamble(Document &Doc, StringRef Notice) {
  StringRef Headers = Notice;
  if (Headers.consume_front("missing ")) {
    Doc.MissingPrefix = Headers.str();
    return considerPrefixBuild(Doc, std::nullopt);
  }
  const bool Waiting = Headers.consume_front("waiting ");
  if (!Waiting && !Headers.consume_front("building "))
    return;
  const std::string Message =
      (Waiting ? "waiting for the preamble (" : "building the preamble (") +
      Headers.str() + "), reused by the next analyses";
  logMessage("libtorch-tidy: " + sys::path::filename(Doc.Path).str() + ": " +
             Message);
  Progress.report(Doc.Progress, Message);
}

void Server::start(Document &Doc) {
  Doc.Due.reset();
  stopAnalysis(Doc);
  auto NoAnalysis = [&](const std::string &Problem) {
    Doc.Findings = DocumentFindings();
    Doc.ResultVersion = Doc.Version;
    if (!Problem.empty())
      showProblemOnce(Doc, Problem);
    publish(Doc, Doc.Version);
    answerWaiting(Doc);
  };
  if (isHeaderPath(Doc.Path))
    return NoAnalysis("");
  CommandLookup Command = Lookup.lookup(Doc.Path);
  if (!Command.HasEntry)
    return NoAnalysis(Command.Problem);
  // Never builds nor waits for a prefix: ServerPrefixBuilds.cpp does.
  AnalysisRequest Request =
      workerRequest(Doc, Command, worker::PrefixRole::ReuseOnly);
  Request.MinimumSeconds = testAnalysisSeconds();
  if (!Options.RemoteCache.empty() && buffersMatchFiles(Request.Unsaved))
    Request.RemoteCache = Options.RemoteCache;
  Doc.RunningVersion = Doc.Version;
  Doc.RunningText = Doc.Text;
  logMessage("libtorch-tidy: analyzing " + Doc.Path + " (version " +
             std::to_string(Doc.Version) + ")");
  Doc.MissingPrefix.clear();
  Doc.ParsingBesideBuild = false;
  Doc.AnalysisStarted = Clock::now();
  Doc.Running = std::make_unique<AnalysisProcess>(Request);
  Doc.Progress =
      Progress.create("analyzing " + sys::path::filename(Doc.Path).str());
  pauseBuildsBeside(Doc);
}

AnalysisRequest Server::workerRequest(const Document &Doc,
                                      const CommandLookup &Command,
                                      worker::PrefixRole Prefix) const {
  AnalysisRequest Request;
  Request.Executable = Options.Executable;
  Request.File = Doc.Path;
  Request.DatabaseDirectory = Command.Directory;
  Request.TimeoutSeconds = Options.TimeoutSeconds;
  Request.CacheMaxSize = Options.CacheMaxSize;
  Request.Prefix = Prefix;
  if (Scratch)
    Request.ScratchRoot = Scratch->path();
  for (const auto &[Uri, Open] : Documents)
    Request.Unsaved[Open.Path] = Open.Text;
  return Request;
}

void Server::finished(Document &Doc) {
  std::unique_ptr<AnalysisProcess> Done = std::move(Doc.Running);
  // A notice written just before the worker ended.
  if (std::optional<std::string> Notice = Done->preambleNotice())
    reportPreamble(Doc, *Notice);
  AnalysisOutcome &Outcome = Done->outcome();
  // "built": this analysis precompiled the file's include prefix, which the
  // next ones reuse (driver/preamble/PrecompiledPrefixes.h).
  const std::string Preamble = Outcome.Unit && !Outcome.Unit->Preamble.empty()
                                   ? ", preamble " + Outcome.Unit->Preamble
                                   : "";
  Progress.end(Doc.Progress, "done" + Preamble);
  Doc.Progress.clear();
  // Of the current version, or of an older one that edits let end
  // (editKeeps()): its findings are placed in its own text and published
  // with its version, which LSP's clients read them against.
  Doc.ResultVersion = Doc.RunningVersion;
  Doc.Findings = DocumentFindings();
  if (Outcome.Unit) {
    if (Outcome.Unit->State == model::TranslationUnitResult::Status::Failed)
      showProblemOnce(Doc, Outcome.Unit->FailureMessage);
    else
      Doc.LastProblem.clear();
    Doc.Findings = documentFindings(*Outcome.Unit, Doc.Path, Doc.RunningText,
                                    Options.DocsDir);
  } else {
    showProblemOnce(Doc, "cannot analyze it: " + Outcome.Problem);
  }
  std::string Seconds;
  raw_string_ostream(Seconds) << format("%.2f", Outcome.Seconds);
  logMessage("libtorch-tidy: analyzed " + Doc.Path + " (version " +
             std::to_string(Doc.RunningVersion) + ") in " + Seconds +
             " s: " + std::to_string(Doc.Findings.Diagnostics.size()) +
             " diagnostics" + Preamble);
  publish(Doc, Doc.RunningVersion);
  // The requests waiting are of the current version: they wait on for its
  // analysis, which starts now.
  if (Doc.ResultVersion == Doc.Version)
    answerWaiting(Doc);
  if (Outcome.Unit && Outcome.Unit->Preamble.empty())
    Doc.PlainSeconds = Outcome.Seconds;
  if (!Doc.MissingPrefix.empty())
    considerPrefixBuild(Doc, Outcome.Seconds);
}

} // namespace libtorch_tidy::lsp
