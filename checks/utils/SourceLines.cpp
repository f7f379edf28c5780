//===--- SourceLines.cpp - Lines of a source file -------------------------===//
//
// Part of libtorch-tidy. SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

#include "SourceLines.h"

namespace clang::tidy::libtorch::utils {

std::string indentationOf(SourceLocation Loc, const SourceManager &SM) {
  if (Loc.isInvalid() || !Loc.isFileID())
    return "";
  std::pair<FileID, unsigned> Position = SM.getDecomposedLoc(Loc);
  bool Invalid = false;
  StringRef Buffer = SM.getBufferData(Position.first, &Invalid);
  if (Invalid)
    return "";
  unsigned Column = SM.getColumnNumber(Position.first, Position.second);
  StringRef Line = Buffer.substr(Position.second - (Column - 1));
  return Line.take_while([](char C) { return C == ' ' || C == '\t'; }).str();
}

std::optional<std::string> indentationIfFirstOnLine(SourceLocation Loc,
                                                    const SourceManager &SM) {
  if (Loc.isInvalid() || !Loc.isFileID())
    return std::nullopt;
  std::pair<FileID, unsigned> Decomposed = SM.getDecomposedLoc(Loc);
  bool Invalid = false;
  StringRef Buffer = SM.getBufferData(Decomposed.first, &Invalid);
  if (Invalid)
    return std::nullopt;
  StringRef Before = Buffer.take_front(Decomposed.second);
  StringRef Line = Before.substr(Before.find_last_of('\n') + 1);
  if (Line.find_first_not_of(" \t") != StringRef::npos)
    return std::nullopt;
  return Line.str();
}

std::string lineBreakAt(SourceLocation Loc, const SourceManager &SM) {
  if (Loc.isInvalid() || !Loc.isFileID())
    return "\n";
  std::pair<FileID, unsigned> Position = SM.getDecomposedLoc(Loc);
  bool Invalid = false;
  StringRef Buffer = SM.getBufferData(Position.first, &Invalid);
  if (Invalid)
    return "\n";
  size_t End = Buffer.find('\n', Position.second);
  if (End == StringRef::npos)
    End = Buffer.rfind('\n', Position.second);
  if (End == StringRef::npos || End == 0)
    return "\n";
  return Buffer[End - 1] == '\r' ? "\r\n" : "\n";
}

std::optional<CharSourceRange> wholeLines(SourceLocation Begin,
                                          SourceLocation End,
                                          const SourceManager &SM,
                                          llvm::StringRef Blanks) {
  if (Begin.isInvalid() || End.isInvalid() || !Begin.isFileID() ||
      !End.isFileID())
    return std::nullopt;
  std::pair<FileID, unsigned> First = SM.getDecomposedLoc(Begin);
  std::pair<FileID, unsigned> Last = SM.getDecomposedLoc(End);
  if (First.first != Last.first)
    return std::nullopt;
  bool Invalid = false;
  StringRef Buffer = SM.getBufferData(First.first, &Invalid);
  if (Invalid)
    return std::nullopt;
  size_t LineStart = Buffer.rfind('\n', First.second) + 1;
  size_t LineEnd = Buffer.find('\n', Last.second);
  if (LineEnd == StringRef::npos)
    LineEnd = Buffer.size();
  auto Blank = [&](StringRef Text) {
    return Text.find_first_not_of(Blanks) == StringRef::npos;
  };
  if (LineStart == 0 || !Blank(Buffer.slice(LineStart, First.second)) ||
      !Blank(Buffer.slice(Last.second, LineEnd)))
    return std::nullopt;
  SourceLocation FileStart = SM.getLocForStartOfFile(First.first);
  return CharSourceRange::getCharRange(
      FileStart.getLocWithOffset(static_cast<int>(LineStart - 1)),
      FileStart.getLocWithOffset(static_cast<int>(LineEnd)));
}

} // namespace clang::tidy::libtorch::utils
