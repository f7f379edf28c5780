//===--- EvalWithoutNoGradCheck.cpp - libtorch-tidy -----------------------===//
//
// Part of libtorch-tidy. SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

#include "EvalWithoutNoGradCheck.h"
#include "analysis/GradModeFacts.h"
#include "analysis/LibTorchCalls.h"
#include "analysis/LibTorchNames.h"
#include "analysis/LoopMatchers.h"
#include "analysis/SourceText.h"
#include "clang/AST/ASTContext.h"
#include "clang/AST/RecursiveASTVisitor.h"
#include "clang/ASTMatchers/ASTMatchFinder.h"

using namespace clang::ast_matchers;

namespace clang::tidy::libtorch {

namespace {

constexpr char DataLoaderBase[] = "::torch::data::DataLoaderBase";
constexpr char SetGradEnabled[] = "::c10::GradMode::set_enabled";

using analysis::TrainingLoopModel;

const Stmt *loopBody(const Stmt *Loop) {
  if (const auto *For = dyn_cast<ForStmt>(Loop))
    return For->getBody();
  if (const auto *RangeFor = dyn_cast<CXXForRangeStmt>(Loop))
    return RangeFor->getBody();
  if (const auto *While = dyn_cast<WhileStmt>(Loop))
    return While->getBody();
  if (const auto *Do = dyn_cast<DoStmt>(Loop))
    return Do->getBody();
  return nullptr;
}

/// The loops around \p S, innermost first, up to the function or lambda
/// that holds it; \p Body is set to that function's or lambda's body.
llvm::SmallVector<const Stmt *, 4>
enclosingLoops(const Stmt *S, const analysis::UserCodeParents &UserParents,
               const Stmt *&Body, bool &InLambda) {
  llvm::SmallVector<const Stmt *, 4> Loops;
  Body = nullptr;
  InLambda = false;
  DynTypedNode Node = DynTypedNode::create(*S);
  while (true) {
    auto Parents = UserParents.get(Node);
    if (Parents.empty())
      return Loops;
    Node = Parents[0];
    if (const auto *Lambda = Node.get<LambdaExpr>()) {
      Body = Lambda->getBody();
      InLambda = true;
      return Loops;
    }
    if (const auto *Function = Node.get<FunctionDecl>()) {
      Body = Function->getBody();
      return Loops;
    }
    if (const auto *Parent = Node.get<Stmt>();
        Parent && TrainingLoopModel::isLoop(Parent))
      Loops.push_back(Parent);
  }
}

/// What a function body does that matters here.
struct BodyFacts {
  /// Calls a backward pass or optimizer step or holds a training loop,
  /// itself or in a function of this TU that it calls (a few calls deep).
  bool Trains = false;
  /// Calls a user function whose body this TU does not have: it may train.
  bool CallsUnseen = false;
  /// Names `backward` / `step` on a type that is not known yet (template
  /// code): it may train, we cannot tell.
  bool MayTrain = false;
  /// Turns gradients off by `GradMode::set_enabled(false)` or similar.
  bool SetsGradMode = false;
  /// Declares a variable named `no_grad`: the fix-it would clash with it.
  bool HasNoGradName = false;
  /// Backward passes and optimizer steps called directly, in source order.
  llvm::SmallVector<const CallExpr *, 4> Updates;
  /// `eval()` / `train()` calls on modules, in source order.
  llvm::SmallVector<const CXXMemberCallExpr *, 4> ModeCalls;
};

BodyFacts factsOf(const Stmt *Body, analysis::TrainingLoopModel &Loops,
                  unsigned Depth = 0) {
  struct Visitor : RecursiveASTVisitor<Visitor> {
    analysis::TrainingLoopModel &Loops;
    unsigned Depth;
    BodyFacts Facts;
    Visitor(analysis::TrainingLoopModel &Loops, unsigned Depth)
        : Loops(Loops), Depth(Depth) {}
    bool VisitCallExpr(CallExpr *Call) {
      if (analysis::isParameterUpdateCall(Call)) {
        Facts.Trains = true;
        Facts.Updates.push_back(Call);
      }
      const FunctionDecl *Callee = Call->getDirectCallee();
      if (!Callee)
        return true;
      if (Callee->getQualifiedNameAsString() == SetGradEnabled + 2)
        Facts.SetsGradMode = true;
      if (const auto *Member = dyn_cast<CXXMemberCallExpr>(Call)) {
        const CXXMethodDecl *Method = Member->getMethodDecl();
        if (Method && Method->getIdentifier() &&
            (Method->getName() == "eval" || Method->getName() == "train") &&
            analysis::isSameOrDerivedFrom(Method->getParent(), names::Module))
          Facts.ModeCalls.push_back(Member);
      }
      // LibTorch's own inline functions never train.
      if (Callee->getASTContext().getSourceManager().isInSystemHeader(
              Callee->getLocation()))
        return true;
      const FunctionDecl *Definition = Callee->getDefinition();
      if (!Definition || !Definition->getBody()) {
        Facts.CallsUnseen = true;
      } else if (Depth < TrainingLoopModel::MaxCallDepth) {
        BodyFacts Called = factsOf(Definition->getBody(), Loops, Depth + 1);
        Facts.Trains |= Called.Trains || Called.MayTrain;
        Facts.CallsUnseen |= Called.CallsUnseen;
      }
      return true;
    }
    bool VisitStmt(Stmt *S) {
      if (TrainingLoopModel::isLoop(S) && Loops.isTrainingLoop(S))
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

/// The loop's body calls a module's forward outside any loop or lambda of
/// its own: it is the loop that runs the model.
bool runsModel(const Stmt *Loop, const analysis::UserCodeParents &UserParents) {
  struct Visitor : RecursiveASTVisitor<Visitor> {
    llvm::SmallVector<const Stmt *, 4> Calls;
    bool VisitCallExpr(CallExpr *Call) {
      if (analysis::isModuleForwardCall(Call))
        Calls.push_back(Call);
      return true;
    }
  } V;
  V.TraverseStmt(const_cast<Stmt *>(loopBody(Loop)));
  for (const Stmt *Call : V.Calls) {
    const Stmt *Body = nullptr;
    bool InLambda = false;
    auto Loops = enclosingLoops(Call, UserParents, Body, InLambda);
    if (!Loops.empty() && Loops.front() == Loop)
      return true;
  }
  return false;
}

/// A range-for over a LibTorch data loader (`for (auto& b : *loader)`).
bool iteratesDataLoader(const Stmt *Loop) {
  const auto *RangeFor = dyn_cast<CXXForRangeStmt>(Loop);
  if (!RangeFor || !RangeFor->getRangeInit())
    return false;
  QualType Type = RangeFor->getRangeInit()->getType().getNonReferenceType();
  return analysis::isSameOrDerivedFrom(Type->getAsCXXRecordDecl(),
                                       DataLoaderBase);
}

/// The last `eval()` / `train()` before \p Loop is `eval()`.
bool followsEval(const BodyFacts &Facts, const Stmt *Loop,
                 const SourceManager &SM) {
  const CXXMemberCallExpr *Last = nullptr;
  for (const CXXMemberCallExpr *Call : Facts.ModeCalls)
    if (SM.isBeforeInTranslationUnit(Call->getBeginLoc(), Loop->getBeginLoc()))
      Last = Call;
  return Last && Last->getMethodDecl()->getName() == "eval";
}

/// A result that can carry tensors (and their autograd graph) to a caller.
bool mayReturnTensors(const FunctionDecl *Function) {
  QualType Type = Function->getReturnType();
  return !Type->isVoidType() && !Type->isArithmeticType() &&
         !Type->isEnumeralType();
}

/// The calls of \p Function, and of its instantiations if it is a template.
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

} // namespace

void EvalWithoutNoGradCheck::registerUserCodeMatchers(MatchFinder *Finder) {
  // Template code is matched as written and in each instantiation: in the
  // template, a forward pass on a dependent argument is not resolved yet.
  // check() reports each loop once, at the template's location.
  analysis::addLoopMatchers(*Finder, this);
}

void EvalWithoutNoGradCheck::check(const MatchFinder::MatchResult &Result) {
  const auto *Loop = Result.Nodes.getNodeAs<Stmt>("loop");
  ASTContext &Context = *Result.Context;
  const SourceManager &SM = *Result.SourceManager;
  // A loop spelled in a macro: neither the report nor the fix would be
  // where the user can act on it.
  if (Loop->getBeginLoc().isMacroID() ||
      ReportedLoops.contains(Loop->getBeginLoc()) ||
      !runsModel(Loop, parents(Context)))
    return;
  analysis::TrainingFacts &TU = trainingFacts(Context);
  if (TU.Loops.isTrainingLoop(Loop))
    return;
  const Stmt *CallableBody = nullptr;
  bool InLambda = false;
  auto Outer = enclosingLoops(Loop, TU.Parents, CallableBody, InLambda);
  const FunctionDecl *Function = analysis::enclosingFunction(Loop, TU.Parents);
  if (!CallableBody || !Function || !Function->getBody())
    return;
  // Inside a training step, forward passes usually feed the step's loss
  // (an RNN unrolled over time, a teacher model): not an evaluation.
  for (const Stmt *Around : Outer)
    if (TU.Loops.isStepLoop(Around))
      return;
  if (TU.Loops.perStep(Loop))
    return;
  // A module's own forward() looping over its layers runs in whatever mode
  // its caller chose.
  if (const auto *Method = dyn_cast<CXXMethodDecl>(Function);
      Method &&
      analysis::isSameOrDerivedFrom(Method->getParent(), names::Module))
    return;
  // Guards: in the loop, before it in an enclosing block, or around a call
  // of the function.
  if (analysis::holdsNoGradGuard(loopBody(Loop), Context) ||
      analysis::isCoveredByNoGradGuard(Loop, Context, TU.Parents))
    return;
  BodyFacts Body = factsOf(Function->getBody(), TU.Loops);
  if (Body.SetsGradMode || Body.MayTrain)
    return;
  auto Callers = callersOf(Function, TU.Loops);
  for (const CallExpr *Call : Callers)
    if (analysis::isCoveredByNoGradGuard(Call, Context, TU.Parents))
      return;
  // Evidence that the loop evaluates: the model was put in eval mode, or
  // the loop walks a data loader. In a function that also trains, only
  // eval() is evidence enough.
  bool AfterEval = followsEval(Body, Loop, SM);
  if (Body.Trains ? !AfterEval : !(AfterEval || iteratesDataLoader(Loop)))
    return;
  // In a function that trains, a backward after the loop may use what the
  // loop computed (targets of a teacher model, outputs for a later loss).
  for (const CallExpr *Update : Body.Updates)
    if (SM.isBeforeInTranslationUnit(Loop->getEndLoc(), Update->getBeginLoc()))
      return;
  // Outputs returned to a caller that trains may feed its backward.
  if (!Body.Trains && mayReturnTensors(Function))
    for (const CallExpr *Call : Callers) {
      const FunctionDecl *Caller =
          analysis::enclosingFunction(Call, TU.Parents);
      if (!Caller || !Caller->getBody() ||
          factsOf(Caller->getBody(), TU.Loops).Trains)
        return;
    }

  ReportedLoops.insert(Loop->getBeginLoc());
  auto Diag = diag(Loop->getBeginLoc(),
                   "evaluation loop runs the model with autograd on: every "
                   "forward pass records a graph for a backward that never "
                   "comes, costing GPU memory and time; declare "
                   "'torch::NoGradGuard no_grad;' before it");
  if (Body.HasNoGradName)
    return;
  // The guard goes at the top of the function, or of the loop body when
  // the function also trains, may train through a function we cannot see,
  // or the loop is in a lambda.
  const auto *Block = dyn_cast<CompoundStmt>(
      Body.Trains || Body.CallsUnseen || InLambda ? loopBody(Loop)
                                                  : Function->getBody());
  if (!Block || Block->body_empty() ||
      FixedFunctions.contains(Block->getBeginLoc()))
    return;
  const Stmt *First = Block->body_front();
  if (!First->getBeginLoc().isFileID())
    return;
  std::optional<std::string> Indent =
      analysis::indentationIfFirstOnLine(First->getBeginLoc(), SM);
  Diag << FixItHint::CreateInsertion(
      First->getBeginLoc(),
      Indent ? "torch::NoGradGuard no_grad;" +
                   analysis::lineBreakAt(First->getBeginLoc(), SM) + *Indent
             : "torch::NoGradGuard no_grad; ");
  FixedFunctions.insert(Block->getBeginLoc());
}

} // namespace clang::tidy::libtorch
