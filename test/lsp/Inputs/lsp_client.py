"""A small LSP client for the tests of `libtorch-tidy lsp` (stdlib only).

It starts the server, frames JSON-RPC messages with Content-Length, reads
the server's messages on a thread, and waits for the ones a test expects.
Every wait has a time limit and a failure names what was awaited and what
came instead, so a broken server fails a test instead of hanging it.
"""
import json
import os
import queue
import shlex
import subprocess
import sys
import threading
import time


class Failure(Exception):
    pass


def check(condition, message):
    if not condition:
        raise Failure(message)


def uri(path):
    from urllib.parse import quote
    return "file://" + quote(os.path.abspath(path))


def utf16_len(text):
    return len(text.encode("utf-16-le")) // 2


def position_of(text, needle, occurrence=0):
    """The LSP position (UTF-16) of the start of `needle` in `text`."""
    index = -1
    for _ in range(occurrence + 1):
        index = text.index(needle, index + 1)
    line = text.count("\n", 0, index)
    start = text.rfind("\n", 0, index) + 1
    return {"line": line, "character": utf16_len(text[start:index])}


def offset_of(text, position):
    """The index in `text` of an LSP position (UTF-16)."""
    lines = text.split("\n")
    index = sum(len(l) + 1 for l in lines[:position["line"]])
    line = lines[position["line"]] if position["line"] < len(lines) else ""
    units = 0
    for i, ch in enumerate(line):
        if units >= position["character"]:
            return index + i
        units += utf16_len(ch)
    return index + len(line)


def apply_edits(text, edits):
    """Applies LSP TextEdits (all relative to `text`) as a client does."""
    spans = sorted(((offset_of(text, e["range"]["start"]),
                     offset_of(text, e["range"]["end"]), e["newText"])
                    for e in edits), reverse=True)
    for begin, end, new in spans:
        text = text[:begin] + new + text[end:]
    return text


def edits_of(action, uri_):
    edit = action["edit"]
    if "documentChanges" in edit:
        found = [c for c in edit["documentChanges"]
                 if c["textDocument"]["uri"] == uri_]
        check(len(found) == 1, "one documentChanges entry for %s: %r" % (uri_, edit))
        return found[0]["edits"], found[0]["textDocument"]["version"]
    return edit["changes"][uri_], None


def write_project(directory, files, flags, entries=None):
    """Writes `files` (name -> text) and a compile_commands.json with an
    entry for each name in `entries` (default: every .cpp)."""
    os.makedirs(directory, exist_ok=True)
    for name, text in files.items():
        path = os.path.join(directory, name)
        os.makedirs(os.path.dirname(path), exist_ok=True)
        with open(path, "w", encoding="utf-8") as f:
            f.write(text)
    if entries is None:
        entries = [n for n in files if n.endswith(".cpp")]
    commands = [{"directory": directory, "file": os.path.join(directory, n),
                 "arguments": ["c++"] + shlex.split(flags) +
                              ["-c", os.path.join(directory, n)]}
                for n in entries]
    with open(os.path.join(directory, "compile_commands.json"), "w") as f:
        json.dump(commands, f)


