//===--- UpdateBlocks.cpp - Periodic blocks that run the update -----------===//
//
// Part of libtorch-tidy. SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

#include "UpdateBlocks.h"
#include "EvaluationFacts.h"
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
      if (TrainingLoopModel::isLoop(S) && Loops.isTrainingLoop(S))
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
  const UserCodeParents &Parents = Loops.parents();
  DynTypedNode Node = DynTypedNode::create(*S);
  while (true) {
    auto Up = Parents.get(Node);
    if (Up.empty())
      return std::nullopt;
    const DynTypedNode Parent = Up[0];
    if (const auto *Function = Parent.get<FunctionDecl>()) {
      // Not in this function: one of its calls may be in the block.
      if (Depth >= TrainingLoopModel::MaxCallDepth)
        return std::nullopt;
      for (const CallExpr *Call :
           Loops.callSitesOf(Function->getCanonicalDecl()))
        if (std::optional<StepPath> Path =
                walkToUpdateBlock(Call, Depth + 1, Loops, Guard)) {
          Path->Calls.push_back(Call);
          return Path;
        }
      return std::nullopt;
    }
    if (Parent.get<Decl>()) { // `auto batch = buffer.sample(64);`
      Node = Parent;
      continue;
    }
    const Stmt *P = Parent.get<Stmt>();
    // A loop or lambda of its own runs the statement some other number of
    // times than the block around it.
    if (!P || isa<LambdaExpr>(P) || TrainingLoopModel::isLoop(P))
      return std::nullopt;
    if (const auto *Block = dyn_cast<CompoundStmt>(P);
        Block && Node.get<Stmt>() &&
        Loops.isSkippedPeriodically(*Block, Node.get<Stmt>()))
      return std::nullopt; // `if (t % 4 != 0) continue;`: not a block here
    if (const auto *If = dyn_cast<IfStmt>(P);
        If && Node.get<Stmt>() == If->getThen() &&
        Loops.isPeriodicCondition(If->getCond())) {
      if (!runsOneUpdate(If->getThen(), Loops))
        return std::nullopt;
      const Stmt *Body = nullptr;
      bool InLambda = false;
      auto Around = enclosingLoops(If, Parents, Body, InLambda);
      if (Around.empty() || !Loops.isTrainingLoop(Around.front()))
        return std::nullopt;
      Guard = If;
      StepPath Path;
      Path.StepLoop = Around.front();
      return Path;
    }
    Node = Parent;
  }
}

} // namespace

std::optional<StepPath> updateBlockPath(const Stmt *S, TrainingLoopModel &Loops,
                                        const IfStmt *&Guard) {
  Guard = nullptr;
  // The walk adds each call after the calls above it: outermost first.
  return walkToUpdateBlock(S, 0, Loops, Guard);
}

} // namespace clang::tidy::libtorch::analysis
