//===--- FixIts.cpp - Edits a fix-it may make -----------------------------===//
//
// Part of libtorch-tidy. SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

#include "FixIts.h"
#include "SourceLines.h"
#include "clang/Lex/Lexer.h"

namespace clang::tidy::libtorch::utils {

std::optional<FixItHint> insertionAfter(SourceRange Written, StringRef Text,
                                        const SourceManager &SM,
                                        const LangOptions &LangOpts) {
  if (!isRewritable(Written))
    return std::nullopt;
  return FixItHint::CreateInsertion(
      Lexer::getLocForEndOfToken(Written.getEnd(), 0, SM, LangOpts), Text);
}

namespace {

/// The location just past the `;` that ends statement \p S, or invalid.
SourceLocation pastStatementSemicolon(const Stmt &S, const SourceManager &SM,
                                      const LangOptions &LangOpts) {
  return Lexer::findLocationAfterToken(S.getEndLoc(), tok::semi, SM, LangOpts,
                                       /*SkipTrailingWhitespaceAndNewLine=*/
                                       false);
}

} // namespace

std::optional<std::pair<FixItHint, FixItHint>>
statementMove(const Stmt &Moved, const Stmt &After, const SourceManager &SM,
              const LangOptions &LangOpts) {
  const SourceLocation MovedEnd = pastStatementSemicolon(Moved, SM, LangOpts);
  const SourceLocation AfterEnd = pastStatementSemicolon(After, SM, LangOpts);
  if (MovedEnd.isInvalid() || AfterEnd.isInvalid())
    return std::nullopt;
  const StringRef MovedText = Lexer::getSourceText(
      CharSourceRange::getCharRange(Moved.getBeginLoc(), MovedEnd), SM,
      LangOpts);
  const std::optional<std::string> Indent =
      indentationIfFirstOnLine(After.getBeginLoc(), SM);
  if (!Indent || MovedText.empty())
    return std::nullopt;
  // Remove the whole line when the statement is alone on it, from the
  // newline before it: the rewriter joins whitespace around a removal and
  // would eat the next line's indentation. Any whitespace but a line break
  // counts as blank here (a CRLF line goes with its '\r').
  FixItHint Remove = FixItHint::CreateRemoval(
      wholeLines(Moved.getBeginLoc(), MovedEnd, SM, " \t\v\f\r")
          .value_or(
              CharSourceRange::getCharRange(Moved.getBeginLoc(), MovedEnd)));
  FixItHint Insert = FixItHint::CreateInsertion(
      AfterEnd, lineBreakAt(AfterEnd, SM) + *Indent + MovedText.str());
  return std::make_pair(std::move(Remove), std::move(Insert));
}

} // namespace clang::tidy::libtorch::utils
