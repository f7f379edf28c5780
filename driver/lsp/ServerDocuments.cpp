//===--- ServerDocuments.cpp - `libtorch-tidy lsp`: documents, analyses ---===//
//
// Part of libtorch-tidy. SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

#include "lsp/CodeActions.h"
#include "lsp/Server.h"
#include "lsp/TextDocument.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/raw_ostream.h"
#include <algorithm>

using namespace llvm;

namespace libtorch_tidy::lsp {

bool isHeaderPath(StringRef Path) {
  const std::string Ext = sys::path::extension(Path).lower();
  for (StringRef Header :
       {".h", ".hh", ".hpp", ".hxx", ".h++", ".inc", ".cuh", ".ipp", ".tpp"})
    if (Ext == Header)
      return true;
  return false;
}

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
  Doc.Due = Doc.Opened = Clock::now();
  Doc.StoppedSeconds.reset();
  Doc.EditStopped = Doc.BuildOverdue = false;
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
  // The first edit since the running analysis started.
  const bool FirstEdit = Doc->Running && Doc->RunningVersion == Doc->Version;
  Doc->Text = std::move(Text);
  Doc->Version = Params.at("textDocument").at("version");
  dropWaiting(*Doc, -32801, "the document changed");
  // A newer edit replaces the pending analysis; the running one goes on
  // when it ran long enough, and the newest version's starts after it.
  if (Doc->Running && editKeeps(*Doc)) {
    if (FirstEdit)
      logMessage("libtorch-tidy: " + sys::path::filename(Doc->Path).str() +
                 ": the analysis of version " +
                 std::to_string(Doc->RunningVersion) +
                 " goes on and publishes, then the newest version's starts");
  } else {
    Doc->EditStopped |= Doc->Running != nullptr;
    stopAnalysis(*Doc);
  }
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
  dropWaiting(*Doc, -32801, "the document was closed", /*Closed=*/true);
  stopAnalysis(*Doc);
  const std::string Uri = Doc->Uri;
  dropPrefixBuilds(Uri);
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
  // A prefix being built for the old flags would serve no analysis.
  Lookup.reload();
  dropPrefixBuilds("");
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
      if (It->Id == Id) {
        replyError(Id, RequestCancelled, "the request was cancelled");
        Doc.Waiting.erase(It);
        return;
      }
  // Every other request is answered at once: nothing left to cancel.
}

void Server::documentRequest(const nlohmann::json &Id,
                             const std::string &Method,
                             const nlohmann::json &Params) {
  Document *Doc = document(Params.at("textDocument"));
  if (!Doc) {
    if (Method == "textDocument/codeAction")
      return reply(Id, nlohmann::json::array());
    if (Method == "textDocument/hover")
      return reply(Id, nullptr);
    return reply(Id, {{"kind", "full"}, {"items", nlohmann::json::array()}});
  }
  // Validates the params now, not when the answer is due.
  if (Method == "textDocument/codeAction") {
    Params.at("range").at("start").at("line").get<unsigned>();
    Params.at("range").at("end").at("line").get<unsigned>();
  } else if (Method == "textDocument/hover") {
    Params.at("position").at("line").get<unsigned>();
    Params.at("position").at("character").get<unsigned>();
  }
  WaitingRequest Request{Id, Method, Params};
  if (Doc->Due || Doc->Running) {
    // The current version is being analyzed: answer with its findings.
    Doc->Waiting.push_back(std::move(Request));
    return;
  }
  answer(*Doc, Request);
}

void Server::answer(Document &Doc, const WaitingRequest &Request) {
  const nlohmann::json &Params = Request.Params;
  const bool Current = Doc.ResultVersion == Doc.Version;
  auto Offset = [&](const nlohmann::json &P) {
    return offsetAt(Doc.Text, {P.at("line").get<unsigned>(),
                               P.at("character").get<unsigned>()});
  };
  if (Request.Method == "textDocument/hover")
    return reply(Request.Id, Current ? hoverAt(Doc.Findings, Doc.Text,
                                               Offset(Params.at("position")),
                                               Options.DocsDir)
                                     : nlohmann::json(nullptr));
  if (Request.Method == "textDocument/diagnostic") {
    const std::string ResultId = std::to_string(Doc.ResultSerial);
    if (Params.contains("previousResultId") &&
        Params["previousResultId"] == ResultId)
      return reply(Request.Id, {{"kind", "unchanged"}, {"resultId", ResultId}});
    nlohmann::json Items = nlohmann::json::array();
    for (const DocumentDiagnostic &D : Doc.Findings.Diagnostics)
      Items.push_back(D.Diagnostic);
    return reply(Request.Id,
                 {{"kind", "full"}, {"resultId", ResultId}, {"items", Items}});
  }
  if (!Current)
    return reply(Request.Id, nlohmann::json::array());
  const nlohmann::json &Range = Params.at("range");
  std::vector<std::string> Only;
  if (Params.contains("context") && Params.at("context").contains("only"))
    Only = Params.at("context").at("only").get<std::vector<std::string>>();
  reply(Request.Id,
        codeActions(Doc.Findings, Doc.Text, Doc.Uri, Doc.Version,
                    Offset(Range.at("start")), Offset(Range.at("end")), Only,
                    DocumentChanges));
}

void Server::executeCommand(const nlohmann::json &Id,
                            const nlohmann::json &Params) {
  const std::string Command = Params.at("command");
  if (Command != ExplainCommand)
    return replyError(Id, InvalidParams,
                      "libtorch-tidy has no command '" + Command + "'");
  const nlohmann::json Arguments =
      Params.value("arguments", nlohmann::json::array());
  if (!Arguments.is_array() || Arguments.empty() || !Arguments[0].is_string())
    return replyError(Id, InvalidParams,
                      std::string(ExplainCommand) +
                          " takes the check's name: arguments [\"<check>\"]");
  const std::string Check = Arguments[0];
  const std::string Explanation = checkExplanation(Check, Options.DocsDir);
  if (Explanation.empty())
    return replyError(Id, InvalidParams,
                      "'" + Check + "' is not a libtorch-tidy check");
  // The page in the editor, or a browser, when the client can open one;
  // the explanation itself in any case, for clients that show results.
  if (ShowDocument)
    send({{"jsonrpc", "2.0"},
          {"id", "libtorch-tidy-" + std::to_string(NextRequestId++)},
          {"method", "window/showDocument"},
          {"params",
           {{"uri", checkDocsHref(Check, Options.DocsDir)},
            {"external", !StringRef(checkDocsHref(Check, Options.DocsDir))
                              .starts_with("file:")}}}});
  else
    showMessage(3, Explanation);
  reply(Id, Explanation);
}

void Server::dropWaiting(Document &Doc, int Code, StringRef Message,
                         bool Closed) {
  std::vector<WaitingRequest> Kept;
  for (WaitingRequest &Request : Doc.Waiting)
    // Pulled diagnostics wait on for the version that replaces this one.
    if (!Closed && Request.Method == "textDocument/diagnostic")
      Kept.push_back(std::move(Request));
    else
      replyError(Request.Id, Code, Message);
  Doc.Waiting = std::move(Kept);
}

void Server::answerWaiting(Document &Doc) {
  std::vector<WaitingRequest> Waiting = std::move(Doc.Waiting);
  Doc.Waiting.clear();
  for (const WaitingRequest &Request : Waiting)
    answer(Doc, Request);
}

} // namespace libtorch_tidy::lsp
