//===--- ServerDocuments.cpp - `libtorch-tidy lsp`: documents, analyses ---===//
//
// Part of libtorch-tidy. SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

#include "io/FileIO.h"
#include "lsp/Server.h"
#include "lsp/TextDocument.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/raw_ostream.h"
#include <algorithm>

using namespace llvm;

namespace libtorch_tidy::lsp {
namespace {

/// Headers have no compile command of their own; their findings come with
/// the sources that include them (as in the CLI).
bool isHeader(StringRef Path) {
  const std::string Ext = sys::path::extension(Path).lower();
  for (StringRef Header :
       {".h", ".hh", ".hpp", ".hxx", ".h++", ".inc", ".cuh", ".ipp", ".tpp"})
    if (Ext == Header)
      return true;
  return false;
}

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

} // namespace

Server::Document *Server::document(const nlohmann::json &TextDocument) {
  auto It = Documents.find(TextDocument.at("uri").get<std::string>());
  return It == Documents.end() ? nullptr : &It->second;
}

void Server::didOpen(const nlohmann::json &Params) {
  const nlohmann::json &TD = Params.at("textDocument");
  const std::string Uri = TD.at("uri");
  const std::string Path = pathOfUri(Uri);
  if (Path.empty()) {
    logMessage("libtorch-tidy: '" + Uri + "' is not a file: URI; not analyzed");
    return;
  }
  std::string Text = TD.at("text");
  const long long Version = TD.at("version");
  Document &Doc = Documents[Uri];
  dropWaiting(Doc, -32801, "the document was opened again");
  stopAnalysis(Doc);
  Doc.Uri = Uri;
  Doc.Path = Path;
  Doc.Text = std::move(Text);
  Doc.Version = Version;
  Doc.ResultVersion.reset();
  Doc.Due = Clock::now();
}

void Server::didChange(const nlohmann::json &Params) {
  Document *Doc = document(Params.at("textDocument"));
  if (!Doc)
    return logMessage("libtorch-tidy: didChange of a document not open");
  std::string Text = Doc->Text;
  for (const nlohmann::json &Change : Params.at("contentChanges"))
    if (std::optional<std::string> Problem = applyContentChange(Text, Change))
      // The text would no longer be the editor's: keep the last good one.
      return logMessage("libtorch-tidy: ignored a didChange of " + Doc->Uri +
                        ": " + *Problem);
  Doc->Text = std::move(Text);
  Doc->Version = Params.at("textDocument").at("version");
  dropWaiting(*Doc, -32801, "the document changed");
  // A newer edit replaces the pending and the running analysis.
  stopAnalysis(*Doc);
  Doc->Due = Clock::now() + std::chrono::milliseconds(Options.DebounceMs);
}

void Server::didSave(const nlohmann::json &Params) {
  // The other documents may include the saved file: they read it from disk.
  const std::string Uri = Params.at("textDocument").at("uri");
  for (auto &[Key, Doc] : Documents)
    if (Key != Uri && !Doc.Due)
      Doc.Due = Clock::now() + std::chrono::milliseconds(Options.DebounceMs);
}

void Server::didClose(const nlohmann::json &Params) {
  Document *Doc = document(Params.at("textDocument"));
  if (!Doc)
    return;
  dropWaiting(*Doc, -32801, "the document was closed");
  stopAnalysis(*Doc);
  const std::string Uri = Doc->Uri;
  Documents.erase(Uri);
  notify("textDocument/publishDiagnostics",
         {{"uri", Uri}, {"diagnostics", nlohmann::json::array()}});
}

void Server::didChangeWatchedFiles(const nlohmann::json &Params) {
  bool Reload = false;
  for (const nlohmann::json &Change : Params.at("changes")) {
    StringRef Name = sys::path::filename(Change.at("uri").get<std::string>());
    Reload |= Name == ".clang-tidy" || Name == "compile_commands.json";
  }
  if (!Reload)
    return;
  // Each analysis reads the configuration afresh; the databases are cached.
  Lookup.reload();
  for (auto &[Uri, Doc] : Documents) {
    Doc.LastProblem.clear();
    stopAnalysis(Doc);
    Doc.Due = Clock::now();
  }
}

void Server::cancelRequest(const nlohmann::json &Params) {
  const nlohmann::json &Id = Params.at("id");
  for (auto &[Uri, Doc] : Documents)
    for (auto It = Doc.Waiting.begin(); It != Doc.Waiting.end(); ++It)
      if (It->first == Id) {
        replyError(Id, RequestCancelled, "the request was cancelled");
        Doc.Waiting.erase(It);
        return;
      }
  // Every other request is answered at once: nothing left to cancel.
}

void Server::codeAction(const nlohmann::json &Id,
                        const nlohmann::json &Params) {
  Document *Doc = document(Params.at("textDocument"));
  if (!Doc)
    return reply(Id, nlohmann::json::array());
  // Validates the params now, not when the answer is due.
  Params.at("range").at("start").at("line").get<unsigned>();
  Params.at("range").at("end").at("line").get<unsigned>();
  if (Doc->Due || Doc->Running) {
    // The current version is being analyzed: answer with its findings.
    Doc->Waiting.emplace_back(Id, Params);
    return;
  }
  answerCodeAction(*Doc, Id, Params);
}

void Server::answerCodeAction(Document &Doc, const nlohmann::json &Id,
                              const nlohmann::json &Params) {
  if (Doc.ResultVersion != Doc.Version)
    return reply(Id, nlohmann::json::array());
  auto Offset = [&](const nlohmann::json &P) {
    return offsetAt(Doc.Text, {P.at("line").get<unsigned>(),
                               P.at("character").get<unsigned>()});
  };
  const nlohmann::json &Range = Params.at("range");
  std::vector<std::string> Only;
  if (Params.contains("context") && Params.at("context").contains("only"))
    Only = Params.at("context").at("only").get<std::vector<std::string>>();
  reply(Id, codeActions(Doc.Findings, Doc.Uri, Doc.Version,
                        Offset(Range.at("start")), Offset(Range.at("end")),
                        Only, DocumentChanges));
}

void Server::dropWaiting(Document &Doc, int Code, StringRef Message) {
  for (auto &[Id, Params] : Doc.Waiting)
    replyError(Id, Code, Message);
  Doc.Waiting.clear();
}

void Server::publish(Document &Doc, long long Version) {
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
  const auto Now = Clock::now();
  unsigned RunningCount = 0;
  for (auto &[Uri, Doc] : Documents) {
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
    if (RunningCount >= Options.Jobs)
      break;
    start(*Doc);
    RunningCount += Doc->Running != nullptr;
  }
  // Sleep until the next analysis is due, or poll the running ones.
  int Timeout = 1000;
  for (auto &[Uri, Doc] : Documents) {
    if (Doc.Running)
      Timeout = std::min(Timeout, 10);
    if (Doc.Due) {
      auto Left = std::chrono::duration_cast<std::chrono::milliseconds>(
                      *Doc.Due - Clock::now())
                      .count();
      Timeout = std::min<int>(Timeout, std::max<long long>(Left, 1));
    }
  }
  return Timeout;
}

void Server::stopAnalysis(Document &Doc) {
  if (!Doc.Running)
    return;
  Doc.Running.reset();
  endProgress(Doc, "superseded");
}

void Server::reportPreamble(Document &Doc, StringRef Notice) {
  StringRef Headers = Notice;
  const bool Waiting = Headers.consume_front("waiting ");
  if (!Waiting && !Headers.consume_front("building "))
    return;
  const std::string Message =
      (Waiting ? "waiting for the preamble (" : "building the preamble (") +
      Headers.str() + "), reused by the next analyses";
  logMessage("libtorch-tidy: " + sys::path::filename(Doc.Path).str() + ": " +
             Message);
  if (Doc.Progress.empty())
    return;
  notify("$/progress", {{"token", Doc.Progress},
                        {"value", {{"kind", "report"}, {"message", Message}}}});
}

void Server::progressAnswered(const nlohmann::json &Id, bool Accepted) {
  if (!Id.is_string())
    return;
  auto Asked = ProgressRequests.find(Id.get<std::string>());
  if (Asked == ProgressRequests.end())
    return;
  auto Doc = Documents.find(Asked->second);
  ProgressRequests.erase(Asked);
  // Refused, or the analysis it was for has ended (or another replaced
  // it): nothing to report on it.
  if (!Accepted || Doc == Documents.end() || Doc->second.ProgressAsked.empty())
    return;
  Document &D = Doc->second;
  D.Progress = D.ProgressAsked;
  D.ProgressAsked.clear();
  notify("$/progress", {{"token", D.Progress},
                        {"value",
                         {{"kind", "begin"},
                          {"title", "libtorch-tidy"},
                          {"message", D.ProgressBegin},
                          {"cancellable", false}}}});
}

void Server::endProgress(Document &Doc, const std::string &Message) {
  Doc.ProgressAsked.clear();
  if (Doc.Progress.empty())
    return;
  notify("$/progress", {{"token", Doc.Progress},
                        {"value", {{"kind", "end"}, {"message", Message}}}});
  Doc.Progress.clear();
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
    for (auto &[Id, Params] : Doc.Waiting)
      answerCodeAction(Doc, Id, Params);
    Doc.Waiting.clear();
  };
  if (isHeader(Doc.Path))
    return NoAnalysis("");
  CommandLookup Command = Lookup.lookup(Doc.Path);
  if (!Command.HasEntry)
    return NoAnalysis(Command.Problem);
  AnalysisRequest Request;
  Request.Executable = Options.Executable;
  Request.File = Doc.Path;
  Request.DatabaseDirectory = Command.Directory;
  Request.TimeoutSeconds = Options.TimeoutSeconds;
  Request.CacheMaxSize = Options.CacheMaxSize;
  if (Scratch)
    Request.ScratchRoot = Scratch->path();
  for (auto &[Uri, Open] : Documents)
    Request.Unsaved[Open.Path] = Open.Text;
  if (!Options.RemoteCache.empty() && buffersMatchFiles(Request.Unsaved))
    Request.RemoteCache = Options.RemoteCache;
  Doc.RunningVersion = Doc.Version;
  Doc.RunningText = Doc.Text;
  logMessage("libtorch-tidy: analyzing " + Doc.Path + " (version " +
             std::to_string(Doc.Version) + ")");
  Doc.Running = std::make_unique<AnalysisProcess>(Request);
  if (WorkDoneProgress) {
    // "begin" goes out once the client accepted the token
    // (progressAnswered()), never before and never on a refused one.
    const std::string RequestId =
        "libtorch-tidy-" + std::to_string(NextRequestId);
    Doc.ProgressAsked =
        "libtorch-tidy-analysis-" + std::to_string(NextRequestId++);
    Doc.ProgressBegin = "analyzing " + sys::path::filename(Doc.Path).str();
    ProgressRequests[RequestId] = Doc.Uri;
    send({{"jsonrpc", "2.0"},
          {"id", RequestId},
          {"method", "window/workDoneProgress/create"},
          {"params", {{"token", Doc.ProgressAsked}}}});
  }
}

void Server::finished(Document &Doc) {
  std::unique_ptr<AnalysisProcess> Done = std::move(Doc.Running);
  AnalysisOutcome &Outcome = Done->outcome();
  // "built": this analysis precompiled the file's include prefix, which the
  // next ones reuse (driver/preamble/PrecompiledPrefixes.h).
  const std::string Preamble = Outcome.Unit && !Outcome.Unit->Preamble.empty()
                                   ? ", preamble " + Outcome.Unit->Preamble
                                   : "";
  endProgress(Doc, "done" + Preamble);
  // Edits cancel the running analysis: this one is of the current version.
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
  for (auto &[Id, Params] : Doc.Waiting)
    answerCodeAction(Doc, Id, Params);
  Doc.Waiting.clear();
}

} // namespace libtorch_tidy::lsp
