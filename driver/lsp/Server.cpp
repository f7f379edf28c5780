//===--- Server.cpp - `libtorch-tidy lsp`: protocol and lifecycle ---------===//
//
// Part of libtorch-tidy. SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

#include "lsp/Server.h"
#include "cache/PreambleStore.h"
#include "cache/remote/RemoteSpec.h"
#include "lsp/CodeActions.h"
#include "llvm/ADT/SmallString.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/Process.h"
#include "llvm/Support/raw_ostream.h"
#include <cerrno>
#include <csignal>
#include <poll.h>
#include <unistd.h>

using namespace llvm;

namespace libtorch_tidy::lsp {
namespace {

volatile sig_atomic_t StopSignal = 0;

void onStopSignal(int Signal) { StopSignal = Signal; }

constexpr const char *Usage =
    "usage: libtorch-tidy lsp [--compile-commands-dir=<dir>] "
    "[--debounce-ms=<n>]\n"
    "                         [--jobs=<n>] [--analysis-timeout=<seconds>]\n"
    "                         [--cache-max-size=<size>] "
    "[--remote-cache=<urls>]\n";
/// Ends an error about the command line: one line.
constexpr const char *SeeHelp = "; see 'libtorch-tidy lsp --help'\n";

} // namespace

int runLanguageServer(ArrayRef<const char *> Args,
                      const std::string &Executable) {
  ServerOptions Options;
  Options.Executable = Executable;
  bool RemoteGiven = false;
  for (StringRef Arg : Args) {
    const StringRef Given = Arg; // Arg loses its option name below
    auto Number = [&](StringRef Value, unsigned &Out, unsigned Min) {
      if (Value.getAsInteger(10, Out) || Out < Min) {
        errs() << "libtorch-tidy: error: '" << Given
               << "' needs a whole number of at least " << Min << SeeHelp;
        return false;
      }
      return true;
    };
    if (Arg == "--help" || Arg == "-h") {
      const ServerOptions Defaults;
      outs() << Usage << "\n"
             << "Serves the Language Server Protocol 3.17 on standard input "
                "and output,\n"
                "beside clangd: libtorch-tidy's findings as diagnostics and "
                "their fix-its\n"
                "as code actions (docs/editors/lsp.md).\n\n"
                "Options:\n"
                "  --compile-commands-dir=<dir>  where compile_commands.json "
                "is (default: the\n"
                "                                nearest one above each "
                "file, or in its build/)\n"
             << "  --debounce-ms=<n>             milliseconds after an edit "
                "before it is analyzed\n"
                "                                (default "
             << Defaults.DebounceMs << ")\n"
             << "  --jobs=<n>                    analyses at once (default "
             << Defaults.Jobs << ")\n"
             << "  --analysis-timeout=<seconds>  seconds one analysis may "
                "take (default "
             << Defaults.TimeoutSeconds << ")\n"
             << "  --cache-max-size=<size>       bound of the precompiled "
                "preambles' cache,\n"
                "                                shared with the CLI "
                "(default 5G)\n"
             << "  --remote-cache=<urls>         servers of a shared result "
                "cache, read (never\n"
                "                                written) for files opened "
                "unchanged\n"
                "                                (default: "
                "LIBTORCH_TIDY_REMOTE_CACHE)\n";
      return 0;
    }
    if (Arg.consume_front("--compile-commands-dir=")) {
      SmallString<256> Dir(Arg);
      sys::fs::make_absolute(Dir);
      sys::path::remove_dots(Dir, /*remove_dot_dot=*/true);
      Options.CompileCommandsDir = std::string(Dir);
    } else if (Arg.consume_front("--debounce-ms=")) {
      if (!Number(Arg, Options.DebounceMs, 0))
        return 2;
    } else if (Arg.consume_front("--jobs=")) {
      if (!Number(Arg, Options.Jobs, 1))
        return 2;
    } else if (Arg.consume_front("--cache-max-size=")) {
      if (!cache::parseSize(Arg)) {
        errs() << "libtorch-tidy: error: '" << Given
               << "' is not a size; use a number of bytes or one with K, M, "
                  "G or T (e.g. 5G)"
               << SeeHelp;
        return 2;
      }
      Options.CacheMaxSize = Arg.str();
    } else if (Arg.consume_front("--remote-cache=")) {
      Options.RemoteCache = Arg.str();
      RemoteGiven = true;
    } else if (Arg.consume_front("--analysis-timeout=")) {
      if (!Number(Arg, Options.TimeoutSeconds, 1))
        return 2;
    } else {
      errs() << "libtorch-tidy: error: unknown option '" << Arg
             << "' of 'libtorch-tidy lsp'" << SeeHelp;
      return 2;
    }
  }
  if (!RemoteGiven)
    if (std::optional<std::string> FromEnvironment =
            sys::Process::GetEnv("LIBTORCH_TIDY_REMOTE_CACHE"))
      Options.RemoteCache = *FromEnvironment;
  // Checked here, once: a worker would fail on it for every file.
  if (Expected<std::vector<cache::RemoteSpec>> Specs =
          cache::parseRemoteSpecs(Options.RemoteCache);
      !Specs) {
    errs() << "libtorch-tidy: error: " << toString(Specs.takeError())
           << SeeHelp;
    return 2;
  }
  // Installed as <prefix>/bin/libtorch-tidy, the pages are in
  // <prefix>/share/doc/libtorch-tidy/checks.
  SmallString<256> Docs(
      sys::path::parent_path(sys::path::parent_path(Executable)));
  sys::path::append(Docs, "share", "doc", "libtorch-tidy", "checks");
  if (sys::fs::is_directory(Docs))
    Options.DocsDir = std::string(Docs);
  return Server(std::move(Options)).run(0, 1);
}

Server::Server(ServerOptions Options)
    : Options(std::move(Options)), Lookup(this->Options.CompileCommandsDir) {}

int Server::run(int InFd, int Out) {
  OutFd = Out;
  signal(SIGPIPE, SIG_IGN);
  struct sigaction Action = {};
  Action.sa_handler = onStopSignal;
  sigemptyset(&Action.sa_mask);
  for (int S : {SIGINT, SIGTERM, SIGHUP})
    sigaction(S, &Action, nullptr);
  SmallString<128> TempDir;
  sys::path::system_temp_directory(/*ErasedOnReboot=*/true, TempDir);
  Scratch.emplace(TempDir);

  MessageReader Reader;
  bool InputOpen = true;
  auto LastParentCheck = Clock::now();
  while (!Exited && !StopSignal && !OutputBroken) {
    int Timeout = step();
    if (!InputOpen) {
      // Nothing more can be asked: end once nothing can be answered.
      break;
    }
    pollfd In = {InFd, POLLIN, 0};
    int Ready = ::poll(&In, 1, Timeout);
    if (Ready < 0 && errno != EINTR)
      break;
    if (Ready > 0) {
      char Bytes[65536];
      ssize_t N = ::read(InFd, Bytes, sizeof(Bytes));
      if (N == 0 || (N < 0 && errno != EINTR && errno != EAGAIN)) {
        InputOpen = false;
      } else if (N > 0) {
        Reader.feed(StringRef(Bytes, N));
        while (!Exited && !OutputBroken) {
          std::optional<Frame> F = Reader.next();
          if (!F)
            break;
          if (auto *Error = std::get_if<FramingError>(&*F))
            send(errorResponse(nullptr, ParseError, Error->Message));
          else
            handleBody(std::get<RawMessage>(*F).Body);
        }
      }
    }
    // The editor that started the server is gone: nobody reads the answers.
    if (ParentPid > 0 &&
        Clock::now() - LastParentCheck > std::chrono::seconds(1)) {
      LastParentCheck = Clock::now();
      if (kill(ParentPid, 0) < 0 && errno == ESRCH)
        break;
    }
  }
  // Stops every worker and removes its files, then the server's own.
  Documents.clear();
  PrefixBuilds.clear();
  Scratch.reset();
  if (StopSignal) {
    signal(StopSignal, SIG_DFL);
    raise(StopSignal);
  }
  if (Exited)
    return ExitCode;
  // The input ended: as `exit` would after what was received.
  return ShuttingDown ? 0 : 1;
}

void Server::send(const nlohmann::json &Message) {
  if (OutputBroken)
    return;
  std::string Bytes = frame(Message);
  size_t Done = 0;
  while (Done < Bytes.size()) {
    ssize_t N = ::write(OutFd, Bytes.data() + Done, Bytes.size() - Done);
    if (N < 0 && errno == EINTR)
      continue;
    if (N <= 0) {
      OutputBroken = true;
      return;
    }
    Done += N;
  }
}

void Server::reply(const nlohmann::json &Id, nlohmann::json Result) {
  send({{"jsonrpc", "2.0"}, {"id", Id}, {"result", std::move(Result)}});
}

void Server::replyError(const nlohmann::json &Id, int Code, StringRef Message) {
  send(errorResponse(Id, Code, Message));
}

void Server::notify(const std::string &Method, nlohmann::json Params) {
  send({{"jsonrpc", "2.0"}, {"method", Method}, {"params", std::move(Params)}});
}

void Server::showMessage(int Type, const std::string &Message) {
  notify("window/showMessage", {{"type", Type}, {"message", Message}});
}

void Server::logMessage(const std::string &Message) {
  notify("window/logMessage", {{"type", 4}, {"message", Message}});
}

void Server::handleBody(const std::string &Body) {
  nlohmann::json Message =
      nlohmann::json::parse(Body, nullptr, /*allow_exceptions=*/false);
  if (Message.is_discarded())
    return replyError(nullptr, ParseError, "the message is not valid JSON");
  if (!Message.is_object())
    return replyError(nullptr, InvalidRequest,
                      "a message must be a JSON object (LSP has no batches)");
  nlohmann::json Id = nullptr;
  const bool HasId = Message.contains("id");
  if (HasId) {
    Id = Message["id"];
    if (!Id.is_string() && !Id.is_number_integer())
      return replyError(nullptr, InvalidRequest,
                        "'id' must be an integer or a string");
  }
  if (!Message.contains("jsonrpc") || Message["jsonrpc"] != "2.0")
    return replyError(Id, InvalidRequest, "'jsonrpc' must be \"2.0\"");
  if (!Message.contains("method")) {
    // A response to a request of ours (registerCapability, progress
    // tokens).
    if (HasId && (Message.contains("result") || Message.contains("error")))
      return (void)Progress.answered(Id, !Message.contains("error"));
    return replyError(Id, InvalidRequest, "the message has no 'method'");
  }
  if (!Message["method"].is_string())
    return replyError(Id, InvalidRequest, "'method' must be a string");
  const std::string Method = Message["method"];
  // `"params": null` is read as no params: JSON-RPC clients send it for
  // methods that take none (serde's `()`, Emacs' nil), as clangd accepts.
  const nlohmann::json Params =
      Message.contains("params") && !Message["params"].is_null()
          ? Message["params"]
          : nlohmann::json::object();
  if (!Params.is_object() && !Params.is_array()) {
    // A notification gets no answer, but exit must still end the server.
    if (!HasId && Method != "exit")
      return;
    if (HasId)
      return replyError(Id, InvalidRequest,
                        "'params' must be an object or an array");
  }
  try {
    if (HasId)
      handleRequest(Id, Method, Params);
    else
      handleNotification(Method, Params);
  } catch (const nlohmann::json::exception &E) {
    // A member of the wrong type or missing: the sender's mistake.
    if (HasId)
      replyError(Id, InvalidParams,
                 "invalid params of '" + Method + "': " + E.what());
    else
      logMessage("libtorch-tidy: ignored '" + Method +
                 "' with invalid params: " + E.what());
  }
}

nlohmann::json Server::initialize(const nlohmann::json &Params) {
  // A processId this process cannot see already (the editor outside the
  // server's container) is not watched: it would end the server at once.
  if (Params.contains("processId") && Params["processId"].is_number_integer())
    if (int Pid = Params["processId"].get<int>();
        Pid > 0 && (kill(Pid, 0) >= 0 || errno != ESRCH))
      ParentPid = Pid;
  const nlohmann::json Caps = Params.value("capabilities", nlohmann::json());
  auto Flag = [&](std::initializer_list<const char *> Path) {
    const nlohmann::json *J = &Caps;
    for (const char *Key : Path) {
      if (!J->is_object() || !J->contains(Key))
        return false;
      J = &(*J)[Key];
    }
    return J->is_boolean() && J->get<bool>();
  };
  DocumentChanges = Flag({"workspace", "workspaceEdit", "documentChanges"});
  WatchRegistration =
      Flag({"workspace", "didChangeWatchedFiles", "dynamicRegistration"});
  Progress.setSupported(Flag({"window", "workDoneProgress"}));
  ShowDocument = Flag({"window", "showDocument", "support"});
  // A client that pulls gets no pushes: both would show each finding twice.
  PullDiagnostics = Caps.contains("textDocument") &&
                    Caps["textDocument"].is_object() &&
                    Caps["textDocument"].contains("diagnostic") &&
                    Caps["textDocument"]["diagnostic"].is_object();
  DiagnosticRefresh = Flag({"workspace", "diagnostics", "refreshSupport"});
  if (Params.contains("initializationOptions") &&
      Params["initializationOptions"].is_object()) {
    const nlohmann::json &Init = Params["initializationOptions"];
    if (Init.contains("compilationDatabasePath") &&
        Init["compilationDatabasePath"].is_string()) {
      SmallString<256> Dir(Init["compilationDatabasePath"].get<std::string>());
      // Relative to the workspace root, as clangd reads it.
      if (!sys::path::is_absolute(Dir) && Params.contains("rootUri") &&
          Params["rootUri"].is_string()) {
        SmallString<256> Root(pathOfUri(Params["rootUri"].get<std::string>()));
        sys::path::append(Root, Dir);
        Dir = Root;
      }
      sys::fs::make_absolute(Dir);
      sys::path::remove_dots(Dir, /*remove_dot_dot=*/true);
      Lookup.setFixedDirectory(std::string(Dir));
    }
  }
  Initialized = true;
  nlohmann::json Result = {
      {"capabilities",
       {{"positionEncoding", "utf-16"},
        {"textDocumentSync",
         {{"openClose", true},
          {"change", 2},
          {"save", {{"includeText", false}}}}},
        {"codeActionProvider",
         {{"codeActionKinds", {"quickfix", "source.fixAll.libtorch-tidy"}}}},
        {"hoverProvider", true},
        {"executeCommandProvider", {{"commands", {ExplainCommand}}}}}},
      {"serverInfo",
       {{"name", "libtorch-tidy"}, {"version", LIBTORCH_TIDY_VERSION}}}};
  if (PullDiagnostics)
    Result["capabilities"]["diagnosticProvider"] = {
        {"identifier", "libtorch-tidy"},
        // A header's edit changes the findings of the files that include it.
        {"interFileDependencies", true},
        {"workspaceDiagnostics", false}};
  return Result;
}

void Server::handleRequest(const nlohmann::json &Id, const std::string &Method,
                           const nlohmann::json &Params) {
  if (Method == "initialize") {
    if (Initialized)
      return replyError(Id, InvalidRequest,
                        "the server is already initialized");
    return reply(Id, initialize(Params));
  }
  if (!Initialized)
    return replyError(Id, ServerNotInitialized,
                      "the server is not initialized: send 'initialize' first");
  if (ShuttingDown)
    return replyError(Id, InvalidRequest,
                      "the server is shutting down: send 'exit'");
  if (Method == "shutdown") {
    ShuttingDown = true;
    return reply(Id, nullptr);
  }
  if (Method == "textDocument/codeAction" ||
      Method == "textDocument/diagnostic" || Method == "textDocument/hover")
    return documentRequest(Id, Method, Params);
  if (Method == "workspace/executeCommand")
    return executeCommand(Id, Params);
  replyError(Id, MethodNotFound,
             "libtorch-tidy has no method '" + Method + "'");
}

void Server::handleNotification(const std::string &Method,
                                const nlohmann::json &Params) {
  if (Method == "exit") {
    Exited = true;
    ExitCode = ShuttingDown ? 0 : 1;
    return;
  }
  // Before initialize, notifications are dropped (LSP), and after shutdown
  // nothing but exit matters.
  if (!Initialized || ShuttingDown)
    return;
  if (Method == "initialized") {
    if (WatchRegistration)
      send({{"jsonrpc", "2.0"},
            {"id", "libtorch-tidy-" + std::to_string(NextRequestId++)},
            {"method", "client/registerCapability"},
            {"params",
             {{"registrations",
               {{{"id", "libtorch-tidy-watched-files"},
                 {"method", "workspace/didChangeWatchedFiles"},
                 {"registerOptions",
                  {{"watchers",
                    {{{"globPattern", "**/.clang-tidy"}},
                     {{"globPattern", "**/compile_commands.json"}}}}}}}}}}}});
    return;
  }
  if (Method == "textDocument/didOpen")
    return didOpen(Params);
  if (Method == "textDocument/didChange")
    return didChange(Params);
  if (Method == "textDocument/didSave")
    return didSave(Params);
  if (Method == "textDocument/didClose")
    return didClose(Params);
  if (Method == "workspace/didChangeWatchedFiles")
    return didChangeWatchedFiles(Params);
  if (Method == "$/cancelRequest")
    return cancelRequest(Params);
  // Other notifications ($/setTrace, didChangeConfiguration, ...) need
  // nothing from us.
}

} // namespace libtorch_tidy::lsp
