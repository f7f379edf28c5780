//===--- JsonRpc.h - JSON-RPC with Content-Length ---------------*- C++ -*-===//
//
// Part of libtorch-tidy. SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//
//
// The base protocol of LSP: each message is `Content-Length: N\r\n` (other
// headers allowed and ignored), an empty line, then N bytes of JSON. The
// reader takes bytes as they arrive and hands back whole messages; a header
// block it cannot use becomes a framing error (answered with -32700) and the
// reader carries on with the next header block, so no input ends the server.
//
//===----------------------------------------------------------------------===//

#ifndef LIBTORCH_TIDY_DRIVER_LSP_JSONRPC_H
#define LIBTORCH_TIDY_DRIVER_LSP_JSONRPC_H

#include "llvm/ADT/StringRef.h"
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <variant>

namespace libtorch_tidy::lsp {

/// JSON-RPC and LSP error codes.
enum ErrorCode : int {
  ParseError = -32700,
  InvalidRequest = -32600,
  MethodNotFound = -32601,
  InvalidParams = -32602,
  InternalError = -32603,
  ServerNotInitialized = -32002,
  RequestCancelled = -32800,
};

/// What the reader made of the next message.
struct FramingError {
  std::string Message;
};
struct RawMessage {
  std::string Body;
};
using Frame = std::variant<RawMessage, FramingError>;

class MessageReader {
public:
  /// Bodies longer than this are skipped (a framing error), not buffered.
  static constexpr size_t MaxBody = 256u << 20;

  void feed(llvm::StringRef Bytes) {
    Buffer.append(Bytes.data(), Bytes.size());
  }

  /// The next whole message or framing error, if the bytes fed so far hold
  /// one.
  std::optional<Frame> next();

private:
  std::string Buffer;
  /// Bytes of an oversized body still to be dropped.
  size_t Skip = 0;
};

/// `Content-Length: N\r\n\r\n<body>`. Never throws: text that is not valid
/// UTF-8 is replaced.
std::string frame(const nlohmann::json &Message);

nlohmann::json errorResponse(const nlohmann::json &Id, int Code,
                             llvm::StringRef Message);

} // namespace libtorch_tidy::lsp

#endif // LIBTORCH_TIDY_DRIVER_LSP_JSONRPC_H
