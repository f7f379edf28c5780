//===--- AstWalk.h - Walks through the nodes Clang adds ---------*- C++ -*-===//
//
// Part of libtorch-tidy. SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//
//
// The AST primitives the checks and the analyses share, about C++ and
// nothing of LibTorch: walking up from a node past the wrappers Clang adds
// around an expression, stripping them on the way down, and the body of a
// loop. One copy each, so that a fix reaches every walk.
//
// Which wrappers count. An expression written once can sit under nodes that
// do not change the value it denotes; the default set, ImplicitWrappers, is
// the one these walks agree on:
//   ImplicitCastExpr         conversions (lvalue-to-rvalue, derived-to-base)
//   ParenExpr                `(x)`
//   MaterializeTemporaryExpr a temporary bound to a reference
//   CXXBindTemporaryExpr     a temporary with a destructor
//   ExprWithCleanups         the end of a full expression with temporaries
// Stripping down, the full set removes what Clang's IgnoreImplicit and
// IgnoreParens remove: the same five, and the full expressions, __extension__
// and _Generic, which a walk up from an expression never meets.
// Not in the default set, because each changes what a check may conclude
// and only some walks may look through them:
//   CopyConstruct            a one-argument CXXConstructExpr of a copy or
//                            move constructor: the same value, another
//                            object
//   Construct                a constructor call: walking up, any
//                            CXXConstructExpr (its argument becomes part of
//                            a new object); stripping down, one with one
//                            argument, not written as a temporary object
//   ImplicitConversion       stripping down: a constructor call not written
//                            at all (no temporary object, no parentheses or
//                            braces: `Device d = kCPU;`), to its first
//                            argument unless that is a default argument
//   FunctionalCast           `T(x)` written as a cast
//   ExplicitCast             any cast written in the source
//   SubstTemplateParam       a non-type template argument, substituted
//   Conditional              walking up: `c ? a : b`, one of two values
// A walk that needs another set names it at its call, and its comment says
// why.
//
//===----------------------------------------------------------------------===//

#ifndef LIBTORCH_TIDY_CHECKS_UTILS_ASTWALK_H
#define LIBTORCH_TIDY_CHECKS_UTILS_ASTWALK_H

#include "clang/AST/ASTTypeTraits.h"
#include "clang/AST/Expr.h"
#include "clang/AST/ExprCXX.h"
#include "clang/AST/ParentMapContext.h"
#include "clang/AST/Stmt.h"
#include <optional>