class Client:
    """progress: how window/workDoneProgress/create is answered, as clients
    do, from the reader as it arrives: "accept" (result null), "refuse" (an
    error), or "manual" (the test answers, or does not)."""

    def __init__(self, server, args=(), cwd=None, stderr_path=None, env=None,
                 progress="accept"):
        self.progress = progress
        self.send_lock = threading.Lock()
        self.stderr = open(stderr_path or os.devnull, "wb")
        self.process = subprocess.Popen(
            list(server) + ["lsp"] + list(args), stdin=subprocess.PIPE,
            stdout=subprocess.PIPE, stderr=self.stderr, cwd=cwd,
            env=dict(os.environ, **(env or {})))
        self.messages = queue.Queue()
        self.seen = []
        self.next_id = 1
        self.reader = threading.Thread(target=self._read, daemon=True)
        self.reader.start()

    def _read(self):
        out = self.process.stdout
        while True:
            headers = {}
            while True:
                line = out.readline()
                if not line:
                    self.messages.put(None)
                    return
                line = line.decode("ascii").rstrip("\r\n")
                if not line:
                    break
                name, _, value = line.partition(":")
                headers[name.strip().lower()] = value.strip()
            body = out.read(int(headers["content-length"]))
            message = json.loads(body.decode("utf-8"))
            if (message.get("method") == "window/workDoneProgress/create" and
                    self.progress != "manual"):
                answer = {"jsonrpc": "2.0", "id": message["id"]}
                if self.progress == "accept":
                    answer["result"] = None
                else:
                    answer["error"] = {"code": -32600, "message": "no progress here"}
                try:
                    self.send(answer)
                except (BrokenPipeError, ValueError):
                    pass
            self.messages.put(message)

    # --- Sending. ---
    def send_raw(self, data):
        with self.send_lock:
            self.process.stdin.write(data)
            self.process.stdin.flush()

    def send(self, message):
        body = json.dumps(message).encode("utf-8")
        self.send_raw(b"Content-Length: %d\r\n\r\n" % len(body) + body)

    def request(self, method, params=None):
        id_ = self.next_id
        self.next_id += 1
        message = {"jsonrpc": "2.0", "id": id_, "method": method}
        if params is not None:
            message["params"] = params
        self.send(message)
        return id_

    def notify(self, method, params=None):
        message = {"jsonrpc": "2.0", "method": method}
        if params is not None:
            message["params"] = params
        self.send(message)

    # --- Receiving. ---
    def wait_for(self, predicate, what, timeout=30):
        """The first message not yet taken that satisfies `predicate`."""
        for i, message in enumerate(self.seen):
            if predicate(message):
                return self.seen.pop(i)
        deadline = time.monotonic() + timeout
        while True:
            left = deadline - time.monotonic()
            if left <= 0:
                raise Failure("timed out waiting for %s; received: %s" %
                              (what, json.dumps(self.seen)[:3000]))
            try:
                message = self.messages.get(timeout=left)
            except queue.Empty:
                continue
            if message is None:
                raise Failure("the server closed its output while waiting "
                              "for %s (exit %r); received: %s" %
                              (what, self.process.poll(), json.dumps(self.seen)[:3000]))
            if predicate(message):
                return message
            self.seen.append(message)

    def response(self, id_, timeout=30):
        return self.wait_for(lambda m: m.get("id") == id_ and "method" not in m,
                             "the response to request %r" % id_, timeout)

    def result(self, id_, timeout=30):
        message = self.response(id_, timeout)
        check("result" in message, "request %r failed: %r" % (id_, message))
        return message["result"]

    def error(self, id_, code, timeout=30):
        message = self.response(id_, timeout)
        check(message.get("error", {}).get("code") == code,
              "request %r: expected error %d, got %r" % (id_, code, message))
        return message["error"]

    def diagnostics(self, uri_, version=None, timeout=60):
        def wanted(m):
            return (m.get("method") == "textDocument/publishDiagnostics" and
                    m["params"]["uri"] == uri_ and
                    (version is None or m["params"].get("version") == version))
        return self.wait_for(wanted, "diagnostics of %s version %r" % (uri_, version),
                             timeout)["params"]

    def taken(self, method):
        """The messages of `method` received and not yet taken."""
        return [m for m in self.seen if m.get("method") == method]

    def drain(self, seconds):
        """Collects what arrives within `seconds`."""
        deadline = time.monotonic() + seconds
        while time.monotonic() < deadline:
            try:
                message = self.messages.get(timeout=max(0.01, deadline - time.monotonic()))
            except queue.Empty:
                break
            if message is None:
                break
            self.seen.append(message)

    # --- Lifecycle. ---
    def initialize(self, capabilities=None, options=None, root=None,
                   process_id=None):
        params = {"processId": process_id if process_id is not None else os.getpid(),
                  "rootUri": uri(root) if root else None,
                  "capabilities": capabilities if capabilities is not None else {
                      "workspace": {"workspaceEdit": {"documentChanges": True}}}}
        if options is not None:
            params["initializationOptions"] = options
        result = self.result(self.request("initialize", params))
        self.notify("initialized", {})
        return result

    def open(self, path, text, version=1):
        self.notify("textDocument/didOpen", {"textDocument": {
            "uri": uri(path), "languageId": "cpp", "version": version,
            "text": text}})
        return uri(path)

    def change(self, path, version, changes):
        self.notify("textDocument/didChange", {
            "textDocument": {"uri": uri(path), "version": version},
            "contentChanges": changes})

    def code_actions(self, path, start, end, only=None, diagnostics=()):
        context = {"diagnostics": list(diagnostics)}
        if only is not None:
            context["only"] = only
        return self.request("textDocument/codeAction", {
            "textDocument": {"uri": uri(path)},
            "range": {"start": start, "end": end}, "context": context})

    def shutdown(self, timeout=30):
        # With `"params": null`, as eglot and Rust clients send them: every
        # test that ends cleanly ends as those clients end.
        id_ = self.next_id
        self.next_id += 1
        self.send({"jsonrpc": "2.0", "id": id_, "method": "shutdown", "params": None})
        self.result(id_)
        self.send({"jsonrpc": "2.0", "method": "exit", "params": None})
        return self.process.wait(timeout=timeout)

    def close(self):
        if self.process.poll() is None:
            self.process.kill()
            self.process.wait()
        self.stderr.close()


def main(scenario):
    """Runs `scenario(args)` and turns a Failure into exit status 1."""
    import argparse
    parser = argparse.ArgumentParser()
    parser.add_argument("--server", required=True)
    parser.add_argument("--flags", default="")
    parser.add_argument("--mock", help="the mock LibTorch headers: sets --flags")
    parser.add_argument("--work", required=True)
    parser.add_argument("extra", nargs="*")
    args = parser.parse_args()
    args.server = shlex.split(args.server)
    if args.mock:
        args.flags = "-std=c++17 -isystem " + shlex.quote(os.path.abspath(args.mock))
    import shutil
    shutil.rmtree(args.work, ignore_errors=True)
    os.makedirs(args.work)
    try:
        scenario(args)
    except Failure as failure:
        print("FAIL: %s" % failure, file=sys.stderr)
        sys.exit(1)
    print("PASS")
