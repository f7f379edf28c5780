//===--- SourceText.cpp - How expressions are spelled ---------------------===//
//
// Part of libtorch-tidy. SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

#include "utils/SourceText.h"
#include "utils/FixIts.h"
#include "clang/AST/DeclTemplate.h"
#include "clang/Lex/Lexer.h"

namespace clang::tidy::libtorch::utils {

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

std::string calledName(const FunctionDecl *Callee, bool IsMember,
                       const PrintingPolicy &Policy) {
  std::string Name =
      IsMember ? Callee->getNameAsString() : Callee->getQualifiedNameAsString();
  if (const TemplateArgumentList *Args =
          Callee->getTemplateSpecializationArgs()) {
    Name += "<";
    for (unsigned I = 0; I < Args->size(); ++I) {
      if (I)
        Name += ", ";
      llvm::raw_string_ostream OS(Name);
      Args->get(I).print(Policy, OS, /*IncludeType=*/false);
    }
    Name += ">";
  }
  return Name + "()";
}

std::string tokenRangeText(SourceLocation Begin, SourceLocation End,
                           const SourceManager &SM,
                           const LangOptions &LangOpts) {
  return Lexer::getSourceText(CharSourceRange::getTokenRange(Begin, End), SM,
                              LangOpts)
      .str();
}

} // namespace clang::tidy::libtorch::utils
