//===--- EvaluationFacts.cpp - What an evaluation loop's code does --------===//
//
// Part of libtorch-tidy. SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

#include "analysis/steps/EvaluationFacts.h"
#include "analysis/steps/OuterWrites.h"
#include "analysis/vocabulary/GradModeFacts.h"
#include "analysis/vocabulary/LibTorchCalls.h"
#include "analysis/vocabulary/LibTorchNames.h"
#include "clang-compat/ClangCompat.h"
#include "utils/AstWalk.h"
#include "utils/References.h"
#include "clang/AST/DeclTemplate.h"
#include "clang/AST/ExprCXX.h"
#include "clang/AST/RecursiveASTVisitor.h"
#include "clang/Basic/SourceManager.h"
#include "llvm/ADT/SmallPtrSet.h"

namespace clang::tidy::libtorch::analysis {

llvm::SmallVector<const Stmt *, 4>
enclosingLoops(const Stmt *S, const utils::UserCodeParents &UserParents,
               const Stmt *&Body, bool &InLambda) {
  llvm::SmallVector<const Stmt *, 4> Loops;
  Body = nullptr;
  InLambda = false;
  utils::forEachAncestor(
      DynTypedNode::create(*S), UserParents,
      [&](const DynTypedNode &Parent, const DynTypedNode &) {
        if (const auto *Lambda = Parent.get<LambdaExpr>()) {
          Body = Lambda->getBody();
          InLambda = true;
          return false;
        }
        if (const auto *Function = Parent.get<FunctionDecl>()) {
          Body = Function->getBody();
          return false;
        }
        if (const auto *Loop = Parent.get<Stmt>(); Loop && utils::isLoop(Loop))
          Loops.push_back(Loop);
        return true;
      });
  return Loops;
}

BodyFacts bodyFacts(const Stmt *Body, TrainingLoopModel &Loops,
                    unsigned Depth) {
  struct Visitor : RecursiveASTVisitor<Visitor> {
    TrainingLoopModel &Loops;
    unsigned Depth;
    BodyFacts Facts;
    Visitor(TrainingLoopModel &Loops, unsigned Depth)
        : Loops(Loops), Depth(Depth) {}
    bool VisitCallExpr(CallExpr *Call) {
      if (isParameterUpdateCall(Call)) {
        Facts.Trains = true;
        Facts.Updates.push_back(Call);
      }
      const FunctionDecl *Callee = Call->getDirectCallee();
      if (!Callee)
        return true;
      if (Callee->getQualifiedNameAsString() == names::SetGradEnabled + 2)
        Facts.SetsGradMode = true;
      if (const auto *Member = dyn_cast<CXXMemberCallExpr>(Call)) {
        const CXXMethodDecl *Method = Member->getMethodDecl();
        if (Method && Method->getIdentifier() &&
            (Method->getName() == "eval" || Method->getName() == "train") &&
            isSameOrDerivedFrom(Method->getParent(), names::Module))
          Facts.ModeCalls.push_back(Member);
      }
      // LibTorch's own inline functions never train.
      if (Callee->getASTContext().getSourceManager().isInSystemHeader(
              Callee->getLocation()))
        return true;
      const FunctionDecl *Definition = Callee->getDefinition();
      if (!Definition || !Definition->getBody()) {
        Facts.CallsUnseen = true;
      } else if (Depth < CallDepth::TrainingStep) {
        BodyFacts Called = bodyFacts(Definition->getBody(), Loops, Depth + 1);
        Facts.Trains |= Called.Trains || Called.MayTrain;
        Facts.CallsUnseen |= Called.CallsUnseen;
      }
      return true;
    }
    bool VisitStmt(Stmt *S) {
      if (utils::isLoop(S) && Loops.isTrainingLoop(S))
        Facts.Trains = true;
      return true;
    }
    void mayTrain(DeclarationName Name) {
      if (Name.isIdentifier() &&
          (Name.getAsString() == "backward" || Name.getAsString() == "step"))
        Facts.MayTrain = true;
    }
    bool VisitCXXDependentScopeMemberExpr(CXXDependentScopeMemberExpr *E) {
      mayTrain(E->getMember());
      return true;
    }
    bool VisitUnresolvedMemberExpr(UnresolvedMemberExpr *E) {
      mayTrain(E->getMemberName());
      return true;
    }
    bool VisitUnresolvedLookupExpr(UnresolvedLookupExpr *E) {
      mayTrain(E->getName());
      return true;
    }
    bool VisitVarDecl(VarDecl *Variable) {
      if (Variable->getIdentifier() && Variable->getName() == "no_grad")
        Facts.HasNoGradName = true;
      return true;
    }
  } V(Loops, Depth);
  V.TraverseStmt(const_cast<Stmt *>(Body));
  return V.Facts;
}

namespace {

/// The module forward calls in the body of \p Loop, in source order.
llvm::SmallVector<const CallExpr *, 4> forwardCallsIn(const Stmt *Loop) {
  struct Visitor : RecursiveASTVisitor<Visitor> {
    llvm::SmallVector<const CallExpr *, 4> Calls;
    bool VisitCallExpr(CallExpr *Call) {
      if (isModuleForwardCall(Call))
        Calls.push_back(Call);
      return true;
    }
  } V;
  V.TraverseStmt(const_cast<Stmt *>(utils::loopBody(Loop)));
  return V.Calls;
}

} // namespace

bool runsModel(const Stmt *Loop, const utils::UserCodeParents &UserParents) {
  for (const Stmt *Call : forwardCallsIn(Loop)) {
    const Stmt *Body = nullptr;
    bool InLambda = false;
    auto Loops = enclosingLoops(Call, UserParents, Body, InLambda);
    if (!Loops.empty() && Loops.front() == Loop)
      return true;
  }
  return false;
}

bool walksHeldOutLoader(const Stmt *Loop, const Stmt *Body,
                        TrainingLoopModel &Loops, const SourceManager &SM) {
  // A local loader only: a member or a global may be walked by another
  // function that trains, which this body does not show.
  const auto *Loader = dyn_cast_or_null<VarDecl>(iteratedLoaderVariable(Loop));
  if (!Loader || !Loader->hasLocalStorage() || !Body)
    return false;
  struct Visitor : RecursiveASTVisitor<Visitor> {
    const Stmt *Loop;
    const ValueDecl *Loader;
    TrainingLoopModel &Loops;
    const SourceManager &SM;
    bool HeldOut = true;
    Visitor(const Stmt *Loop, const ValueDecl *Loader, TrainingLoopModel &Loops,
            const SourceManager &SM)
        : Loop(Loop), Loader(Loader), Loops(Loops), SM(SM) {}
    bool inLoop(const Stmt *S) const {
      return !SM.isBeforeInTranslationUnit(S->getBeginLoc(),
                                           Loop->getBeginLoc()) &&
             !SM.isBeforeInTranslationUnit(Loop->getEndLoc(), S->getEndLoc());
    }
    // A training loop that walks the same loader, or has not ended when
    // the loop starts.
    bool loop(const Stmt *Other) {
      if (Other != Loop && Loops.isTrainingLoop(Other) &&
          (iteratedLoaderVariable(Other) == Loader ||
           !SM.isBeforeInTranslationUnit(Other->getEndLoc(),
                                         Loop->getBeginLoc())))
        HeldOut = false;
      return HeldOut;
    }
    bool VisitForStmt(ForStmt *S) { return loop(S); }
    bool VisitCXXForRangeStmt(CXXForRangeStmt *S) { return loop(S); }
    bool VisitWhileStmt(WhileStmt *S) { return loop(S); }
    bool VisitDoStmt(DoStmt *S) { return loop(S); }
    // The loader handed to a call: a function of this or another unit may
    // train on it.
    bool VisitCallExpr(CallExpr *Call) {
      // `*loader` and `loader->` reach the loader; they hand it to no one.
      if (const auto *Operator = dyn_cast<CXXOperatorCallExpr>(Call);
          Operator && (Operator->getOperator() == OO_Star ||
                       Operator->getOperator() == OO_Arrow))
        return true;
      if (inLoop(Call))
        return true;
      for (const Expr *Argument : Call->arguments())
        if (utils::mentions(Argument, Loader))
          HeldOut = false;
      return HeldOut;
    }
  } V(Loop, Loader, Loops, SM);
  V.TraverseStmt(const_cast<Stmt *>(Body));
  return V.HeldOut;
}

const CXXMemberCallExpr *lastModeCallBefore(const BodyFacts &Facts,
                                            const Stmt *S,
                                            const SourceManager &SM) {
  const CXXMemberCallExpr *Last = nullptr;
  for (const CXXMemberCallExpr *Call : Facts.ModeCalls)
    if (SM.isBeforeInTranslationUnit(compat::beginOf(*Call), S->getBeginLoc()))
      Last = Call;
  return Last;
}

bool isEvalCall(const CXXMemberCallExpr *ModeCall) {
  const CXXMethodDecl *Method = ModeCall ? ModeCall->getMethodDecl() : nullptr;
  return Method && Method->getIdentifier() && Method->getName() == "eval";
}

namespace {

/// The then-branch of the innermost periodic `if` between \p Forward and
/// \p Loop, when no loop or lambda of its own comes between them.
const Stmt *periodicBlockOf(const CallExpr *Forward, const Stmt *Loop,
                            TrainingLoopModel &Loops) {
  const Stmt *Block = nullptr;
  bool ReachedLoop = false;
  utils::forEachAncestor(
      DynTypedNode::create(*Forward), Loops.parents(),
      [&](const DynTypedNode &Parent, const DynTypedNode &Child) {
        // `auto images = generator->forward(noise);`
        if (const auto *D = Parent.get<Decl>())
          return isa<VarDecl>(D);
        const Stmt *S = Parent.get<Stmt>();
        if (!S)
          return false;
        if (S == Loop) {
          ReachedLoop = true;
          return false;
        }
        if (isa<LambdaExpr>(S) || utils::isLoop(S))
          return false;
        // A guard spelled in a macro: the fix-it would go into its
        // expansion.
        if (const auto *If = dyn_cast<IfStmt>(S);
            If && !Block && Child.get<Stmt>() == If->getThen() &&
            If->getBeginLoc().isFileID() &&
            Loops.isPeriodicCondition(If->getCond()))
          Block = If->getThen();
        return true;
      });
  return ReachedLoop ? Block : nullptr;
}

} // namespace

llvm::SmallVector<PeriodicPass, 2> periodicPasses(const Stmt *Loop,
                                                  TrainingLoopModel &Loops) {
  llvm::SmallVector<PeriodicPass, 2> Passes;
  llvm::SmallPtrSet<const Stmt *, 4> Judged;
  for (const CallExpr *Forward : forwardCallsIn(Loop)) {
    const Stmt *Block = periodicBlockOf(Forward, Loop, Loops);
    if (!Block || !Judged.insert(Block).second)
      continue;
    // A generator step every N critic steps trains: its forward feeds it.
    BodyFacts Facts = bodyFacts(Block, Loops);
    if (Facts.Trains || Facts.MayTrain || Facts.SetsGradMode)
      continue;
    // Outputs kept past the block (`last_samples = ...`) may feed a later
    // backward pass.
    if (findOuterTensorWrite(Block))
      continue;
    Passes.push_back({Block, Forward});
  }
  return Passes;
}

bool isInTrainingLoop(const CallExpr *Call,
                      const utils::UserCodeParents &UserParents,
                      TrainingLoopModel &Loops) {
  const Stmt *Body = nullptr;
  bool InLambda = false;
  for (const Stmt *Loop : enclosingLoops(Call, UserParents, Body, InLambda))
    if (Loops.isTrainingLoop(Loop))
      return true;
  return false;
}

llvm::SmallVector<const CallExpr *, 4> callersOf(const FunctionDecl *Function,
                                                 TrainingLoopModel &Loops) {
  llvm::SmallVector<const CallExpr *, 4> Calls;
  auto Add = [&](const FunctionDecl *F) {
    for (const CallExpr *Call : Loops.callSitesOf(F->getCanonicalDecl()))
      Calls.push_back(Call);
  };
  Add(Function);
  if (const FunctionTemplateDecl *Template =
          Function->getDescribedFunctionTemplate())
    for (const FunctionDecl *Instance : Template->specializations())
      Add(Instance);
  return Calls;
}

} // namespace clang::tidy::libtorch::analysis
