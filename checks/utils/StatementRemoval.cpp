//===--- StatementRemoval.cpp - Deleting a call statement -----------------===//
//
// Part of libtorch-tidy. SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

#include "utils/StatementRemoval.h"
#include "utils/AstWalk.h"
#include "utils/FixIts.h"
#include "utils/SourceLines.h"
#include "utils/SourceText.h"
#include "clang/AST/StmtCXX.h"
#include "clang/Lex/Lexer.h"

namespace clang::tidy::libtorch::utils {

namespace {

/// \p Call is the whole then/else branch or loop body of \p Parent.
bool isSoleBody(const Stmt *Parent, const Stmt *Call) {
  if (const auto *If = dyn_cast<IfStmt>(Parent))
    return If->getThen() == Call || If->getElse() == Call;
  return utils::loopBody(Parent) == Call;
}

} // namespace

std::optional<FixItHint> statementRemoval(const CallExpr *Call,
                                          ASTContext &Context,
                                          const UserCodeParents &Index) {
  const SourceManager &SM = Context.getSourceManager();
  const LangOptions &LangOpts = Context.getLangOpts();
  // Past the cleanups of temporaries that the call's default arguments
  // make: LibTorch 2.x's `emptyCache(MempoolId_t mempool_id = {0, 0})` is a
  // statement of its own all the same.
  const utils::Above Above =
      utils::parentIgnoring(Call, Index, utils::Cleanups);
  const auto *Parent = Above.Parent.get<Stmt>();
  // Only a statement of its own: `f(emptyCache(), x)` or `a, emptyCache()`
  // would need a rewrite of the surrounding expression.
  if (!Parent || isa<Expr>(Parent))
    return std::nullopt;
  SourceRange Range = Call->getSourceRange();
  if (!utils::isRewritable(Range))
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
    if (!isSoleBody(Parent, Above.Child))
      return std::nullopt;
    return FixItHint::CreateReplacement(Statement, "{}");
  }
  // In a block: remove the whole line when the statement is alone on it
  // (spaces and tabs around it; a CRLF line keeps its statement's line).
  if (std::optional<CharSourceRange> Line =
          utils::wholeLines(Range.getBegin(), AfterSemi, SM))
    return FixItHint::CreateRemoval(*Line);
  return FixItHint::CreateRemoval(Statement);
}

} // namespace clang::tidy::libtorch::utils
