//===--- TextDocument.cpp - Open documents and LSP positions --------------===//
//
// Part of libtorch-tidy. SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

#include "lsp/TextDocument.h"
#include <algorithm>
#include <limits>

using namespace llvm;

namespace libtorch_tidy::lsp {
namespace {

/// The length in bytes of the UTF-8 sequence that starts with \p Lead, and
/// how many UTF-16 units it takes; an invalid or truncated sequence is one
/// byte, one unit.
std::pair<size_t, unsigned> codePointAt(StringRef Text, size_t I) {
  const unsigned char Lead = Text[I];
  size_t Length = Lead < 0x80             ? 1
                  : (Lead & 0xE0) == 0xC0 ? 2
                  : (Lead & 0xF0) == 0xE0 ? 3
                  : (Lead & 0xF8) == 0xF0 ? 4
                                          : 1;
  if (I + Length > Text.size())
    return {1, 1};
  for (size_t K = 1; K < Length; ++K)
    if ((static_cast<unsigned char>(Text[I + K]) & 0xC0) != 0x80)
      return {1, 1};
  return {Length, Length == 4 ? 2u : 1u};
}

size_t lineStart(StringRef Text, unsigned Line) {
  size_t Start = 0;
  for (unsigned L = 0; L < Line; ++L) {
    size_t NewLine = Text.find('\n', Start);
    if (NewLine == StringRef::npos)
      return Text.size();
    Start = NewLine + 1;
  }
  return Start;
}

} // namespace

size_t offsetAt(StringRef Text, LspPosition P) {
  size_t I = lineStart(Text, P.Line);
  unsigned Units = 0;
  while (I < Text.size() && Text[I] != '\n') {
    auto [Length, Width] = codePointAt(Text, I);
    if (Units + Width > P.Character)
      break;
    Units += Width;
    I += Length;
  }
  return I;
}

LspPosition positionAt(StringRef Text, size_t Offset) {
  Offset = std::min(Offset, Text.size());
  LspPosition P;
  size_t Start = 0;
  for (size_t NewLine = Text.find('\n');
       NewLine != StringRef::npos && NewLine < Offset;
       NewLine = Text.find('\n', NewLine + 1)) {
    ++P.Line;
    Start = NewLine + 1;
  }
  for (size_t I = Start; I < Offset;) {
    auto [Length, Width] = codePointAt(Text, I);
    P.Character += Width;
    I += Length;
  }
  return P;
}

size_t offsetOfLineColumn(StringRef Text, unsigned Line, unsigned Column) {
  if (Line == 0)
    return 0;
  size_t Start = lineStart(Text, Line - 1);
  size_t End = Text.find('\n', Start);
  if (End == StringRef::npos)
    End = Text.size();
  return std::min(Start + (Column ? Column - 1 : 0), End);
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
