"""Sessions spelled as two clients send them, written from their public
source (not by running them): Helix (helix-lsp: serde's `()` params are
serialized as null, `clientInfo`, `general.positionEncodings`, workspace
folders) and Emacs eglot (jsonrpc.el: nil params as null, `rangeLength` in
incremental changes, `triggerKind` in a code action's context, an empty
object of initializationOptions). Fields the server does not know are
ignored, every request is answered, no message is an error, and exit after
shutdown ends the server with 0."""
import os
import sys
import time

sys.dont_write_bytecode = True  # no __pycache__ in the source tree
from lsp_client import Client, check, main, position_of, uri, write_project  # noqa: E402

HERE = os.path.dirname(os.path.abspath(__file__))


def helix_initialize(root):
    return {"processId": os.getpid(),
            "workspaceFolders": [{"name": "project", "uri": uri(root)}],
            "rootPath": root, "rootUri": uri(root),
            "initializationOptions": None,
            "capabilities": {
                "general": {"positionEncodings": ["utf-8", "utf-32", "utf-16"]},
                "workspace": {"configuration": True, "workspaceFolders": True,
                              "applyEdit": True,
                              "workspaceEdit": {"documentChanges": True,
                                                "resourceOperations": ["create", "rename",
                                                                       "delete"]},
                              "didChangeWatchedFiles": {"dynamicRegistration": True},
                              "executeCommand": {"dynamicRegistration": False}},
                "textDocument": {
                    "codeAction": {"codeActionLiteralSupport": {"codeActionKind": {
                        "valueSet": ["", "quickfix", "refactor", "source"]}},
                        "isPreferredSupport": True, "disabledSupport": True,
                        "dataSupport": True, "resolveSupport": {"properties": ["edit"]}},
                    "publishDiagnostics": {"versionSupport": True, "tagSupport": {
                        "valueSet": [1, 2]}},
                    "hover": {"contentFormat": ["markdown"]}},
                "window": {"workDoneProgress": True, "showDocument": {"support": True}}},
            "trace": "off",
            "clientInfo": {"name": "helix", "version": "25.07"}}


def eglot_initialize(root):
    return {"processId": os.getpid(), "clientInfo": {"name": "Eglot", "version": "1.17"},
            "rootPath": root + "/", "rootUri": uri(root),
            "initializationOptions": {},
            "capabilities": {
                "workspace": {"applyEdit": True, "executeCommand": {"dynamicRegistration": False},
                              "workspaceEdit": {"documentChanges": True},
                              "didChangeWatchedFiles": {"dynamicRegistration": True},
                              "symbol": {"dynamicRegistration": False},
                              "configuration": True, "workspaceFolders": True},
                "textDocument": {
                    "synchronization": {"dynamicRegistration": False, "willSave": True,
                                        "willSaveWaitUntil": True, "didSave": True},
                    "codeAction": {"dynamicRegistration": False, "resolveSupport": {
                        "properties": ["edit", "command"]}, "dataSupport": True,
                        "codeActionLiteralSupport": {"codeActionKind": {"valueSet": [
                            "quickfix", "refactor", "refactor.extract", "refactor.inline",
                            "refactor.rewrite", "source", "source.organizeImports"]}},
                        "isPreferredSupport": True},
                    "publishDiagnostics": {"relatedInformation": False,
                                           "codeDescriptionSupport": False,
                                           "tagSupport": {"valueSet": [1, 2]}}},
                "window": {"showDocument": {"support": True}, "workDoneProgress": True},
                "general": {"positionEncodings": ["utf-32", "utf-8", "utf-16"]},
                "experimental": {}},
            "workspaceFolders": [{"uri": uri(root), "name": root + "/"}]}


def session(args, name, initialize, text, path, root):
    c = Client(args.server, ["--debounce-ms=0"])
    try:
        result = c.result(c.request("initialize", initialize(root)))
        check(result["capabilities"]["positionEncoding"] == "utf-16",
              "%s: the encoding both know: %r" % (name, result))
        c.send({"jsonrpc": "2.0", "method": "initialized", "params": {}})
        c.send({"jsonrpc": "2.0", "method": "textDocument/didOpen", "params": {
            "textDocument": {"uri": uri(path), "languageId": "cpp", "version": 0,
                             "text": text}}})
        diags = c.diagnostics(uri(path), version=0)["diagnostics"]
        check(len(diags) == 2, "%s: findings: %r" % (name, diags))
        # An incremental change as eglot sends it (with rangeLength), a
        # comment added at the end of the first line.
        first_line_end = {"line": 0, "character": len(text.split("\n")[0])}
        c.send({"jsonrpc": "2.0", "method": "textDocument/didChange", "params": {
            "textDocument": {"uri": uri(path), "version": 1},
            "contentChanges": [{"range": {"start": first_line_end, "end": first_line_end},
                                "rangeLength": 0, "text": " // edited"}]}})
        diags = c.diagnostics(uri(path), version=1)["diagnostics"]
        check(len(diags) == 2, "%s: findings after the edit: %r" % (name, diags))
        at = position_of(text, "make_data_loader(Points(), 64)")
        c.send({"jsonrpc": "2.0", "id": 70, "method": "textDocument/codeAction", "params": {
            "textDocument": {"uri": uri(path)}, "range": {"start": at, "end": at},
            "context": {"diagnostics": [d for d in diags if d["range"]["start"] == at],
                        "triggerKind": 1},
            "workDoneToken": "editor-token"}})
        actions = c.result(70)
        check(any(a["title"].startswith("Apply fix: ") for a in actions),
              "%s: the fix-it is offered: %r" % (name, actions))
        c.send({"jsonrpc": "2.0", "method": "textDocument/didSave", "params": {
            "textDocument": {"uri": uri(path)}, "text": text}})
        c.send({"jsonrpc": "2.0", "id": 71, "method": "shutdown", "params": None})
        check(c.result(71) is None, "%s: shutdown" % name)
        c.send({"jsonrpc": "2.0", "method": "exit", "params": None})
        start = time.monotonic()
        code = c.process.wait(timeout=10)
        check(code == 0, "%s: exit code %r" % (name, code))
        # A bound for a loaded machine, not a speed test.
        check(time.monotonic() - start < 1.0, "%s: exit took long" % name)
        errors = [m for m in c.seen if "error" in m]
        check(not errors, "%s: no errors: %r" % (name, errors))
    finally:
        c.close()


def scenario(args):
    text = open(os.path.join(HERE, "train.cpp"), encoding="utf-8").read()
    root = os.path.join(args.work, "project")
    write_project(root, {"train.cpp": text}, args.flags)
    path = os.path.join(root, "train.cpp")
    session(args, "helix", helix_initialize, text, path, root)
    session(args, "eglot", eglot_initialize, text, path, root)


main(scenario)
