//===--- WorkDoneProgress.h - Server-initiated progress tokens --*- C++ -*-===//
//
// Part of libtorch-tidy. SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//
//
// LSP 3.17's server-initiated work-done progress: the server asks the client
// for a token (window/workDoneProgress/create) and sends `$/progress` on it
// only once the client accepted it, never before and never on a refused one.
// A report made before the answer is dropped (the next one says more); an
// end before it forgets the token.
//
//===----------------------------------------------------------------------===//

#ifndef LIBTORCH_TIDY_DRIVER_LSP_WORKDONEPROGRESS_H
#define LIBTORCH_TIDY_DRIVER_LSP_WORKDONEPROGRESS_H

#include "nlohmann/json.hpp"
#include <functional>
#include <map>
#include <string>

namespace libtorch_tidy::lsp {

class WorkDoneProgress {
public:
  /// \p Send writes one message to the client.
  explicit WorkDoneProgress(std::function<void(nlohmann::json)> Send)
      : Send(std::move(Send)) {}

  /// Whether the client announced window.workDoneProgress; if not, create()
  /// makes no token.
  void setSupported(bool Supported) { this->Supported = Supported; }

  /// Asks for a token of a task that starts now; \p Begin is its "begin"
  /// message. Returns the token, or "" when the client takes none.
  std::string create(const std::string &Begin);
  /// A "report" on \p Token, if the client accepted it.
  void report(const std::string &Token, const std::string &Message);
  /// The task of \p Token ended: "end" if the client accepted it; the
  /// token is forgotten either way. Nothing for "".
  void end(const std::string &Token, const std::string &Message);
  /// The client's answer to our request \p Id; false if it is not one of
  /// ours (another request's answer).
  bool answered(const nlohmann::json &Id, bool Accepted);

private:
  struct Token {
    std::string Begin;
    bool Accepted = false;
  };
  std::function<void(nlohmann::json)> Send;
  bool Supported = false;
  int NextId = 1;
  std::map<std::string, Token> Tokens;
  /// Our create requests not answered yet: request id -> token.
  std::map<std::string, std::string> Requests;
};

} // namespace libtorch_tidy::lsp

#endif // LIBTORCH_TIDY_DRIVER_LSP_WORKDONEPROGRESS_H
