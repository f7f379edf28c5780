//===--- TextDocument.cpp - Open documents and LSP positions --------------===//
//
// Part of libtorch-tidy. SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

#include "lsp/TextDocument.h"
#include "model/TextPosition.h"
#include <algorithm>
#include <limits>

using namespace llvm;

namespace libtorch_tidy::lsp {

size_t offsetAt(StringRef Text, LspPosition P) {
  // The model counts from 1: the largest 0-based numbers are past any end.
  constexpr unsigned Largest = std::numeric_limits<unsigned>::max();
  if (P.Line == Largest)
    return Text.size();
  return model::TextLines(Text).offsetOfUtf16(
      P.Line + 1, P.Character == Largest ? Largest : P.Character + 1);
}

LspPosition positionAt(StringRef Text, size_t Offset) {
  model::Position P = model::positionAt(Text, Offset);
  return {P.Line - 1, P.ColumnUtf16 - 1};
}

size_t offsetOfLineColumn(StringRef Text, unsigned Line, unsigned Column) {
  return model::TextLines(Text).offsetOf(Line, Column);
}

nlohmann::json toJson(LspPosition P) {
  return {{"line", P.Line}, {"character", P.Character}};
}

nlohmann::json rangeJson(StringRef Text, size_t Begin, size_t End) {
  return {{"start", toJson(positionAt(Text, Begin))},
          {"end", toJson(positionAt(Text, std::max(Begin, End)))}};
}

std::optional<std::string> applyContentChange(std::string &Text,
                                              const nlohmann::json &Change) {
  if (!Change.is_object() || !Change.contains("text") ||
      !Change["text"].is_string())
    return std::string("a content change without a 'text' string");
  const std::string &New = Change["text"].get_ref<const std::string &>();
  if (!Change.contains("range")) {
    Text = New;
    return std::nullopt;
  }
  auto Position = [](const nlohmann::json &J) -> std::optional<LspPosition> {
    auto Count = [&](const char *Key) {
      return J.contains(Key) && J[Key].is_number_integer() &&
             J[Key].get<long long>() >= 0 &&
             J[Key].get<long long>() <= std::numeric_limits<unsigned>::max();
    };
    if (!J.is_object() || !Count("line") || !Count("character"))
      return std::nullopt;
    return LspPosition{J["line"].get<unsigned>(),
                       J["character"].get<unsigned>()};
  };
  const nlohmann::json &Range = Change["range"];
  if (!Range.is_object() || !Range.contains("start") || !Range.contains("end"))
    return std::string("a content change with a malformed 'range'");
  std::optional<LspPosition> Start = Position(Range["start"]);
  std::optional<LspPosition> End = Position(Range["end"]);
  if (!Start || !End)
    return std::string("a content change with a malformed 'range'");
  size_t From = offsetAt(Text, *Start), To = offsetAt(Text, *End);
  if (To < From)
    return std::string("a content change whose range ends before it starts");
  Text.replace(From, To - From, New);
  return std::nullopt;
}

} // namespace libtorch_tidy::lsp
