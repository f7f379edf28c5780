//===--- TrainingCode.cpp - Functions that train --------------------------===//
//
// Part of libtorch-tidy. SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

#include "TrainingCode.h"
#include "clang/ASTMatchers/ASTMatchFinder.h"
#include "llvm/ADT/SmallPtrSet.h"

using namespace clang::ast_matchers;

namespace clang::tidy::libtorch::analysis {

namespace {

/// Walks the calls from and to one function, each function once.
class TrainingReach {
public:
  TrainingReach(ASTContext &Context, TrainingLoopModel &Loops)
      : Context(Context), Loops(Loops) {}

  bool trains(const FunctionDecl *Function) {
    return holdsTrainingLoop(Function, 0) ||
           calledFromTrainingLoop(Function, 0);
  }

private:
  static constexpr unsigned MaxDepth = TrainingLoopModel::MaxCallDepth;

  bool holdsTrainingLoop(const FunctionDecl *Function, unsigned Depth) {
    if (!Function || Depth > MaxDepth)
      return false;
    const FunctionDecl *Definition = nullptr;
    if (!Function->hasBody(Definition) || !Definition->getBody())
      return false;
    if (!Visited.insert(Definition).second)
      return false; // recursion
    const Stmt *Body = Definition->getBody();
    for (const BoundNodes &Loop :
         match(findAll(stmt(anyOf(forStmt(), cxxForRangeStmt(), whileStmt(),
                                  doStmt()))
                           .bind("loop")),
               *Body, Context))
      if (Loops.isTrainingLoop(Loop.getNodeAs<Stmt>("loop")))
        return true;
    for (const BoundNodes &Call :
         match(findAll(callExpr().bind("call")), *Body, Context)) {
      const FunctionDecl *Callee =
          Call.getNodeAs<CallExpr>("call")->getDirectCallee();
      // LibTorch's own functions hold no user training loop.
      if (Callee &&
          !Context.getSourceManager().isInSystemHeader(Callee->getLocation()) &&
          holdsTrainingLoop(Callee, Depth + 1))
        return true;
    }
    return false;
  }

  bool calledFromTrainingLoop(const FunctionDecl *Function, unsigned Depth) {
    if (!Function || Depth >= MaxDepth)
      return false;
    for (const CallExpr *Site :
         Loops.callSitesOf(Function->getCanonicalDecl())) {
      if (Loops.isInsideTrainingLoop(Site))
        return true;
      if (calledFromTrainingLoop(enclosingFunction(Site, Loops.parents()),
                                 Depth + 1))
        return true;
    }
    return false;
  }

  ASTContext &Context;
  TrainingLoopModel &Loops;
  llvm::SmallPtrSet<const FunctionDecl *, 8> Visited;
};

} // namespace

bool isTrainingCode(const FunctionDecl *Function, ASTContext &Context,
                    TrainingLoopModel &Loops) {
  return TrainingReach(Context, Loops).trains(Function);
}

} // namespace clang::tidy::libtorch::analysis
