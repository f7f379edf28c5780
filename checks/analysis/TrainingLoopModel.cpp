//===--- TrainingLoopModel.cpp - Where training steps happen --------------===//
//
// Part of libtorch-tidy. SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

#include "TrainingLoopModel.h"
#include "LibTorchCalls.h"
#include "utils/AstWalk.h"
#include "clang/AST/ExprCXX.h"
#include "clang/AST/RecursiveASTVisitor.h"
#include "clang/AST/StmtCXX.h"
#include "clang/Basic/SourceManager.h"
#include "clang/Lex/Lexer.h"

namespace clang::tidy::libtorch::analysis {

namespace {

const Expr *stripNoise(const Expr *E) {
  return utils::stripWrappers(E, utils::ImplicitWrappers |
                                     utils::SubstTemplateParam);
}

bool isIntegerValue(const Expr *E) {
  return E && E->getType()->isIntegralOrEnumerationType() &&
         !E->getType()->isBooleanType();
}

/// A modulo of integers somewhere in \p E (`i % N`, `(step + 1) % N`).
bool containsIntegerModulo(const Expr *E) {
  E = stripNoise(E);
  if (!E)
    return false;
  if (const auto *Binary = dyn_cast<BinaryOperator>(E)) {
    if (Binary->getOpcode() == BO_Rem &&
        isIntegerValue(Binary->getLHS()->IgnoreImpCasts())) {
      // `x % 1` is always 0: it runs every step.
      if (const auto *Literal =
              dyn_cast<IntegerLiteral>(stripNoise(Binary->getRHS())))
        return Literal->getValue().ugt(1);
      return true;
    }
  }
  // An overloaded % on a tensor is a device value, not a counter.
  if (isa<CXXOperatorCallExpr>(E))
    return false;
  for (const Stmt *Child : E->children())
    if (const auto *ChildExpr = dyn_cast_or_null<Expr>(Child))
      if (containsIntegerModulo(ChildExpr))
        return true;
  return false;
}

bool containsModulo(const Stmt *S) {
  if (const auto *Binary = dyn_cast_or_null<BinaryOperator>(S))
    if (Binary->getOpcode() == BO_Rem)
      return true;
  for (const Stmt *Child :
       S ? S->children()
         : Stmt::const_child_range(Stmt::const_child_iterator(),
                                   Stmt::const_child_iterator()))
    if (containsModulo(Child))
      return true;
  return false;
}

/// `verbose`, `options.log`, `this->debug_`: a plain bool, not a tensor.
bool isPlainBoolFlag(const Expr *E) {
  E = stripNoise(E);
  if (!E || !E->getType()->isBooleanType())
    return false;
  return isa<DeclRefExpr>(E) || isa<MemberExpr>(E);
}

/// Walks the ancestors of a node; stops when \p Visit returns false.
template <typename Fn>
void forEachAncestor(const UserCodeParents &Index, DynTypedNode Node,
                     Fn Visit) {
  while (true) {
    auto Parents = Index.get(Node);
    if (Parents.empty())
      return;
    DynTypedNode Parent = Parents[0];
    if (!Visit(Parent, Node))
      return;
    Node = Parent;
  }
}

} // namespace

TrainingLoopModel::TrainingLoopModel(ASTContext &Context,
                                     const UserCodeParents &Parents,
                                     llvm::ArrayRef<std::string> GuardMacros)
    : Context(Context), Parents(Parents) {
  for (const std::string &Name : GuardMacros)
    this->GuardMacros.insert(Name);
}

bool TrainingLoopModel::isLoop(const Stmt *S) {
  return S && isa<ForStmt, CXXForRangeStmt, WhileStmt, DoStmt>(S);
}

unsigned TrainingLoopModel::updateDistance(const Stmt *S,
                                           bool SkipTrainingLoops) {
  if (!S)
    return Unreachable;
  unsigned Best = Unreachable;
  if (const auto *E = dyn_cast<Expr>(S)) {
    if (isParameterUpdateCall(E))
      return 0;
    if (const auto *Call = dyn_cast<CallExpr>(E)) {
      unsigned ViaCall =
          functionUpdateDistance(Call->getDirectCallee(), SkipTrainingLoops);
      if (ViaCall < Unreachable)
        Best = ViaCall + 1;
    }
  }
  // A lambda's body runs where it is called, not where it is written.
  if (isa<LambdaExpr>(S))
    return Best;
  if (SkipTrainingLoops && isLoop(S) && isTrainingLoop(S))
    return Best;
  for (const Stmt *Child : S->children())
    Best = std::min(Best, updateDistance(Child, SkipTrainingLoops));
  return Best;
}

unsigned TrainingLoopModel::functionUpdateDistance(const FunctionDecl *Function,
                                                   bool SkipTrainingLoops) {
  if (!Function)
    return Unreachable;
  // LibTorch's own functions are not training code of the user's.
  const FunctionDecl *Definition = nullptr;
  if (!Function->hasBody(Definition) ||
      !isUserCode(Definition, Context.getSourceManager()))
    return Unreachable;
  auto &Cache = FunctionDistance[SkipTrainingLoops ? 1 : 0];
  auto Known = Cache.find(Definition);
  if (Known != Cache.end())
    return Known->second;
  Cache[Definition] = Unreachable; // breaks recursion
  unsigned Distance = updateDistance(Definition->getBody(), SkipTrainingLoops);
  // Past the depth we follow, a function counts as not training.
  if (Distance >= MaxCallDepth)
    Distance = Unreachable;
  Cache[Definition] = Distance;
  return Distance;
}

bool TrainingLoopModel::iterationReachesUpdate(const Stmt *Loop,
                                               bool SkipTrainingLoops) {
  for (const Stmt *Child : Loop->children())
    if (Child && utils::runsPerIteration(Loop, Child) &&
        updateDistance(Child, SkipTrainingLoops) <= MaxCallDepth)
      return true;
  return false;
}

bool TrainingLoopModel::isTrainingLoop(const Stmt *Loop) {
  if (!isLoop(Loop))
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
         MaxCallDepth;
}

bool TrainingLoopModel::isPeriodicCondition(const Expr *Condition) const {
  const Expr *E = stripNoise(Condition);
  if (!E)
    return false;
  if (const auto *Unary = dyn_cast<UnaryOperator>(E))
    if (Unary->getOpcode() == UO_LNot)
      return isPeriodicCondition(Unary->getSubExpr());
  if (const auto *Binary = dyn_cast<BinaryOperator>(E)) {
    switch (Binary->getOpcode()) {
    case BO_LAnd:
    case BO_LOr:
      return isPeriodicCondition(Binary->getLHS()) ||
             isPeriodicCondition(Binary->getRHS());
    case BO_EQ:
      // `i == 0`, `step == last_step`: integers, not device values. A
      // modulo in it is judged as a modulo (`i % 1 == 0` is every step).
      if (!containsModulo(Binary) &&
          isIntegerValue(stripNoise(Binary->getLHS())) &&
          isIntegerValue(stripNoise(Binary->getRHS())))
        return true;
      [[fallthrough]];
    case BO_NE:
      return containsIntegerModulo(Binary->getLHS()) ||
             containsIntegerModulo(Binary->getRHS());
    case BO_Rem:
      return containsIntegerModulo(E);
    default:
      return false;
    }
  }
  return isPlainBoolFlag(E);
}

bool TrainingLoopModel::isSkippedPeriodically(const CompoundStmt &Block,
                                              const Stmt *Child) const {
  // `if (i % N != 0) continue;` before \p Child: what follows runs only when
  // the guard lets it through.
  for (const Stmt *Earlier : Block.body()) {
    if (Earlier == Child)
      return false;
    const auto *If = dyn_cast<IfStmt>(Earlier);
    if (!If || If->getElse() || !isPeriodicCondition(If->getCond()))
      continue;
    const Stmt *Then = If->getThen();
    if (const auto *Compound = dyn_cast<CompoundStmt>(Then))
      Then = Compound->body_empty() ? nullptr : Compound->body_back();
    if (isa_and_nonnull<ContinueStmt, BreakStmt, ReturnStmt>(Then))
      return true;
  }
  return false;
}

bool TrainingLoopModel::isInGuardMacro(SourceLocation Loc) const {
  if (GuardMacros.empty())
    return false;
  const SourceManager &SM = Context.getSourceManager();
  while (Loc.isMacroID()) {
    StringRef Name =
        Lexer::getImmediateMacroName(Loc, SM, Context.getLangOpts());
    if (GuardMacros.contains(Name))
      return true;
    Loc = SM.getImmediateMacroCallerLoc(Loc);
  }
  return false;
}

void TrainingLoopModel::indexCallSites() {
  CallSitesIndexed = true;
  struct Indexer : RecursiveASTVisitor<Indexer> {
    llvm::DenseMap<const FunctionDecl *, llvm::SmallVector<const CallExpr *, 2>>
        &Sites;
    explicit Indexer(decltype(Sites) Sites) : Sites(Sites) {}
    bool shouldVisitTemplateInstantiations() const { return true; }
    bool shouldVisitLambdaBodies() const { return true; }
    bool VisitCallExpr(CallExpr *Call) {
      if (const FunctionDecl *Callee = Call->getDirectCallee())
        Sites[Callee->getCanonicalDecl()].push_back(Call);
      return true;
    }
  } Visitor(CallSites);
  // Only user code: LibTorch's headers hold no calls of the user's functions.
  for (Decl *TopLevel : userTopLevelDecls(Context))
    Visitor.TraverseDecl(TopLevel);
}

llvm::ArrayRef<const CallExpr *>
TrainingLoopModel::callSitesOf(const FunctionDecl *Function) {
  if (!CallSitesIndexed)
    indexCallSites();
  auto Found = CallSites.find(Function->getCanonicalDecl());
  if (Found == CallSites.end())
    return {};
  return Found->second;
}

std::optional<StepPath> TrainingLoopModel::perStep(const Stmt *S) {
  return perIteration(S, 0,
                      [this](const Stmt *Loop) { return isStepLoop(Loop); });
}

std::optional<StepPath> TrainingLoopModel::perIteration(
    const Stmt *S, llvm::function_ref<bool(const Stmt *Loop)> IsRepeatedLoop) {
  return perIteration(S, 0, IsRepeatedLoop);
}

std::optional<StepPath>
TrainingLoopModel::viaCallers(const FunctionDecl *Callable, unsigned Depth,
                              LoopFilter IsRepeatedLoop) {
  if (!Callable || Depth >= MaxCallDepth)
    return std::nullopt;
  for (const CallExpr *Site : callSitesOf(Callable)) {
    if (std::optional<StepPath> Path =
            perIteration(Site, Depth + 1, IsRepeatedLoop)) {
      Path->Calls.push_back(Site);
      return Path;
    }
  }
  return std::nullopt;
}

std::optional<StepPath>
TrainingLoopModel::perIteration(const Stmt *S, unsigned Depth,
                                LoopFilter IsRepeatedLoop) {
  if (!S || isInGuardMacro(S->getBeginLoc()))
    return std::nullopt;
  std::optional<StepPath> Result;
  bool Done = false;
  forEachAncestor(
      Parents, DynTypedNode::create(*S),
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
        if (const auto *Loop = Parent.get<Stmt>(); Loop && isLoop(Loop)) {
          if (ChildStmt && utils::runsPerIteration(Loop, ChildStmt) &&
              IsRepeatedLoop(Loop)) {
            Result = StepPath{Loop, {}};
            Done = true;
            return false;
          }
          return true;
        }
        if (const auto *Lambda = Parent.get<LambdaExpr>()) {
          // A lambda defined before the loop and called in it runs per
          // step; one written inside the loop is found by walking on.
          if ((Result = viaCallers(Lambda->getCallOperator(), Depth,
                                   IsRepeatedLoop))) {
            Done = true;
            return false;
          }
          return true;
        }
        if (const auto *Function = Parent.get<FunctionDecl>()) {
          if (const auto *Method = dyn_cast<CXXMethodDecl>(Function);
              Method && Method->getParent()->isLambda())
            return true; // walk on to the LambdaExpr
          Result = viaCallers(Function, Depth, IsRepeatedLoop);
          Done = true;
          return false;
        }
        return true;
      });
  (void)Done;
  return Result;
}

bool TrainingLoopModel::isInsideTrainingLoop(const Stmt *S) {
  DynTypedNodeList Ancestors = Parents.get(*S);
  while (!Ancestors.empty()) {
    const Stmt *Parent = Ancestors[0].get<Stmt>();
    if (!Parent)
      return false; // reached the function (or a lambda's declaration)
    if (isLoop(Parent) && isTrainingLoop(Parent))
      return true;
    Ancestors = Parents.get(*Parent);
  }
  return false;
}

} // namespace clang::tidy::libtorch::analysis
