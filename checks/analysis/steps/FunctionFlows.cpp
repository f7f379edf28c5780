//===--- FunctionFlows.cpp - State flowing between variables --------------===//
//
// Part of libtorch-tidy. SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

#include "analysis/steps/FunctionFlows.h"
#include "analysis/steps/OuterWrites.h"
#include "analysis/vocabulary/GradModeFacts.h"
#include "analysis/vocabulary/LibTorchCalls.h"
#include "utils/CallArguments.h"
#include "clang/AST/ExprCXX.h"
#include "clang/AST/RecursiveASTVisitor.h"
#include "clang/AST/StmtCXX.h"

namespace clang::tidy::libtorch::analysis {

namespace {

class FactCollector : public RecursiveASTVisitor<FactCollector> {
public:
  explicit FactCollector(FunctionFacts &Facts) : Facts(Facts) {}

  bool VisitVarDecl(VarDecl *Var) {
    if (isa<ParmVarDecl>(Var) || !Var->getInit())
      return true;
    if (canShare(Var->getType()))
      addFlow(Var, Var->getInit());
    if (switchesGradientOn(Var->getInit()))
      Facts.Trained.Vars.push_back(Var);
    return true;
  }
  bool VisitCXXForRangeStmt(CXXForRangeStmt *For) {
    // The loop variable is an element of the range (its own initializer,
    // `*__begin`, names an iterator the traversal does not show).
    if (VarDecl *Var = For->getLoopVariable();
        Var && For->getRangeInit() && canShare(Var->getType()))
      addFlow(Var, For->getRangeInit());
    return true;
  }
  bool VisitBinaryOperator(BinaryOperator *Op) {
    if (Op->getOpcode() == BO_Assign && canShare(Op->getLHS()->getType()))
      addFlow(Op->getLHS(), Op->getRHS());
    return true;
  }
  bool VisitLambdaExpr(LambdaExpr *Lambda) {
    Facts.LambdaBodies.push_back(Lambda->getBody());
    return true;
  }
  bool VisitCXXConstructExpr(CXXConstructExpr *Construct) {
    if (trainsWhatBuildsIt(Construct->getType()))
      for (const Expr *Argument : Construct->arguments())
        Facts.Trained.add(rootsOf(Argument));
    return true;
  }
  bool VisitCallExpr(CallExpr *Call) {
    const FunctionDecl *Callee = Call->getDirectCallee();
    CallParts Parts = callParts(Call);
    bool Forward = isModuleForwardCall(Call);
    const auto *Operator = dyn_cast<CXXOperatorCallExpr>(Call);
    if (Operator && Operator->getOperator() == OO_Equal &&
        Operator->getNumArgs() == 2 && canShare(Operator->getArg(0)->getType()))
      addFlow(Operator->getArg(0), Operator->getArg(1));
    // Optimizers built by a call (`std::make_shared<Adam>(...)`), parameter
    // groups added later, gradients switched on.
    if (trainsWhatBuildsIt(Call->getType()) ||
        isNamed(Callee, "add_param_group"))
      for (unsigned I = Parts.First; I < Call->getNumArgs(); ++I)
        Facts.Trained.add(rootsOf(Call->getArg(I)));
    if (Parts.Object && isTensorType(Parts.ObjectType) &&
        (isNamed(Callee, "requires_grad_") ||
         isNamed(Callee, "set_requires_grad")) &&
        switchesGradientOn(Call))
      Facts.Trained.add(rootsOf(Parts.Object));
    if (Forward) {
      // A forward pass stores nothing in its module and binds its inputs to
      // the holder's forwarding references: only its `forward` is read.
      passes(Call, Parts);
      return true;
    }
    // A method that may store what it is given in its object: a
    // container's push_back, an optimizer's add_param_group, a tensor's
    // set_.
    if (Parts.Object && storesArguments(Callee, Parts.ObjectType)) {
      Flow F;
      F.Targets = rootsOf(Parts.Object);
      for (unsigned I = Parts.First; I < Call->getNumArgs(); ++I)
        F.Sources.add(rootsOf(Call->getArg(I)));
      if (!F.Sources.empty())
        Facts.Flows.push_back(std::move(F));
    }
    // An argument bound to a non-const reference may be made to share what
    // the other arguments hold (`std::swap`, an out-parameter).
    if (Callee)
      for (unsigned I = Parts.First; I < Call->getNumArgs(); ++I) {
        const ParmVarDecl *Parameter = utils::parameterOfArgument(Call, I);
        if (!Parameter || writableTarget(Parameter->getType()).isNull())
          continue;
        Flow F;
        F.Targets = rootsOf(Call->getArg(I));
        if (Parts.Object)
          F.Sources.add(rootsOf(Parts.Object));
        for (unsigned J = Parts.First; J < Call->getNumArgs(); ++J)
          if (J != I)
            F.Sources.add(rootsOf(Call->getArg(J)));
        if (!F.Sources.empty() && !F.Targets.empty())
          Facts.Flows.push_back(std::move(F));
      }
    passes(Call, Parts);
    return true;
  }

private:
  void addFlow(const VarDecl *Target, const Expr *Source) {
    Flow F;
    if (Target->hasLocalStorage())
      F.Targets.Vars.push_back(Target);
    else
      F.Targets.Outer = true;
    F.Sources = rootsOf(Source);
    Facts.Flows.push_back(std::move(F));
  }
  void addFlow(const Expr *Target, const Expr *Source) {
    Flow F;
    F.Targets = rootsOf(Target);
    F.Sources = rootsOf(Source);
    Facts.Flows.push_back(std::move(F));
  }
  static bool storesArguments(const FunctionDecl *Callee, QualType Object) {
    const auto *Method = dyn_cast_or_null<CXXMethodDecl>(Callee);
    if (!Method)
      return true;
    if (isTensorType(Object))
      return isNamed(Method, "set_") || isNamed(Method, "set_data");
    return !Method->isStatic() && !Method->isConst();
  }
  /// Records the arguments that hold something, for the callees that may
  /// keep them.
  void passes(const CallExpr *Call, const CallParts &Parts) {
    for (unsigned I = Parts.First; I < Call->getNumArgs(); ++I)
      if (Roots R = rootsOf(Call->getArg(I)); !R.empty())
        Facts.Passes.push_back({Call, I - Parts.First, std::move(R)});
  }

  FunctionFacts &Facts;
};

} // namespace

const FunctionDecl *functionOf(const VarDecl *Variable) {
  const auto *Function =
      dyn_cast_or_null<FunctionDecl>(Variable->getParentFunctionOrMethod());
  return Function && Function->getBody() ? Function : nullptr;
}

FunctionFacts collectFacts(const FunctionDecl *Function) {
  FunctionFacts Facts;
  FactCollector(Facts).TraverseStmt(Function->getBody());
  return Facts;
}

} // namespace clang::tidy::libtorch::analysis
