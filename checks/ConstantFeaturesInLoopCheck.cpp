//===--- ConstantFeaturesInLoopCheck.cpp - libtorch-tidy ------------------===//
//
// Part of libtorch-tidy. SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

#include "ConstantFeaturesInLoopCheck.h"
#include "analysis/devices/ModuleCallChains.h"
#include "analysis/steps/LoopInvariance.h"
#include "analysis/vocabulary/GradModeFacts.h"
#include "analysis/vocabulary/LibTorchCalls.h"
#include "analysis/vocabulary/LibTorchNames.h"
#include "clang-compat/ClangCompat.h"
#include "clang/AST/ASTContext.h"
#include "clang/ASTMatchers/ASTMatchFinder.h"
#include "llvm/ADT/STLExtras.h"

using namespace clang::ast_matchers;

namespace clang::tidy::libtorch {

void ConstantFeaturesInLoopCheck::registerUserCodeMatchers(
    MatchFinder *Finder) {
  // Template code is read as written (ModuleModes indexes no
  // instantiations).
  auto ModuleCallShape =
      callExpr(anyOf(cxxMemberCallExpr(), cxxOperatorCallExpr()),
               unless(isInTemplateInstantiation()));
  Finder->addMatcher(ModuleCallShape.bind("forward"), this);
}

void ConstantFeaturesInLoopCheck::check(
    const MatchFinder::MatchResult &Result) {
  const auto *Forward = Result.Nodes.getNodeAs<CallExpr>("forward");
  ASTContext &Context = *Result.Context;
  if (!analysis::isModuleForwardCall(Forward) ||
      !compat::beginOf(*Forward).isFileID() ||
      Reported.get(Context).contains(Forward))
    return;
  std::optional<analysis::ModuleCall> Call = analysis::moduleCall(Forward);
  const ValueDecl *Module = Call ? analysis::holderDecl(Call->Holder) : nullptr;
  llvm::ArrayRef<const Expr *> Inputs = analysis::forwardInputs(Forward);
  // A forward pass without inputs is not the features of anything.
  if (!Module || Inputs.empty())
    return;
  analysis::TrainingFacts &TU = trainingFacts(Context);
  // A module's own forward() calling its layers: they are trained or
  // frozen with the module that holds them.
  if (analysis::isModuleMethod(utils::enclosingFunction(Forward, TU.Parents)))
    return;
  // Weights an optimizer of this file updates change the output on every
  // step.
  if (!moduleModes(Context).isUntrainedModule(Module))
    return;
  // Only a forward pass in the step loop's own body: in a helper the loop
  // calls, the inputs are the helper's parameters, and whether each call
  // passes the same tensors is not known.
  std::optional<analysis::StepPath> Path = TU.Loops.perStep(Forward);
  if (!Path || !Path->Calls.empty() || !Path->StepLoop)
    return;
  const Stmt *Loop = Path->StepLoop;
  if (!llvm::all_of(Inputs,
                    [&](const Expr *Input) {
                      return analysis::isLoopInvariant(Input, Loop);
                    }) ||
      !analysis::onlyRunsForwardIn(Module, Loop))
    return;
  Reported.get(Context).insert(Forward);
  diag(compat::beginOf(*Forward),
       "'%0' computes the same output on every training step: no optimizer "
       "in this file trains it and its inputs do not change in the loop; "
       "compute it once before the loop, under 'torch::NoGradGuard'")
      << Module->getNameAsString();
  diag(Loop->getBeginLoc(), "the training loop is here", DiagnosticIDs::Note);
}

} // namespace clang::tidy::libtorch
