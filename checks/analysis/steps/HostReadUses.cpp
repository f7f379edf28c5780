//===--- HostReadUses.cpp - What a value read on the host is for ----------===//
//
// Part of libtorch-tidy. SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

#include "analysis/steps/HostReadUses.h"
#include "analysis/steps/LoopInvariance.h"
#include "analysis/steps/TrainingLoopModel.h"
#include "utils/AstWalk.h"
#include "clang/AST/ExprCXX.h"
#include "clang/Basic/SourceManager.h"

namespace clang::tidy::libtorch::analysis {

namespace {

/// The variable \p Tensor names after one or more element accesses
/// (`out[i][2]`, `out.select(0, i)`), as a DeclRefExpr; null when it names
/// the whole tensor or something else than a variable.
const DeclRefExpr *elementSource(const Expr *Tensor) {
  unsigned Accesses = 0;
  const Expr *E = Tensor->IgnoreUnlessSpelledInSource();
  while (true) {
    if (const auto *Subscript = dyn_cast<CXXOperatorCallExpr>(E);
        Subscript && Subscript->getOperator() == OO_Subscript) {
      E = Subscript->getArg(0)->IgnoreUnlessSpelledInSource();
    } else if (const auto *Member = dyn_cast<CXXMemberCallExpr>(E)) {
      const CXXMethodDecl *Method = Member->getMethodDecl();
      if (!Method || !Method->getIdentifier() ||
          !llvm::is_contained(llvm::ArrayRef<llvm::StringRef>{"select", "index",
                                                              "narrow",
                                                              "slice"},
                              Method->getName()))
        return nullptr;
      E = Member->getImplicitObjectArgument()->IgnoreUnlessSpelledInSource();
    } else {
      break;
    }
    ++Accesses;
  }
  const auto *Ref = dyn_cast<DeclRefExpr>(E);
  return Accesses > 0 && Ref && isa<VarDecl>(Ref->getDecl()) ? Ref : nullptr;
}

bool isContainerInsertion(const CXXMemberCallExpr &Call) {
  const CXXMethodDecl *Method = Call.getMethodDecl();
  return Method && Method->getIdentifier() &&
         llvm::is_contained(
             llvm::ArrayRef<llvm::StringRef>{"push_back", "emplace_back",
                                             "push_front", "insert", "emplace"},
             Method->getName());
}

/// \p Read is an argument of a container insertion, through the element's
/// braces, constructor, conversions and temporaries.
bool isCollected(const Expr &Read, const utils::UserCodeParents &Parents) {
  bool Collected = false;
  utils::forEachAncestor(
      DynTypedNode::create(Read), Parents,
      [&](const DynTypedNode &Parent, const DynTypedNode &Child) {
        if (const auto *Call = Parent.get<CXXMemberCallExpr>()) {
          Collected = isContainerInsertion(*Call) &&
                      Child.get<Expr>() != Call->getImplicitObjectArgument();
          return false;
        }
        const auto *E = Parent.get<Expr>();
        return E && (isa<ImplicitCastExpr, MaterializeTemporaryExpr,
                         CXXBindTemporaryExpr, CXXFunctionalCastExpr,
                         InitListExpr, CXXConstructExpr, ParenExpr>(E));
      });
  return Collected;
}

/// The innermost loop around \p S in its own function (or lambda).
const Stmt *innermostLoop(const Stmt &S,
                          const utils::UserCodeParents &Parents) {
  const Stmt *Loop = nullptr;
  utils::forEachAncestor(
      DynTypedNode::create(S), Parents,
      [&](const DynTypedNode &Parent, const DynTypedNode &Child) {
        if (Parent.get<FunctionDecl>() || Parent.get<LambdaExpr>())
          return false;
        const auto *ParentStmt = Parent.get<Stmt>();
        if (ParentStmt && utils::isLoop(ParentStmt) &&
            utils::runsPerIteration(ParentStmt, Child.get<Stmt>())) {
          Loop = ParentStmt;
          return false;
        }
        return true;
      });
  return Loop;
}

} // namespace

HostReadUse hostReadUse(const HostSync &Sync, const Stmt *RepeatedLoop,
                        const utils::UserCodeParents &Parents,
                        const SourceManager &SM) {
  if (Sync.Kind != SyncKind::ReadScalar && Sync.Kind != SyncKind::CopyToHost)
    return {};
  const Stmt *Loop = innermostLoop(*Sync.Operation, Parents);
  const bool Inner = Loop && Loop != RepeatedLoop;
  if (Inner && Sync.Tensor)
    if (const DeclRefExpr *Source = elementSource(Sync.Tensor)) {
      const auto *Tensor = cast<VarDecl>(Source->getDecl());
      // Declared before the loop, or one host copy could not be made there.
      if (SM.isBeforeInTranslationUnit(Tensor->getLocation(),
                                       Loop->getBeginLoc()) &&
          !isWrittenIn(Tensor, Loop))
        return {HostReadUse::Kind::ElementOfUnchanged, Tensor};
    }
  if (isCollected(*Sync.Operation, Parents))
    return {HostReadUse::Kind::Collected, nullptr};
  if (Inner)
    return {HostReadUse::Kind::InInnerLoop, nullptr};
  return {};
}

} // namespace clang::tidy::libtorch::analysis
