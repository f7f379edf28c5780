//===--- SourceText.cpp - How expressions are spelled ---------------------===//
//
// Part of libtorch-tidy. SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

#include "SourceText.h"
#include "clang/Lex/Lexer.h"

namespace clang::tidy::libtorch::analysis {

std::string spelledText(const Expr *E, const SourceManager &SM,
                        const LangOptions &LangOpts) {
  if (!E)
    return "";
  CharSourceRange Range = CharSourceRange::getTokenRange(E->getSourceRange());
  if (!isRewritable(E->getSourceRange()))
    Range = CharSourceRange::getTokenRange(SM.getSpellingLoc(E->getBeginLoc()),
                                           SM.getSpellingLoc(E->getEndLoc()));
  return Lexer::getSourceText(Range, SM, LangOpts).str();
}

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

} // namespace clang::tidy::libtorch::analysis
