"""JSON-RPC and lifecycle: malformed messages get the protocol's errors and
the server keeps serving; shutdown/exit end it with the right exit code."""
import os
import sys
import time

sys.dont_write_bytecode = True  # no __pycache__ in the source tree
from lsp_client import Client, check, main  # noqa: E402


def frame(body):
    return b"Content-Length: %d\r\n\r\n" % len(body) + body


def scenario(args):
    c = Client(args.server)
    try:
        # Before initialize: requests are refused, the server lives on.
        c.error(c.request("textDocument/codeAction", {}), -32002)
        result = c.result(c.request("initialize", {
            "processId": os.getpid(), "rootUri": None, "capabilities": {}}))
        caps = result["capabilities"]
        check(caps["textDocumentSync"]["change"] == 2, "incremental sync: %r" % caps)
        check(caps["textDocumentSync"]["openClose"] is True, "openClose: %r" % caps)
        check(caps["positionEncoding"] == "utf-16", "utf-16: %r" % caps)
        check(set(caps["codeActionProvider"]["codeActionKinds"]) ==
              {"quickfix", "source.fixAll.libtorch-tidy"}, "kinds: %r" % caps)
        check(result["serverInfo"]["name"] == "libtorch-tidy", "serverInfo: %r" % result)
        c.notify("initialized", {})
        c.error(c.request("initialize", {"capabilities": {}}), -32600)

        def error_for_raw(data, code):
            c.send_raw(data)
            m = c.wait_for(lambda m: "error" in m and m.get("id") is None,
                           "an error response to %r" % data[:60])
            check(m["error"]["code"] == code, "%r: expected %d, got %r" % (data[:60], code, m))

        error_for_raw(frame(b"{not json"), -32700)
        error_for_raw(frame(b'{"jsonrpc": "2.0", "method": "x", "params": "\xff\xfe"}'), -32700)
        error_for_raw(b"Content-Type: application/json\r\n\r\n", -32700)
        error_for_raw(b"Content-Length: twelve\r\n\r\n", -32700)
        error_for_raw(frame(b"[]"), -32600)
        error_for_raw(frame(b"42"), -32600)
        error_for_raw(frame(b'{"jsonrpc": "2.0", "id": {"a": 1}, "method": "shutdown"}'), -32600)
        c.send({"jsonrpc": "1.0", "id": 900, "method": "shutdown"})
        c.error(900, -32600)
        c.send({"jsonrpc": "2.0", "id": 901, "method": 7})
        c.error(901, -32600)
        c.send({"jsonrpc": "2.0", "id": 902})
        c.error(902, -32600)
        c.error(c.request("textDocument/definition", {}), -32601)
        c.error(c.request("textDocument/codeAction", {"range": 3}), -32602)
        c.error(c.request("textDocument/codeAction", {
            "textDocument": {"uri": 5}, "range": {}}), -32602)
        # Notifications never get an answer, malformed or unknown.
        c.notify("textDocument/didOpen", {"textDocument": {"uri": "file:///x.cpp"}})
        c.notify("textDocument/didChange", {"textDocument": 1})
        c.notify("$/unknownNotification", {})
        c.notify("workspace/didChangeWatchedFiles", {"changes": "none"})
        # A message split across writes, and two in one write.
        body = b'{"jsonrpc": "2.0", "id": 903, "method": "textDocument/definition"}'
        data = frame(body)
        for i in range(0, len(data), 7):
            c.send_raw(data[i:i + 7])
            time.sleep(0.01)
        c.error(903, -32601)
        c.send_raw(frame(b'{"jsonrpc":"2.0","id":904,"method":"a"}') +
                   frame(b'{"jsonrpc":"2.0","id":905,"method":"b"}'))
        c.error(904, -32601)
        c.error(905, -32601)
        others = [m for m in c.seen if m.get("method") != "window/logMessage"]
        check(not others, "no other message expected: %r" % others)
        # shutdown, then everything but exit is refused; exit ends with 0.
        check(c.result(c.request("shutdown")) is None, "shutdown returns null")
        c.error(c.request("textDocument/codeAction", {}), -32600)
        c.notify("exit")
        code = c.process.wait(timeout=10)
        check(code == 0, "exit after shutdown: exit code %r" % code)
    finally:
        c.close()

    # exit without shutdown: 1; the end of the input: 1, after shutdown 0.
    c = Client(args.server)
    try:
        c.initialize()
        c.notify("exit")
        code = c.process.wait(timeout=10)
        check(code == 1, "exit without shutdown: exit code %r" % code)
    finally:
        c.close()
    c = Client(args.server)
    try:
        c.initialize()
        c.process.stdin.close()
        code = c.process.wait(timeout=10)
        check(code == 1, "end of input: exit code %r" % code)
    finally:
        c.close()
    c = Client(args.server)
    try:
        c.initialize()
        c.result(c.request("shutdown"))
        c.process.stdin.close()
        code = c.process.wait(timeout=10)
        check(code == 0, "end of input after shutdown: exit code %r" % code)
    finally:
        c.close()

    # Clients that send `"params": null` for methods that take none (Emacs
    # eglot's jsonrpc.el sends nil as null, Rust clients serialize serde's
    # `()` as null) or leave params out: initialized, shutdown and exit are
    # taken as they are, and exit after shutdown ends the server with 0 at
    # once (within 1 s here, a bound for a loaded machine, not a speed test).
    for spelling in ("null", "absent"):
        c = Client(args.server)
        try:
            c.initialize()

            def message(**fields):
                m = {"jsonrpc": "2.0"}
                m.update(fields)
                if spelling == "null":
                    m["params"] = None
                return m
            c.send(message(method="initialized"))
            c.send(message(id=950, method="shutdown"))
            check(c.result(950) is None, "%s params: shutdown returns null" % spelling)
            c.send(message(method="exit"))
            start = time.monotonic()
            code = c.process.wait(timeout=10)
            elapsed = time.monotonic() - start
            check(code == 0, "%s params: exit after shutdown: exit code %r" % (spelling, code))
            check(elapsed < 1.0, "%s params: exit took %.2f s" % (spelling, elapsed))
            errors = [m for m in c.seen if "error" in m]
            check(not errors, "%s params: no error expected: %r" % (spelling, errors))
        finally:
            c.close()
    # A request with params that are neither an object nor an array, nor
    # null, is still refused (-32600), and exit with such params still ends.
    c = Client(args.server)
    try:
        c.initialize()
        c.send({"jsonrpc": "2.0", "id": 960, "method": "shutdown", "params": 3})
        c.error(960, -32600)
        c.result(c.request("shutdown"))
        c.send({"jsonrpc": "2.0", "method": "exit", "params": "now"})
        code = c.process.wait(timeout=10)
        check(code == 0, "exit with string params after shutdown: exit code %r" % code)
    finally:
        c.close()


main(scenario)