namespace clang::tidy::libtorch::utils {

/// A set of wrapper kinds (see the file comment), as bits.
enum Wrapper : unsigned {
  ImplicitCast = 1U << 0,
  Paren = 1U << 1,
  MaterializeTemporary = 1U << 2,
  BindTemporary = 1U << 3,
  Cleanups = 1U << 4,
  CopyConstruct = 1U << 5,
  Construct = 1U << 6,
  FunctionalCast = 1U << 7,
  Conditional = 1U << 8,
  ImplicitConversion = 1U << 9,
  ExplicitCast = 1U << 10,
  SubstTemplateParam = 1U << 11,
};
using WrapperSet = unsigned;

/// The wrappers that never change the value an expression denotes.
constexpr WrapperSet ImplicitWrappers =
    ImplicitCast | Paren | MaterializeTemporary | BindTemporary | Cleanups;

/// \p S is a wrapper of a kind in \p Set.
bool isWrapper(const Stmt *S, WrapperSet Set = ImplicitWrappers);

/// Which parent a walk up follows when a node has several (template
/// instantiations, implicit code): the only one, or the first.
enum class ParentChoice { Only, First };

/// Where a walk up from a node past wrappers ends.
struct Above {
  /// The first ancestor that is not a wrapper in the set; a null node when
  /// the walk found no parent (or several, with ParentChoice::Only).
  DynTypedNode Parent;
  /// Its child on the way: the node walked from, or its outermost wrapper.
  const Stmt *Child = nullptr;
};

/// Walks up from \p S past the wrappers in \p Set. \p Index is the parent
/// index (utils::UserCodeParents): anything with `get(const Stmt &)`
/// returning a DynTypedNodeList.
template <typename ParentIndex>
Above parentIgnoring(const Stmt *S, const ParentIndex &Index,
                     WrapperSet Set = ImplicitWrappers,
                     ParentChoice Choice = ParentChoice::Only) {
  Above Result;
  Result.Child = S;
  while (true) {
    DynTypedNodeList Parents = Index.get(*Result.Child);
    if (Parents.empty() ||
        (Choice == ParentChoice::Only && Parents.size() != 1))
      return Result;
    const auto *Parent = Parents[0].template get<Stmt>();
    if (!Parent || !isWrapper(Parent, Set)) {
      Result.Parent = Parents[0];
      return Result;
    }
    Result.Child = Parent;
  }
}

/// Walks up from \p Node through its ancestors, the first parent at each
/// step (the one a node written once has; template instantiations and
/// implicit code may give several), calling \p Visit(Parent, Child) with
/// each parent and the node it was reached from. \p Visit returns whether
/// to walk on. Returns true when \p Visit stopped the walk, false when it
/// ran out of parents (the translation unit, or the edge of \p Index).
/// \p Index as for parentIgnoring, also taking a DynTypedNode.
///
/// One copy of the loop that the analyses used to write by hand, so that a
/// walk's own logic (where it stops, what it collects) is all it says.
template <typename ParentIndex, typename Visitor>
bool forEachAncestor(DynTypedNode Node, const ParentIndex &Index,
                     Visitor Visit) {
  while (true) {
    DynTypedNodeList Parents = Index.get(Node);
    if (Parents.empty())
      return false;
    DynTypedNode Parent = Parents[0];
    if (!Visit(Parent, Node))
      return true;
    Node = Parent;
  }
}

/// forEachAncestor from a statement, through statements only: \p Visit
/// (Parent, Child) sees Stmts, and the walk ends (returning false) at the
/// first parent that is not one, such as the function or a declaration.
template <typename ParentIndex, typename Visitor>
bool forEachStmtAncestor(const Stmt *S, const ParentIndex &Index,
                         Visitor Visit) {
  bool Stopped = false;
  forEachAncestor(DynTypedNode::create(*S), Index,
                  [&](const DynTypedNode &Parent, const DynTypedNode &Child) {
                    const auto *ParentStmt = Parent.template get<Stmt>();
                    if (!ParentStmt)
                      return false;
                    Stopped = !Visit(ParentStmt, Child.template get<Stmt>());
                    return !Stopped;
                  });
  return Stopped;
}

/// \p E is (part of) the condition of an if, while, do or for, up through
/// any expressions.
template <typename ParentIndex>
bool isInBranchCondition(const Expr *E, const ParentIndex &Index) {
  const Stmt *Child = E;
  while (true) {
    DynTypedNodeList Parents = Index.get(*Child);
    if (Parents.empty())
      return false;
    const auto *Parent = Parents[0].template get<Stmt>();
    if (!Parent)
      return false;
    if (const auto *If = dyn_cast<IfStmt>(Parent))
      return If->getCond() == Child;
    if (const auto *While = dyn_cast<WhileStmt>(Parent))
      return While->getCond() == Child;
    if (const auto *Do = dyn_cast<DoStmt>(Parent))
      return Do->getCond() == Child;
    if (const auto *For = dyn_cast<ForStmt>(Parent))
      return For->getCond() == Child;
    if (!isa<Expr>(Parent))
      return false;
    Child = Parent;
  }
}

/// A statement that an expression is the whole of, and where it stands.
struct WholeStatement {
  /// The expression statement (`E;`), the expression's outermost wrapper.
  const Stmt *Statement = nullptr;
  /// The compound statement or `if` it stands in.
  const Stmt *Parent = nullptr;
};

/// The statement that \p E is the whole of, when it stands in a block or
/// as an `if`'s then-branch: where a fix can move or remove it as a
/// statement. None elsewhere, and when parentheses wrap \p E (`(f());` is
/// left alone). \p Index as for parentIgnoring; with several parents, the
/// first.
template <typename ParentIndex>
std::optional<WholeStatement> wholeStatement(const Expr *E,
                                             const ParentIndex &Index) {
  Above Up =
      parentIgnoring(E, Index, ImplicitWrappers & ~Paren, ParentChoice::First);
  const auto *Parent = Up.Parent.template get<Stmt>();
  if (!Parent)
    return std::nullopt;
  const auto *If = dyn_cast<IfStmt>(Parent);
  if (!isa<CompoundStmt>(Parent) && !(If && If->getThen() == Up.Child))
    return std::nullopt;
  return WholeStatement{Up.Child, Parent};
}

/// \p E without the wrappers in \p Set around it; null for null.
const Expr *stripWrappers(const Expr *E, WrapperSet Set = ImplicitWrappers);

/// Whether \p S is a for, range-for, while or do loop.
bool isLoop(const Stmt *S);

/// The body of a for, range-for, while or do loop; null for anything else.
const Stmt *loopBody(const Stmt *Loop);

/// The statement that runs last when \p Branch runs to its end: \p Branch
/// itself, or the last statement of its block (null for an empty block or
/// a null branch), an expression without parentheses and implicit casts.
/// Callers ask whether a branch always leaves (`return`, `break`,
/// `continue`, `throw`).
const Stmt *lastStatementOf(const Stmt *Branch);

/// Whether \p Child of \p Loop is evaluated on every iteration: the body,
/// the condition and the increment, but not a for-loop's init or a
/// range-for's range.
bool runsPerIteration(const Stmt *Loop, const Stmt *Child);

} // namespace clang::tidy::libtorch::utils

#endif // LIBTORCH_TIDY_CHECKS_UTILS_ASTWALK_H
