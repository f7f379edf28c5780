//===--- UpdateBlocks.cpp - Periodic blocks that run the update -----------===//
//
// Part of libtorch-tidy. SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

#include "analysis/steps/UpdateBlocks.h"
#include "analysis/steps/EvaluationFacts.h"
#include "utils/AstWalk.h"
#include "utils/CallingContexts.h"
#include "clang/AST/RecursiveASTVisitor.h"

namespace clang::tidy::libtorch::analysis {

namespace {

/// \p Block reaches a parameter update, and no training loop of its own
/// holds it: one run of the block is one training step.
bool runsOneUpdate(const Stmt *Block, TrainingLoopModel &Loops) {
  struct Visitor : RecursiveASTVisitor<Visitor> {
    TrainingLoopModel &Loops;
    bool TrainingLoop = false;
    explicit Visitor(TrainingLoopModel &Loops) : Loops(Loops) {}
    bool VisitStmt(Stmt *S) {
      if (utils::isLoop(S) && Loops.isTrainingLoop(S))
        TrainingLoop = true;
      return !TrainingLoop;
    }
  } V(Loops);
  V.TraverseStmt(const_cast<Stmt *>(Block));
  return !V.TrainingLoop && bodyFacts(Block, Loops).Trains;
}

std::optional<StepPath> walkToUpdateBlock(const Stmt *S, unsigned Depth,
                                          TrainingLoopModel &Loops,
                                          const IfStmt *&Guard) {
  const utils::UserCodeParents &Parents = Loops.parents();
  std::optional<StepPath> Found;
  // A call of a function of this TU reaches the block the same way; a
  // recursive call is walked again until the bound.
  utils::CallingContexts<TrainingLoopModel> Callers(
      Loops, CallDepth::TrainingStep, utils::Recursion::Followed);
  utils::forEachAncestor(
      DynTypedNode::create(*S), Parents,
      [&](const DynTypedNode &Parent, const DynTypedNode &Node) {
        if (const auto *Function = Parent.get<FunctionDecl>()) {
          // Not in this function: one of its calls may be in the block.
          Callers.anyCaller(
              Function, Depth, [&](const CallExpr *Call, unsigned Deeper) {
                Found = walkToUpdateBlock(Call, Deeper, Loops, Guard);
                if (Found)
                  Found->Calls.push_back(Call);
                return Found.has_value();
              });
          return false;
        }
        if (Parent.get<Decl>()) // `auto batch = buffer.sample(64);`
          return true;
        const Stmt *P = Parent.get<Stmt>();
        // A loop or lambda of its own runs the statement some other number
        // of times than the block around it.
        if (!P || isa<LambdaExpr>(P) || utils::isLoop(P))
          return false;
        if (const auto *Block = dyn_cast<CompoundStmt>(P);
            Block && Node.get<Stmt>() &&
            Loops.isSkippedPeriodically(*Block, Node.get<Stmt>()))
          return false; // `if (t % 4 != 0) continue;`: not a block here
        if (const auto *If = dyn_cast<IfStmt>(P);
            If && Node.get<Stmt>() == If->getThen() &&
            Loops.isPeriodicCondition(If->getCond())) {
          if (!runsOneUpdate(If->getThen(), Loops))
            return false;
          const Stmt *Body = nullptr;
          bool InLambda = false;
          auto Around = enclosingLoops(If, Parents, Body, InLambda);
          if (Around.empty() || !Loops.isTrainingLoop(Around.front()))
            return false;
          Guard = If;
          Found = StepPath();
          Found->StepLoop = Around.front();
          return false;
        }
        return true;
      });
  return Found;
}

} // namespace

std::optional<StepPath> updateBlockPath(const Stmt *S, TrainingLoopModel &Loops,
                                        const IfStmt *&Guard) {
  Guard = nullptr;
  // The walk adds each call after the calls above it: outermost first.
  return walkToUpdateBlock(S, 0, Loops, Guard);
}

} // namespace clang::tidy::libtorch::analysis
