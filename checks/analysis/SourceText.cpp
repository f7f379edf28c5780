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

} // namespace clang::tidy::libtorch::analysis
