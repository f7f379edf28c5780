//===--- AstWalk.cpp - Walks through the nodes Clang adds -----------------===//
//
// Part of libtorch-tidy. SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

#include "AstWalk.h"
#include "clang/AST/StmtCXX.h"

namespace clang::tidy::libtorch::utils {

namespace {

/// The one expression \p S wraps, if \p S is a wrapper in \p Set.
const Expr *wrapped(const Stmt *S, WrapperSet Set) {
  if (const auto *Cast = dyn_cast<ImplicitCastExpr>(S))
    return Set & ImplicitCast ? Cast->getSubExpr() : nullptr;
  if (const auto *Parens = dyn_cast<ParenExpr>(S))
    return Set & Paren ? Parens->getSubExpr() : nullptr;
  if (const auto *Temporary = dyn_cast<MaterializeTemporaryExpr>(S))
    return Set & MaterializeTemporary ? Temporary->getSubExpr() : nullptr;
  if (const auto *Bind = dyn_cast<CXXBindTemporaryExpr>(S))
    return Set & BindTemporary ? Bind->getSubExpr() : nullptr;
  if (const auto *WithCleanups = dyn_cast<ExprWithCleanups>(S))
    return Set & Cleanups ? WithCleanups->getSubExpr() : nullptr;
  if (const auto *Functional = dyn_cast<CXXFunctionalCastExpr>(S))
    return Set & FunctionalCast ? Functional->getSubExpr() : nullptr;
  if (isa<ConditionalOperator>(S))
    // Either side: stripping goes down neither.
    return nullptr;
  if (const auto *Constructed = dyn_cast<CXXConstructExpr>(S)) {
    if (Constructed->getNumArgs() != 1)
      return nullptr;
    if ((Set & CopyConstruct) &&
        Constructed->getConstructor()->isCopyOrMoveConstructor())
      return Constructed->getArg(0);
    if ((Set & Construct) && !isa<CXXTemporaryObjectExpr>(Constructed))
      return Constructed->getArg(0);
  }
  return nullptr;
}

} // namespace

bool isWrapper(const Stmt *S, WrapperSet Set) {
  if (!S)
    return false;
  if (isa<ConditionalOperator>(S))
    return Set & Conditional;
  if (isa<CXXConstructExpr>(S) && (Set & Construct))
    // Walking up, any constructor call takes the value in.
    return true;
  return wrapped(S, Set) != nullptr;
}

const Expr *stripWrappers(const Expr *E, WrapperSet Set) {
  const bool Implicit = (Set & ImplicitWrappers) == ImplicitWrappers;
  while (E) {
    const Expr *Next = Implicit ? E->IgnoreImplicit()->IgnoreParens() : E;
    if (Next == E)
      if (const Expr *Inner = wrapped(E, Set))
        Next = Inner;
    if (Next == E) {
      if (const auto *Cast = dyn_cast<ExplicitCastExpr>(E);
          Cast && (Set & ExplicitCast))
        Next = Cast->getSubExpr();
      else if (const auto *Param = dyn_cast<SubstNonTypeTemplateParmExpr>(E);
               Param && (Set & SubstTemplateParam))
        Next = Param->getReplacement();
      else if (const auto *Made = dyn_cast<CXXConstructExpr>(E);
               Made && (Set & ImplicitConversion) &&
               !isa<CXXTemporaryObjectExpr>(Made) &&
               Made->getParenOrBraceRange().isInvalid() &&
               Made->getNumArgs() >= 1 &&
               !isa<CXXDefaultArgExpr>(Made->getArg(0)))
        Next = Made->getArg(0);
    }
    if (Next == E)
      return E;
    E = Next;
  }
  return E;
}

bool isLoop(const Stmt *S) {
  return S && isa<ForStmt, CXXForRangeStmt, WhileStmt, DoStmt>(S);
}

const Stmt *loopBody(const Stmt *Loop) {
  if (const auto *For = dyn_cast_or_null<ForStmt>(Loop))
    return For->getBody();
  if (const auto *RangeFor = dyn_cast_or_null<CXXForRangeStmt>(Loop))
    return RangeFor->getBody();
  if (const auto *While = dyn_cast_or_null<WhileStmt>(Loop))
    return While->getBody();
  if (const auto *Do = dyn_cast_or_null<DoStmt>(Loop))
    return Do->getBody();
  return nullptr;
}

const Stmt *lastStatementOf(const Stmt *Branch) {
  if (const auto *Block = dyn_cast_or_null<CompoundStmt>(Branch))
    Branch = Block->body_empty() ? nullptr : Block->body_back();
  if (const auto *Expression = dyn_cast_or_null<Expr>(Branch))
    return Expression->IgnoreParenImpCasts();
  return Branch;
}

bool runsPerIteration(const Stmt *Loop, const Stmt *Child) {
  if (const auto *For = dyn_cast<ForStmt>(Loop))
    return Child != For->getInit();
  if (const auto *RangeFor = dyn_cast<CXXForRangeStmt>(Loop))
    return Child == RangeFor->getBody() || Child == RangeFor->getInc() ||
           Child == RangeFor->getCond() || Child == RangeFor->getLoopVarStmt();
  return true;
}

} // namespace clang::tidy::libtorch::utils
