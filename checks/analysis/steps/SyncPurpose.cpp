//===--- SyncPurpose.cpp - Host waits that are the point ------------------===//
//
// Part of libtorch-tidy. SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

#include "analysis/steps/SyncPurpose.h"
#include "analysis/steps/TrainingLoopModel.h"
#include "analysis/vocabulary/LibTorchCalls.h"
#include "analysis/vocabulary/LibTorchNames.h"
#include "utils/AstWalk.h"
#include "utils/References.h"
#include "clang/AST/Decl.h"
#include "clang/AST/ExprCXX.h"
#include "clang/AST/StmtCXX.h"

namespace clang::tidy::libtorch::analysis {

namespace {

/// \p S calls a function named `now` (not inside a lambda written there).
bool readsClock(const Stmt *S) {
  if (!S || isa<LambdaExpr>(S))
    return false;
  if (const auto *Call = dyn_cast<CallExpr>(S))
    if (const FunctionDecl *Callee = Call->getDirectCallee();
        Callee && Callee->getIdentifier() && Callee->getName() == "now")
      return true;
  for (const Stmt *Child : S->children())
    if (readsClock(Child))
      return true;
  return false;
}

/// The jump that ends \p Branch: `break;`, `return ...;`, or the last
/// statement of a block.
const Stmt *exitOf(const Stmt *Branch) {
  Branch = utils::lastStatementOf(Branch);
  return isa_and_nonnull<BreakStmt, ReturnStmt>(Branch) ? Branch : nullptr;
}

/// An `if` without `else` in \p S (not in a nested loop, switch or lambda)
/// whose condition names \p Value and whose then-branch leaves the loop.
bool exitsOn(const Stmt *S, const VarDecl *Value) {
  if (!S || isa<LambdaExpr, SwitchStmt>(S) || utils::isLoop(S))
    return false;
  if (const auto *If = dyn_cast<IfStmt>(S))
    if (!If->getElse() && exitOf(If->getThen()) &&
        utils::mentions(If->getCond(), Value))
      return true;
  for (const Stmt *Child : S->children())
    if (exitsOn(Child, Value))
      return true;
  return false;
}

/// \p Call is a call of a function of the project or of a library other
/// than LibTorch (images, text, files): not a tensor operation that could
/// have run on the device, nor a standard container collecting the copy
/// (HostReadUses.h says how to copy once instead).
bool isHostConsumer(const CallExpr &Call) {
  const FunctionDecl *Callee = Call.getDirectCallee();
  if (!Callee || isa<CXXOperatorCallExpr>(Call))
    return false;
  return !isInNamespace(Callee, names::AtNamespace) &&
         !isInNamespace(Callee, names::TorchNamespace) &&
         !isInNamespace(Callee, "::c10") && !isInNamespace(Callee, "::std");
}

/// \p E, a tensor, is handed as it is to a host consumer.
bool handedToHostConsumer(const Expr *E,
                          const utils::UserCodeParents &Parents) {
  const utils::Above Up = utils::parentIgnoring(E, Parents);
  const auto *Call = Up.Parent.get<CallExpr>();
  return Call && Call->getCallee() != Up.Child && isHostConsumer(*Call);
}

} // namespace

bool handsResultToHost(const Expr *Copy,
                       const utils::UserCodeParents &Parents) {
  if (handedToHostConsumer(Copy, Parents))
    return true;
  // `auto ids = out.cpu();` and every use of `ids` hands it on.
  const utils::Above Up = utils::parentIgnoring(Copy, Parents);
  const auto *Variable = Up.Parent.get<VarDecl>();
  const auto *Function =
      Variable ? dyn_cast<FunctionDecl>(Variable->getDeclContext()) : nullptr;
  if (!Variable || !Variable->isLocalVarDecl() || !Function ||
      !Function->getBody())
    return false;
  const std::vector<const DeclRefExpr *> Uses =
      utils::referencesTo(Variable, Function->getBody());
  return !Uses.empty() && llvm::all_of(Uses, [&](const DeclRefExpr *Use) {
    return handedToHostConsumer(Use, Parents);
  });
}

bool measuresLatency(const Expr *Sync, const utils::UserCodeParents &Parents) {
  // The innermost block around the sync decides.
  bool ClockReadAfter = false;
  utils::forEachStmtAncestor(
      Sync, Parents, [&ClockReadAfter](const Stmt *Parent, const Stmt *Child) {
        const auto *Block = dyn_cast<CompoundStmt>(Parent);
        if (!Block)
          return true;
        bool After = false;
        for (const Stmt *Sibling : Block->body()) {
          if (After && readsClock(Sibling)) {
            ClockReadAfter = true;
            break;
          }
          After |= Sibling == Child;
        }
        return false;
      });
  return ClockReadAfter;
}

bool endsLoopEarly(const Expr *Read, const Stmt *Loop,
                   const utils::UserCodeParents &Parents) {
  const IfStmt *Exit = nullptr;
  bool Ends = false;
  utils::forEachAncestor(
      DynTypedNode::create(*Read), Parents,
      [&](const DynTypedNode &Above, const DynTypedNode &Below) {
        const auto *Child = Below.get<Stmt>();
        const auto *Parent = Above.get<Stmt>();
        // `const auto id = t.item<int64_t>();` then `if (id == eos) break;`.
        if (const auto *Value = Above.get<VarDecl>();
            Value && !Exit && Value->getInit() == Child) {
          const Stmt *Body = utils::loopBody(Loop);
          Ends = Body && utils::mentions(Body, Value) &&
                 llvm::any_of(Body->children(), [Value](const Stmt *S) {
                   return exitsOn(S, Value);
                 });
          return false;
        }
        if (!Parent)
          return false;
        if (Parent == Loop) {
          // The loop's own condition, or an exit whose break leaves this loop.
          const Stmt *Condition = nullptr;
          if (const auto *While = dyn_cast<WhileStmt>(Loop))
            Condition = While->getCond();
          else if (const auto *Do = dyn_cast<DoStmt>(Loop))
            Condition = Do->getCond();
          else if (const auto *For = dyn_cast<ForStmt>(Loop))
            Condition = For->getCond();
          Ends = (Condition && Condition == Child) || Exit != nullptr;
          return false;
        }
        if (!Exit) {
          if (const auto *If = dyn_cast<IfStmt>(Parent)) {
            if (If->getCond() != Child || If->getElse() ||
                !exitOf(If->getThen()))
              return false;
            Exit = If;
          } else if (!isa<Expr>(Parent)) {
            return false; // the value is not a branch's condition
          }
        } else if (utils::isLoop(Parent) || isa<SwitchStmt>(Parent)) {
          // A `break` there leaves the inner loop or switch, not \p Loop.
          if (isa<BreakStmt>(exitOf(Exit->getThen())))
            return false;
        }
        return true;
      });
  return Ends;
}

bool isWaitWithPurpose(const HostSync &Sync, const StepPath &Path,
                       const utils::UserCodeParents &Parents) {
  if (Sync.Kind == SyncKind::Synchronize)
    return measuresLatency(Sync.Operation, Parents);
  if (Sync.Kind == SyncKind::CopyToHost)
    return handsResultToHost(Sync.Operation, Parents);
  if (Sync.Kind == SyncKind::ReadScalar || Sync.Kind == SyncKind::HostBool)
    return Path.Calls.empty() &&
           endsLoopEarly(Sync.Operation, Path.StepLoop, Parents);
  return false;
}

} // namespace clang::tidy::libtorch::analysis
