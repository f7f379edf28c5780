//===--- TrainingLoopModel.cpp - Where training steps happen --------------===//
//
// Part of libtorch-tidy. SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

#include "analysis/steps/TrainingLoopModel.h"
#include "analysis/vocabulary/LibTorchCalls.h"
#include "analysis/vocabulary/LibTorchNames.h"
#include "utils/AstWalk.h"
#include "utils/CallingContexts.h"
#include "clang/AST/DeclTemplate.h"
#include "clang/AST/ExprCXX.h"
#include "clang/AST/RecursiveASTVisitor.h"
#include "clang/AST/StmtCXX.h"
#include "clang/Basic/SourceManager.h"

namespace clang::tidy::libtorch::analysis {

namespace {

/// \p Record is an optimizer or holds one as a member.
bool holdsOptimizer(const CXXRecordDecl *Record) {
  if (!Record || !Record->hasDefinition())
    return false;
  if (isSameOrDerivedFrom(Record, names::Optimizer))
    return true;
  return llvm::any_of(Record->fields(), [](const FieldDecl *Field) {
    const CXXRecordDecl *Type = Field->getType()->getAsCXXRecordDecl();
    return Type && Type->hasDefinition() &&
           isSameOrDerivedFrom(Type, names::Optimizer);
  });
}

/// \p S builds an optimizer, or an object that holds one (`new Trainer`,
/// `std::make_unique<Trainer>(...)`), outside the lambdas written in it.
bool buildsOptimizer(const Stmt *S) {
  if (!S || isa<LambdaExpr>(S))
    return false;
  if (const auto *Construct = dyn_cast<CXXConstructExpr>(S))
    if (holdsOptimizer(Construct->getType()->getAsCXXRecordDecl()))
      return true;
  if (const auto *New = dyn_cast<CXXNewExpr>(S))
    if (holdsOptimizer(New->getAllocatedType()->getAsCXXRecordDecl()))
      return true;
  if (const auto *Call = dyn_cast<CallExpr>(S))
    if (const FunctionDecl *Callee = Call->getDirectCallee())
      if (const TemplateArgumentList *Args =
              Callee->getTemplateSpecializationArgs())
        for (const TemplateArgument &Arg : Args->asArray())
          if (Arg.getKind() == TemplateArgument::Type &&
              holdsOptimizer(Arg.getAsType()->getAsCXXRecordDecl()))
            return true;
  for (const Stmt *Child : S->children())
    if (buildsOptimizer(Child))
      return true;
  return false;
}

} // namespace

TrainingLoopModel::TrainingLoopModel(ASTContext &Context,
                                     const utils::UserCodeParents &Parents,
                                     llvm::ArrayRef<std::string> GuardMacros,
                                     SummaryAccess Summaries)
    : Context(Context), Parents(Parents), Summaries(std::move(Summaries)),
      CallSites(Context) {
  for (const std::string &Name : GuardMacros)
    this->GuardMacros.insert(Name);
}

unsigned TrainingLoopModel::updateDistance(const Stmt *S,
                                           bool SkipTrainingLoops,
                                           Update Kind) {
  if (!S)
    return Unreachable;
  unsigned Best = Unreachable;
  if (const auto *E = dyn_cast<Expr>(S)) {
    if (Kind == Update::Any        ? isParameterUpdateCall(E)
        : Kind == Update::Backward ? isBackwardCall(E)
                                   : isOptimizerStepCall(E))
      return 0;
    if (const auto *Call = dyn_cast<CallExpr>(E)) {
      unsigned ViaCall = functionUpdateDistance(Call->getDirectCallee(),
                                                SkipTrainingLoops, Kind);
      if (ViaCall < Unreachable)
        Best = ViaCall + 1;
      else
        Best = distanceElsewhere(*Call, SkipTrainingLoops, Kind);
    }
  }
  // A lambda's body runs where it is called, not where it is written.
  if (isa<LambdaExpr>(S))
    return Best;
  if (SkipTrainingLoops && utils::isLoop(S) && isTrainingLoop(S))
    return Best;
  for (const Stmt *Child : S->children())
    Best = std::min(Best, updateDistance(Child, SkipTrainingLoops, Kind));
  return Best;
}

unsigned TrainingLoopModel::functionUpdateDistance(const FunctionDecl *Function,
                                                   bool SkipTrainingLoops,
                                                   Update Kind) {
  if (!Function)
    return Unreachable;
  // LibTorch's own functions are not training code of the user's.
  const FunctionDecl *Definition = nullptr;
  if (!Function->hasBody(Definition) ||
      !utils::isUserCode(Definition, Context.getSourceManager()))
    return Unreachable;
  auto &Cache =
      FunctionDistance[static_cast<unsigned>(Kind)][SkipTrainingLoops ? 1 : 0];
  auto Known = Cache.find(Definition);
  if (Known != Cache.end())
    return Known->second;
  Cache[Definition] = Unreachable; // breaks recursion
  unsigned Distance =
      updateDistance(Definition->getBody(), SkipTrainingLoops, Kind);
  // Past the depth we follow, a function counts as not training.
  if (Distance >= CallDepth::TrainingStep)
    Distance = Unreachable;
  Cache[Definition] = Distance;
  return Distance;
}

bool TrainingLoopModel::iterationReachesUpdate(const Stmt *Loop,
                                               bool SkipTrainingLoops) {
  for (const Stmt *Child : Loop->children())
    if (Child && utils::runsPerIteration(Loop, Child) &&
        updateDistance(Child, SkipTrainingLoops) <= CallDepth::TrainingStep)
      return true;
  return false;
}

bool TrainingLoopModel::isTrainingLoop(const Stmt *Loop) {
  if (!utils::isLoop(Loop))
    return false;
  auto Known = TrainingLoops.find(Loop);
  if (Known != TrainingLoops.end())
    return Known->second;
  TrainingLoops[Loop] = false; // breaks recursion
  bool Result = iterationReachesUpdate(Loop, /*SkipTrainingLoops=*/false);
  TrainingLoops[Loop] = Result;
  return Result;
}

bool TrainingLoopModel::isStepLoop(const Stmt *Loop) {
  if (!isTrainingLoop(Loop))
    return false;
  auto Known = StepLoops.find(Loop);
  if (Known != StepLoops.end())
    return Known->second;
  bool Result = iterationReachesUpdate(Loop, /*SkipTrainingLoops=*/true);
  StepLoops[Loop] = Result;
  return Result;
}

bool TrainingLoopModel::isStepFunction(const FunctionDecl *Function) {
  return functionUpdateDistance(Function, /*SkipTrainingLoops=*/true) <
         CallDepth::TrainingStep;
}

bool TrainingLoopModel::isStepEntry(const FunctionDecl *Function) {
  if (!Function || Function->isMain())
    return false;
  // Both halves of a step, outside any training loop of its own: a function
  // that only runs backward() may be one micro-batch of a window whose
  // step() is elsewhere, one that only steps may run every N batches.
  if (functionUpdateDistance(Function, /*SkipTrainingLoops=*/true,
                             Update::Backward) >= CallDepth::TrainingStep ||
      functionUpdateDistance(Function, /*SkipTrainingLoops=*/true,
                             Update::OptimizerStep) >= CallDepth::TrainingStep)
    return false;
  // Called in this TU: the walk through its callers decides (once from
  // main() is once, not per step).
  if (isCalledInUnit(Function))
    return false;
  // One that builds the optimizer (or what holds it) sets training up and
  // runs a first step once (`trainer_create()` with a warm-up step): a
  // step of its own would start from a new optimizer state on every call.
  const FunctionDecl *Definition = nullptr;
  return !(Function->hasBody(Definition) &&
           buildsOptimizer(Definition->getBody()));
}

bool TrainingLoopModel::isCalledInUnit(const FunctionDecl *Function) {
  if (!callSitesOf(Function).empty() || CallSites.isPatternCalled(Function))
    return true;
  // A call through a base class's virtual method may run this override.
  if (const auto *Method = dyn_cast<CXXMethodDecl>(Function))
    for (const CXXMethodDecl *Overridden : Method->overridden_methods())
      if (isCalledInUnit(Overridden))
        return true;
  return false;
}

bool TrainingLoopModel::isPerStep(const StepPath &Path) {
  return Path.StepFunction || isStepLoop(Path.StepLoop);
}

llvm::ArrayRef<const CallExpr *>
TrainingLoopModel::callSitesOf(const FunctionDecl *Function) {
  return CallSites.sitesOf(Function);
}

bool TrainingLoopModel::dispatchesTo(const CallExpr *Site,
                                     const FunctionDecl *Override) {
  return CallSites.dispatchesTo(Site, Override);
}

std::optional<StepPath> TrainingLoopModel::perStep(const Stmt *S,
                                                   StepEntries Entries) {
  return perIteration(
      S, 0, [this](const Stmt *Loop) { return isStepLoop(Loop); }, Entries);
}

std::optional<StepPath> TrainingLoopModel::perIteration(
    const Stmt *S, llvm::function_ref<bool(const Stmt *Loop)> IsRepeatedLoop) {
  return perIteration(S, 0, IsRepeatedLoop, StepEntries::Ignored);
}

std::optional<StepPath>
TrainingLoopModel::viaCallers(const FunctionDecl *Callable, unsigned Depth,
                              LoopFilter IsRepeatedLoop, StepEntries Entries) {
  // Every chain is walked again for every statement (no memo), a recursive
  // call too, until the bound.
  utils::CallingContexts<TrainingLoopModel> Callers(
      *this, CallDepth::TrainingStep, utils::Recursion::Followed);
  if (!Callable || !Callers.canFollow(Depth))
    return std::nullopt;
  std::optional<StepPath> Path;
  if (Callers.anyCaller(
          Callable, Depth, [&](const CallExpr *Site, unsigned Deeper) {
            Path = perIteration(Site, Deeper, IsRepeatedLoop, Entries);
            if (Path) {
              Path->Calls.push_back(Site);
              if (dispatchesTo(Site, Callable))
                Path->Dispatches.push_back(
                    {Site, cast<CXXMethodDecl>(Callable)});
            }
            return Path.has_value();
          }))
    return Path;
  // A lambda is judged by its caller (see perIteration).
  const auto *Method = dyn_cast<CXXMethodDecl>(Callable);
  if (Entries == StepEntries::Accepted &&
      !(Method && Method->getParent()->isLambda()) && isStepEntry(Callable))
    return StepPath{nullptr, {}, Callable};
  return std::nullopt;
}

std::optional<StepPath>
TrainingLoopModel::perIteration(const Stmt *S, unsigned Depth,
                                LoopFilter IsRepeatedLoop,
                                StepEntries Entries) {
  if (!S || isInGuardMacro(S->getBeginLoc()))
    return std::nullopt;
  std::optional<StepPath> Result;
  // A lambda that runs a whole step and that nothing in this TU calls (a
  // callback handed to other code), if walking on finds no loop.
  const FunctionDecl *StepLambda = nullptr;
  bool Done = false;
  utils::forEachAncestor(
      DynTypedNode::create(*S), Parents,
      [&](const DynTypedNode &Parent, const DynTypedNode &Child) {
        const auto *ChildStmt = Child.get<Stmt>();
        if (const auto *If = Parent.get<IfStmt>()) {
          if (ChildStmt && ChildStmt == If->getThen() &&
              (isPeriodicCondition(If->getCond()) ||
               isInGuardMacro(If->getBeginLoc()))) {
            Done = true;
            return false;
          }
          return true;
        }
        if (const auto *Block = Parent.get<CompoundStmt>()) {
          if (ChildStmt && isSkippedPeriodically(*Block, ChildStmt)) {
            Done = true;
            return false;
          }
          return true;
        }
        if (const auto *Loop = Parent.get<Stmt>();
            Loop && utils::isLoop(Loop)) {
          if (ChildStmt && utils::runsPerIteration(Loop, ChildStmt) &&
              IsRepeatedLoop(Loop)) {
            Result = StepPath{Loop, {}};
            Result->LoopUpdate = updateElsewhere(Loop);
            Done = true;
            return false;
          }
          return true;
        }
        if (const auto *Lambda = Parent.get<LambdaExpr>()) {
          // A lambda defined before the loop and called in it runs per
          // step; one written inside the loop is found by walking on.
          const CXXMethodDecl *Operator = Lambda->getCallOperator();
          Result = viaCallers(Operator, Depth, IsRepeatedLoop, Entries);
          if (Result) {
            Done = true;
            return false;
          }
          if (!StepLambda && Entries == StepEntries::Accepted &&
              isStepEntry(Operator))
            StepLambda = Operator;
          return true;
        }
        if (const auto *Function = Parent.get<FunctionDecl>()) {
          if (const auto *Method = dyn_cast<CXXMethodDecl>(Function);
              Method && Method->getParent()->isLambda())
            return true; // walk on to the LambdaExpr
          Result = viaCallers(Function, Depth, IsRepeatedLoop, Entries);
          Done = true;
          return false;
        }
        return true;
      });
  (void)Done;
  if (!Result && StepLambda)
    Result = StepPath{nullptr, {}, StepLambda};
  return Result;
}

bool TrainingLoopModel::isInsideTrainingLoop(const Stmt *S) {
  // Up to the function (or a lambda's declaration), not past it.
  return utils::forEachStmtAncestor(
      S, Parents, [this](const Stmt *Parent, const Stmt *) {
        return !(utils::isLoop(Parent) && isTrainingLoop(Parent));
      });
}

} // namespace clang::tidy::libtorch::analysis
