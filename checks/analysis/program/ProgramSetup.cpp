//===--- ProgramSetup.cpp - Code that runs once, first in main ------------===//
//
// Part of libtorch-tidy. SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

#include "analysis/program/ProgramSetup.h"
#include "utils/SourceLines.h"
#include "utils/SourceText.h"
#include "clang/AST/Stmt.h"
#include "clang/Lex/Lexer.h"
#include "clang/Lex/MacroInfo.h"

namespace clang::tidy::libtorch::analysis {

namespace {

std::optional<unsigned> macroNumber(Preprocessor &PP, llvm::StringRef Name) {
  const MacroInfo *Info = PP.getMacroInfo(PP.getIdentifierInfo(Name));
  if (!Info || Info->getNumTokens() != 1 ||
      !Info->getReplacementToken(0).is(tok::numeric_constant))
    return std::nullopt;
  unsigned Value = 0;
  if (StringRef(PP.getSpelling(Info->getReplacementToken(0)))
          .getAsInteger(10, Value))
    return std::nullopt;
  return Value;
}

/// Whether a preprocessor directive starts a line between \p Begin and
/// \p End (one file): a statement inserted after it would belong to an
/// `#if` branch.
bool directiveBetween(SourceLocation Begin, SourceLocation End,
                      const SourceManager &SM) {
  bool Invalid = false;
  const char *From = SM.getCharacterData(Begin, &Invalid);
  const char *To = Invalid ? nullptr : SM.getCharacterData(End, &Invalid);
  if (Invalid || To < From)
    return true;
  llvm::SmallVector<StringRef, 8> Lines;
  StringRef(From, To - From).split(Lines, '\n');
  return llvm::any_of(
      Lines, [](StringRef Line) { return Line.ltrim().starts_with("#"); });
}

/// The start of the line after \p Loc's, when only whitespace or a `//`
/// comment follows \p Loc on its line.
std::optional<SourceLocation> nextLineIfRestIsBlank(SourceLocation Loc,
                                                    const SourceManager &SM) {
  bool Invalid = false;
  std::pair<FileID, unsigned> Decomposed = SM.getDecomposedLoc(Loc);
  StringRef Buffer = SM.getBufferData(Decomposed.first, &Invalid);
  if (Invalid)
    return std::nullopt;
  StringRef Rest = Buffer.drop_front(Decomposed.second);
  size_t Newline = Rest.find('\n');
  if (Newline == StringRef::npos)
    return std::nullopt;
  StringRef Line = Rest.take_front(Newline).trim();
  if (!Line.empty() && !Line.starts_with("//"))
    return std::nullopt;
  return Loc.getLocWithOffset(static_cast<int>(Newline + 1));
}

} // namespace

std::optional<FixItHint> insertFirstInMain(const FunctionDecl &Main,
                                           llvm::StringRef Statement,
                                           SetupSlot Slot,
                                           const SourceManager &SM,
                                           const LangOptions &LangOpts) {
  const auto *Body = dyn_cast_or_null<CompoundStmt>(Main.getBody());
  // A function-try-block has a CXXTryStmt body: where the statement would
  // go (inside or outside the try) is the author's choice.
  if (!Body || !Body->getLBracLoc().isFileID())
    return std::nullopt;
  std::string Indent = "  ";
  if (!Body->body_empty()) {
    const Stmt *First = Body->body_front();
    SourceLocation FirstLoc = First->getBeginLoc();
    if (FirstLoc.isFileID()) {
      StringRef FirstText = Lexer::getSourceText(
          CharSourceRange::getTokenRange(First->getSourceRange()), SM,
          LangOpts);
      if (FirstText.trim() == Statement.trim().drop_back() ||
          FirstText.trim() == Statement.trim())
        return std::nullopt;
      if (SM.getSpellingLineNumber(FirstLoc) !=
          SM.getSpellingLineNumber(Body->getLBracLoc()))
        if (std::optional<std::string> Found =
                utils::indentationIfFirstOnLine(FirstLoc, SM)) {
          Indent = *Found;
          if (Slot == SetupSlot::BeforeFirstStatement &&
              !directiveBetween(Body->getLBracLoc(), FirstLoc, SM))
            return FixItHint::CreateInsertion(
                FirstLoc.getLocWithOffset(-static_cast<int>(Indent.size())),
                (Indent + Statement + utils::lineBreakAt(FirstLoc, SM)).str());
        }
    }
  }
  SourceLocation After =
      Lexer::getLocForEndOfToken(Body->getLBracLoc(), 0, SM, LangOpts);
  if (After.isInvalid())
    return std::nullopt;
  // No first statement on a line of its own before any directive: the line
  // after the brace's, which differs from the brace slot's offset.
  if (Slot == SetupSlot::BeforeFirstStatement)
    if (std::optional<SourceLocation> Next = nextLineIfRestIsBlank(After, SM))
      return FixItHint::CreateInsertion(
          *Next, (Indent + Statement + utils::lineBreakAt(After, SM)).str());
  return FixItHint::CreateInsertion(
      After, (utils::lineBreakAt(After, SM) + Indent + Statement).str());
}

bool declaresGlobalContext(ASTContext &Context) {
  IdentifierInfo &At = Context.Idents.get("at");
  IdentifierInfo &GlobalContext = Context.Idents.get("globalContext");
  for (const NamedDecl *Found :
       Context.getTranslationUnitDecl()->lookup(DeclarationName(&At)))
    if (const auto *Namespace = dyn_cast<NamespaceDecl>(Found))
      for (const NamedDecl *Function :
           Namespace->lookup(DeclarationName(&GlobalContext)))
        if (isa<FunctionDecl>(Function))
          return true;
  return false;
}

std::optional<LibTorchVersion> libTorchVersion(Preprocessor &PP) {
  std::optional<unsigned> Major = macroNumber(PP, "TORCH_VERSION_MAJOR");
  std::optional<unsigned> Minor = macroNumber(PP, "TORCH_VERSION_MINOR");
  if (!Major || !Minor)
    return std::nullopt;
  return LibTorchVersion{*Major, *Minor};
}

} // namespace clang::tidy::libtorch::analysis
