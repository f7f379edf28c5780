//===--- WorkDoneProgress.cpp - Server-initiated progress tokens ----------===//
//
// Part of libtorch-tidy. SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

#include "lsp/WorkDoneProgress.h"

namespace libtorch_tidy::lsp {

std::string WorkDoneProgress::create(const std::string &Begin) {
  if (!Supported)
    return "";
  const std::string Id = "libtorch-tidy-progress-" + std::to_string(NextId);
  std::string Name = "libtorch-tidy-task-" + std::to_string(NextId++);
  Tokens[Name].Begin = Begin;
  Requests[Id] = Name;
  Send({{"jsonrpc", "2.0"},
        {"id", Id},
        {"method", "window/workDoneProgress/create"},
        {"params", {{"token", Name}}}});
  return Name;
}

void WorkDoneProgress::report(const std::string &Token,
                              const std::string &Message) {
  auto It = Tokens.find(Token);
  if (It == Tokens.end() || !It->second.Accepted)
    return;
  Send({{"jsonrpc", "2.0"},
        {"method", "$/progress"},
        {"params",
         {{"token", Token},
          {"value", {{"kind", "report"}, {"message", Message}}}}}});
}

void WorkDoneProgress::end(const std::string &Token,
                           const std::string &Message) {
  auto It = Tokens.find(Token);
  if (It == Tokens.end())
    return;
  if (It->second.Accepted)
    Send({{"jsonrpc", "2.0"},
          {"method", "$/progress"},
          {"params",
           {{"token", Token},
            {"value", {{"kind", "end"}, {"message", Message}}}}}});
  Tokens.erase(It);
}

bool WorkDoneProgress::answered(const nlohmann::json &Id, bool Accepted) {
  if (!Id.is_string())
    return false;
  auto Asked = Requests.find(Id.get<std::string>());
  if (Asked == Requests.end())
    return false;
  const std::string Name = Asked->second;
  Requests.erase(Asked);
  auto It = Tokens.find(Name);
  // The task ended before the answer: nothing to say on it.
  if (It == Tokens.end())
    return true;
  if (!Accepted) {
    Tokens.erase(It);
    return true;
  }
  It->second.Accepted = true;
  Send({{"jsonrpc", "2.0"},
        {"method", "$/progress"},
        {"params",
         {{"token", Name},
          {"value",
           {{"kind", "begin"},
            {"title", "libtorch-tidy"},
            {"message", It->second.Begin},
            {"cancellable", false}}}}}});
  return true;
}

} // namespace libtorch_tidy::lsp
