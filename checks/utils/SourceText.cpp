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

std::string printable(llvm::StringRef Text) {
  std::string Out;
  Out.reserve(Text.size());
  for (const char C : Text) {
    const auto Byte = static_cast<unsigned char>(C);
    if (Byte >= 0x20 && Byte != 0x7f) {
      Out += C;
      continue;
    }
    static constexpr char Hex[] = "0123456789abcdef";
    Out += "\\x";
    Out += Hex[Byte >> 4];
    Out += Hex[Byte & 0xf];
  }
  return Out;
}

} // namespace clang::tidy::libtorch::utils
