//===--- CallerPaths.cpp - Loops that run a function, through calls -------===//
//
// Part of libtorch-tidy. SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

#include "CallerPaths.h"
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
  const UserCodeParents &Parents = Loops.parents();
  DynTypedNode Child = DynTypedNode::create(*S);
  while (true) {
    auto Above = Parents.get(Child);
    if (Above.empty())
      return std::nullopt;
    const DynTypedNode &Parent = Above[0];
    const auto *ChildStmt = Child.get<Stmt>();
    if (const auto *If = Parent.get<IfStmt>()) {
      // A periodic guard on the way: this chain runs every N iterations.
      if (ChildStmt && ChildStmt == If->getThen() &&
          (Loops.isPeriodicCondition(If->getCond()) ||
           Loops.isInGuardMacro(If->getBeginLoc())))
        return std::nullopt;
    } else if (const auto *Block = Parent.get<CompoundStmt>()) {
      if (ChildStmt && Loops.isSkippedPeriodically(*Block, ChildStmt))
        return std::nullopt;
    } else if (const auto *Loop = Parent.get<Stmt>();
               Loop && TrainingLoopModel::isLoop(Loop)) {
      if (ChildStmt && utils::runsPerIteration(Loop, ChildStmt) &&
          IsRepeatedLoop(Loop))
        return StepPath{Loop, {}};
    } else if (const auto *Lambda = Parent.get<LambdaExpr>()) {
      // A lambda stored before the loop and called in it runs where it is
      // called; one written in the loop (and called there or handed to an
      // algorithm) is found by walking on.
      const CXXMethodDecl *Operator = Lambda->getCallOperator();
      if (std::optional<StepPath> Path = viaCallers(Operator, Depth, CutShort))
        return Path;
      // A whole step that nothing here calls (a callback handed to other
      // code): a step of its own, unless a loop around it runs it.
      if (Entries == StepEntries::Accepted && Loops.isStepEntry(Operator)) {
        if (std::optional<StepPath> Path = walk(Lambda, Depth, CutShort))
          return Path;
        return StepPath{nullptr, {}, Operator};
      }
    } else if (const auto *Function = Parent.get<FunctionDecl>()) {
      if (const auto *Method = dyn_cast<CXXMethodDecl>(Function);
          !Method || !Method->getParent()->isLambda())
        return viaCallers(Function, Depth, CutShort);
      // A lambda's call operator: walk on to the LambdaExpr.
    }
    Child = Parent;
  }
}

std::optional<StepPath> CallerPaths::viaCallers(const FunctionDecl *Callable,
                                                unsigned Depth,
                                                bool &CutShort) {
  if (!Callable)
    return std::nullopt;
  if (Depth >= MaxDepth) {
    CutShort = true;
    return std::nullopt;
  }
  const FunctionDecl *Key = Callable->getCanonicalDecl();
  auto Found = Known.find(Key);
  if (Found != Known.end()) {
    if (!Found->second)
      return std::nullopt;
    // A chain found from another start may be too long from this one.
    if (Found->second->Calls.size() + Depth > MaxDepth) {
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
    if ((Result = walk(Site, Depth + 1, Short))) {
      Result->Calls.push_back(Site);
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
