//===--- TextPosition.cpp - Byte offsets as lines and columns -------------===//
//
// Part of libtorch-tidy. SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

#include "model/TextPosition.h"
#include <algorithm>

using llvm::StringRef;

namespace libtorch_tidy::model {

unsigned lineBreakLength(StringRef Text, size_t I) {
  if (I >= Text.size())
    return 0;
  if (Text[I] == '\n')
    return 1;
  if (Text[I] != '\r')
    return 0;
  return I + 1 < Text.size() && Text[I + 1] == '\n' ? 2 : 1;
}

CodePoint codePointAt(StringRef Text, size_t I) {
  const unsigned char Lead = Text[I];
  const unsigned Length = Lead < 0x80             ? 1
                          : (Lead & 0xE0) == 0xC0 ? 2
                          : (Lead & 0xF0) == 0xE0 ? 3
                          : (Lead & 0xF8) == 0xF0 ? 4
                                                  : 1;
  if (I + Length > Text.size())
    return {};
  for (unsigned K = 1; K < Length; ++K)
    if ((static_cast<unsigned char>(Text[I + K]) & 0xC0) != 0x80)
      return {};
  return {Length, Length == 4 ? 2u : 1u};
}

unsigned utf16Length(StringRef Text) {
  unsigned Units = 0;
  for (size_t I = 0; I < Text.size();) {
    CodePoint C = codePointAt(Text, I);
    Units += C.Utf16Units;
    I += C.Bytes;
  }
  return Units;
}

namespace {

/// The position of \p Offset on the line that starts at \p LineStart.
Position onLine(StringRef Text, unsigned Line, size_t LineStart,
                size_t Offset) {
  // A sequence that runs past the offset counts up to the offset only: the
  // bytes before it are what the column measures.
  StringRef Before = Text.slice(LineStart, Offset);
  return {Line, static_cast<unsigned>(Before.size()) + 1,
          utf16Length(Before) + 1};
}

} // namespace

Position positionAt(StringRef Text, size_t Offset) {
  Offset = std::min(Offset, Text.size());
  unsigned Line = 1;
  size_t LineStart = 0;
  for (size_t I = 0; I < Offset;) {
    if (unsigned Break = lineBreakLength(Text, I)) {
      // The LF of a CRLF is still on the line the CRLF ends.
      if (I + Break > Offset)
        break;
      I += Break;
      ++Line;
      LineStart = I;
      continue;
    }
    ++I;
  }
  return onLine(Text, Line, LineStart, Offset);
}

TextLines::TextLines(StringRef Text) : Text(Text) {
  Starts.push_back(0);
  for (size_t I = 0; I < Text.size();) {
    if (unsigned Break = lineBreakLength(Text, I)) {
      I += Break;
      Starts.push_back(I);
      continue;
    }
    ++I;
  }
}

unsigned TextLines::lineCount() const {
  const bool EndsWithBreak = Starts.size() > 1 && Starts.back() == Text.size();
  return Starts.size() - (EndsWithBreak ? 1 : 0);
}

size_t TextLines::lineStart(unsigned Line) const {
  if (Line == 0)
    return 0;
  return Line <= Starts.size() ? Starts[Line - 1] : Text.size();
}

size_t TextLines::lineEnd(unsigned Line) const {
  if (Line == 0 || Line >= Starts.size())
    return Text.size();
  size_t End = Starts[Line];
  // Back over the line break that starts the next line.
  if (End >= 2 && Text[End - 1] == '\n' && Text[End - 2] == '\r')
    return End - 2;
  return End - 1;
}

StringRef TextLines::line(unsigned Line) const {
  if (Line == 0 || Line > lineCount())
    return {};
  return Text.slice(lineStart(Line), lineEnd(Line));
}

Position TextLines::positionOf(size_t Offset) const {
  Offset = std::min(Offset, Text.size());
  auto After = std::upper_bound(Starts.begin(), Starts.end(), Offset);
  const unsigned Line = After - Starts.begin();
  return onLine(Text, Line, Starts[Line - 1], Offset);
}

size_t TextLines::offsetOf(unsigned Line, unsigned Column) const {
  if (Line == 0)
    return 0;
  if (Line > Starts.size())
    return Text.size();
  const size_t Start = lineStart(Line);
  return std::min(Start + (Column ? Column - 1 : 0), lineEnd(Line));
}

size_t TextLines::offsetOfUtf16(unsigned Line, unsigned Column) const {
  if (Line == 0)
    return 0;
  if (Line > Starts.size())
    return Text.size();
  const size_t End = lineEnd(Line);
  const unsigned Wanted = Column ? Column - 1 : 0;
  size_t I = lineStart(Line);
  unsigned Units = 0;
  while (I < End) {
    CodePoint C = codePointAt(Text, I);
    if (Units + C.Utf16Units > Wanted || I + C.Bytes > End)
      break;
    Units += C.Utf16Units;
    I += C.Bytes;
  }
  return I;
}

} // namespace libtorch_tidy::model
