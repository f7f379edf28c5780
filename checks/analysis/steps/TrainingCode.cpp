//===--- TrainingCode.cpp - Functions that train --------------------------===//
//
// Part of libtorch-tidy. SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

#include "analysis/steps/TrainingCode.h"
#include "utils/CallingContexts.h"
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
  bool holdsTrainingLoop(const FunctionDecl *Function, unsigned Depth) {
    if (!Function || Depth > CallDepth::TrainingStep)
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
    return Callers.anyCaller(
        Function, Depth, [this](const CallExpr *Site, unsigned Deeper) {
          return Loops.isInsideTrainingLoop(Site) ||
                 calledFromTrainingLoop(
                     utils::enclosingFunction(Site, Loops.parents()), Deeper);
        });
  }

  ASTContext &Context;
  TrainingLoopModel &Loops;
  llvm::SmallPtrSet<const FunctionDecl *, 8> Visited;
  /// Every chain up to the bound, a recursive one too: the walk keeps no
  /// state between calls.
  utils::CallingContexts<TrainingLoopModel> Callers{
      Loops, CallDepth::TrainingStep, utils::Recursion::Followed};
};

} // namespace

bool isTrainingCode(const FunctionDecl *Function, ASTContext &Context,
                    TrainingLoopModel &Loops) {
  return TrainingReach(Context, Loops).trains(Function);
}

} // namespace clang::tidy::libtorch::analysis
