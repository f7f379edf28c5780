//===--- JsonRpc.cpp - JSON-RPC 2.0 with LSP's Content-Length framing -----===//
//
// Part of libtorch-tidy. SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

#include "lsp/JsonRpc.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/ADT/StringExtras.h"

using namespace llvm;

namespace libtorch_tidy::lsp {

std::optional<Frame> MessageReader::next() {
  if (Skip) {
    size_t Dropped = std::min(Skip, Buffer.size());
    Buffer.erase(0, Dropped);
    Skip -= Dropped;
    if (Skip)
      return std::nullopt;
  }
  size_t HeaderEnd = Buffer.find("\r\n\r\n");
  if (HeaderEnd == std::string::npos) {
    // Headers are short: this much without an empty line is not LSP.
    if (Buffer.size() > 65536) {
      Buffer.clear();
      return FramingError{"no header block ends within 64 KiB"};
    }
    return std::nullopt;
  }
  StringRef Headers(Buffer.data(), HeaderEnd);
  std::optional<size_t> Length;
  bool BadLength = false;
  SmallVector<StringRef, 4> Lines;
  Headers.split(Lines, "\r\n");
  for (StringRef Line : Lines) {
    auto [Name, Value] = Line.split(':');
    if (!Name.trim().equals_insensitive("Content-Length"))
      continue;
    unsigned long long N;
    if (Value.trim().getAsInteger(10, N))
      BadLength = true;
    else
      Length = N;
  }
  const size_t BodyStart = HeaderEnd + 4;
  if (!Length || BadLength) {
    Buffer.erase(0, BodyStart);
    return FramingError{BadLength ? "the Content-Length header is not a number"
                                  : "the message has no Content-Length header"};
  }
  if (*Length > MaxBody) {
    Buffer.erase(0, BodyStart);
    Skip = *Length;
    return FramingError{"a message of " + std::to_string(*Length) +
                        " bytes is over the limit of 256 MiB"};
  }
  if (Buffer.size() - BodyStart < *Length)
    return std::nullopt;
  RawMessage Message{Buffer.substr(BodyStart, *Length)};
  Buffer.erase(0, BodyStart + *Length);
  return Message;
}

std::string frame(const nlohmann::json &Message) {
  std::string Body =
      Message.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace);
  return "Content-Length: " + std::to_string(Body.size()) + "\r\n\r\n" + Body;
}

nlohmann::json errorResponse(const nlohmann::json &Id, int Code,
                             StringRef Message) {
  return {{"jsonrpc", "2.0"},
          {"id", Id},
          {"error", {{"code", Code}, {"message", Message.str()}}}};
}

} // namespace libtorch_tidy::lsp
