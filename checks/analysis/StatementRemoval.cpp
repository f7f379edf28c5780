//===--- StatementRemoval.cpp - Deleting a call statement -----------------===//
//
// Part of libtorch-tidy. SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

#include "StatementRemoval.h"
#include "SourceText.h"
#include "clang/AST/StmtCXX.h"
#include "clang/Lex/Lexer.h"

namespace clang::tidy::libtorch::analysis {

namespace {

/// \p Call is the whole then/else branch or loop body of \p Parent.
bool isSoleBody(const Stmt *Parent, const Stmt *Call) {
  if (const auto *If = dyn_cast<IfStmt>(Parent))
    return If->getThen() == Call || If->getElse() == Call;
  if (const auto *For = dyn_cast<ForStmt>(Parent))
    return For->getBody() == Call;
  if (const auto *RangeFor = dyn_cast<CXXForRangeStmt>(Parent))
    return RangeFor->getBody() == Call;
  if (const auto *While = dyn_cast<WhileStmt>(Parent))
    return While->getBody() == Call;
  if (const auto *Do = dyn_cast<DoStmt>(Parent))
    return Do->getBody() == Call;
  return false;
}

} // namespace

std::optional<FixItHint> statementRemoval(const CallExpr *Call,
                                          ASTContext &Context,
                                          const UserCodeParents &Index) {
  const SourceManager &SM = Context.getSourceManager();
  const LangOptions &LangOpts = Context.getLangOpts();
  auto Parents = Index.get(*Call);
  if (Parents.size() != 1)
    return std::nullopt;
  const auto *Parent = Parents[0].get<Stmt>();
  // Only a statement of its own: `f(emptyCache(), x)` or `a, emptyCache()`
  // would need a rewrite of the surrounding expression.
  if (!Parent || isa<Expr>(Parent))
    return std::nullopt;
  SourceRange Range = Call->getSourceRange();
  if (!analysis::isRewritable(Range))
    return std::nullopt;
  SourceLocation AfterSemi =
      Lexer::findLocationAfterToken(Range.getEnd(), tok::semi, SM, LangOpts,
                                    /*SkipTrailingWhitespaceAndNewLine=*/false);
  if (AfterSemi.isInvalid())
    return std::nullopt;
  CharSourceRange Statement =
      CharSourceRange::getCharRange(Range.getBegin(), AfterSemi);
  // The sole body of an `if`, `else`, loop or label: an empty block keeps
  // the statement that owns it valid (and unchanged in meaning).
  if (!isa<CompoundStmt>(Parent)) {
    if (!isSoleBody(Parent, Call))
      return std::nullopt;
    return FixItHint::CreateReplacement(Statement, "{}");
  }
  // In a block: remove the whole line when the statement is alone on it.
  bool Invalid = false;
  StringRef Buffer = SM.getBufferData(SM.getFileID(Range.getBegin()), &Invalid);
  if (Invalid)
    return FixItHint::CreateRemoval(Statement);
  unsigned Begin = SM.getFileOffset(Range.getBegin());
  unsigned End = SM.getFileOffset(AfterSemi);
  unsigned LineBegin = Begin;
  while (LineBegin > 0 &&
         (Buffer[LineBegin - 1] == ' ' || Buffer[LineBegin - 1] == '\t'))
    --LineBegin;
  unsigned LineEnd = End;
  while (LineEnd < Buffer.size() &&
         (Buffer[LineEnd] == ' ' || Buffer[LineEnd] == '\t'))
    ++LineEnd;
  bool AloneOnLine = (LineBegin == 0 || Buffer[LineBegin - 1] == '\n') &&
                     (LineEnd == Buffer.size() || Buffer[LineEnd] == '\n');
  if (!AloneOnLine)
    return FixItHint::CreateRemoval(Statement);
  // Take the line break before the statement with it: the next line keeps
  // its indentation.
  if (LineBegin == 0)
    return FixItHint::CreateRemoval(Statement);
  --LineBegin;
  SourceLocation FileStart =
      SM.getLocForStartOfFile(SM.getFileID(Range.getBegin()));
  return FixItHint::CreateRemoval(
      CharSourceRange::getCharRange(FileStart.getLocWithOffset(LineBegin),
                                    FileStart.getLocWithOffset(LineEnd)));
}

} // namespace clang::tidy::libtorch::analysis
