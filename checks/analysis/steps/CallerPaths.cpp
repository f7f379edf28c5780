//===--- CallerPaths.cpp - Loops that run a function, through calls -------===//
//
// Part of libtorch-tidy. SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

#include "analysis/steps/CallerPaths.h"
#include "utils/AstWalk.h"
#include "clang/AST/ExprCXX.h"
#include "clang/AST/StmtCXX.h"

namespace clang::tidy::libtorch::analysis {

CallerPaths::CallerPaths(TrainingLoopModel &Loops, LoopFilter IsRepeatedLoop,
                         StepEntries Entries)
    : Loops(Loops), IsRepeatedLoop(std::move(IsRepeatedLoop)),
      Entries(Entries) {}

std::optional<StepPath> CallerPaths::perIteration(const Stmt *S) {
  bool CutShort = false;
  return walk(S, 0, CutShort);
}

std::optional<StepPath>
CallerPaths::callPerIteration(const FunctionDecl *Callable) {
  bool CutShort = false;
  return viaCallers(Callable, 0, CutShort);
}

std::optional<StepPath> CallerPaths::walk(const Stmt *S, unsigned Depth,
                                          bool &CutShort) {
  if (!S || Loops.isInGuardMacro(S->getBeginLoc()))
    return std::nullopt;
  std::optional<StepPath> Result;
  utils::forEachAncestor(
      DynTypedNode::create(*S), Loops.parents(),
      [&](const DynTypedNode &Parent, const DynTypedNode &Child) {
        const auto *ChildStmt = Child.get<Stmt>();
        if (const auto *If = Parent.get<IfStmt>())
          // A periodic guard on the way: this chain runs every N
          // iterations.
          return !(ChildStmt && ChildStmt == If->getThen() &&
                   (Loops.isPeriodicCondition(If->getCond()) ||
                    Loops.isInGuardMacro(If->getBeginLoc())));
        if (const auto *Block = Parent.get<CompoundStmt>())
          return !(ChildStmt && Loops.isSkippedPeriodically(*Block, ChildStmt));
        if (const auto *Loop = Parent.get<Stmt>();
            Loop && utils::isLoop(Loop)) {
          if (ChildStmt && utils::runsPerIteration(Loop, ChildStmt) &&
              IsRepeatedLoop(Loop)) {
            Result = StepPath{Loop, {}};
            Result->LoopUpdate = Loops.updateElsewhere(Loop);
            return false;
          }
          return true;
        }
        if (const auto *Lambda = Parent.get<LambdaExpr>()) {
          // A lambda stored before the loop and called in it runs where it
          // is called; one written in the loop (and called there or handed
          // to an algorithm) is found by walking on.
          const CXXMethodDecl *Operator = Lambda->getCallOperator();
          Result = viaCallers(Operator, Depth, CutShort);
          if (Result)
            return false;
          // A whole step that nothing here calls (a callback handed to
          // other code): a step of its own, unless a loop around it runs
          // it.
          if (Entries == StepEntries::Accepted && Loops.isStepEntry(Operator)) {
            Result = walk(Lambda, Depth, CutShort);
            if (!Result)
              Result = StepPath{nullptr, {}, Operator};
            return false;
          }
          return true;
        }
        if (const auto *Function = Parent.get<FunctionDecl>()) {
          // A lambda's call operator: walk on to the LambdaExpr.
          if (const auto *Method = dyn_cast<CXXMethodDecl>(Function);
              Method && Method->getParent()->isLambda())
            return true;
          Result = viaCallers(Function, Depth, CutShort);
          return false;
        }
        return true;
      });
  return Result;
}

std::optional<StepPath> CallerPaths::viaCallers(const FunctionDecl *Callable,
                                                unsigned Depth,
                                                bool &CutShort) {
  if (!Callable)
    return std::nullopt;
  if (Depth >= CallDepth::CallerChain) {
    CutShort = true;
    return std::nullopt;
  }
  const FunctionDecl *Key = Callable->getCanonicalDecl();
  auto Found = Known.find(Key);
  if (Found != Known.end()) {
    if (!Found->second)
      return std::nullopt;
    // A chain found from another start may be too long from this one.
    if (Found->second->Calls.size() + Depth > CallDepth::CallerChain) {
      CutShort = true;
      return std::nullopt;
    }
    return Found->second;
  }
  // Recursion: the chain through this call is being walked already.
  if (!InProgress.insert(Key).second) {
    CutShort = true;
    return std::nullopt;
  }
  bool Short = false;
  std::optional<StepPath> Result;
  for (const CallExpr *Site : Loops.callSitesOf(Callable)) {
    Result = walk(Site, Depth + 1, Short);
    if (Result) {
      Result->Calls.push_back(Site);
      if (Loops.dispatchesTo(Site, Callable))
        Result->Dispatches.push_back({Site, cast<CXXMethodDecl>(Callable)});
      break;
    }
  }
  InProgress.erase(Key);
  // No caller here: a training-step function is called per step by code
  // this TU does not hold. A lambda is judged where it is written (walk).
  const auto *Method = dyn_cast<CXXMethodDecl>(Callable);
  if (!Result && Entries == StepEntries::Accepted &&
      !(Method && Method->getParent()->isLambda()) &&
      Loops.isStepEntry(Callable))
    Result = StepPath{nullptr, {}, Callable};
  // A failure cut short may succeed from a shallower start: not kept.
  if (Result || !Short)
    Known[Key] = Result;
  CutShort |= Short;
  return Result;
}

BatchCallPaths::BatchCallPaths(BatchScope &Scope, TrainingLoopModel &Loops,
                               StepEntries Entries)
    : Scope(Scope),
      Callers(
          Loops,
          [&Scope, &Loops](const Stmt *Loop) {
            return Loops.isStepLoop(Loop) || Scope.isEvaluationLoop(Loop);
          },
          Entries) {}

std::optional<StepPath> BatchCallPaths::perBatch(const Stmt *S) {
  if (!S || Scope.isInDataPipeline(S))
    return std::nullopt;
  return outsideDataPipeline(Callers.perIteration(S));
}

} // namespace clang::tidy::libtorch::analysis
