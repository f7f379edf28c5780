//===--- FrozenModuleRequiresGradCheck.cpp - libtorch-tidy ----------------===//
//
// Part of libtorch-tidy. SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

#include "FrozenModuleRequiresGradCheck.h"
#include "analysis/devices/ModuleCallChains.h"
#include "analysis/vocabulary/ConvolutionModules.h"
#include "analysis/vocabulary/GradModeFacts.h"
#include "analysis/vocabulary/LibTorchCalls.h"
#include "analysis/vocabulary/LibTorchNames.h"
#include "clang-compat/ClangCompat.h"
#include "utils/AstWalk.h"
#include "clang/AST/ASTContext.h"
#include "clang/ASTMatchers/ASTMatchFinder.h"

using namespace clang::ast_matchers;

namespace clang::tidy::libtorch {

namespace {

/// `m(x).detach()`: the output leaves the graph at once, so no backward
/// pass reaches the module.
bool isDetachedAtOnce(const Expr *Forward, const utils::UserCodeParents &P) {
  utils::Above Up = utils::parentIgnoring(Forward, P);
  const auto *Member = Up.Parent.get<MemberExpr>();
  return Member && Member->getMemberDecl()->getIdentifier() &&
         Member->getMemberDecl()->getName() == "detach";
}

} // namespace

void FrozenModuleRequiresGradCheck::registerUserCodeMatchers(
    MatchFinder *Finder) {
  // Template code is read as written (ModuleModes indexes no
  // instantiations).
  Finder->addMatcher(callExpr(anyOf(cxxMemberCallExpr(), cxxOperatorCallExpr()),
                              unless(isInTemplateInstantiation()))
                         .bind("forward"),
                     this);
}

void FrozenModuleRequiresGradCheck::check(
    const MatchFinder::MatchResult &Result) {
  const auto *Forward = Result.Nodes.getNodeAs<CallExpr>("forward");
  ASTContext &Context = *Result.Context;
  if (!analysis::isModuleForwardCall(Forward) ||
      !compat::beginOf(*Forward).isFileID())
    return;
  std::optional<analysis::ModuleCall> Call = analysis::moduleCall(Forward);
  const ValueDecl *Module = Call ? analysis::holderDecl(Call->Holder) : nullptr;
  if (!Module || Reported.get(Context).contains(Module))
    return;
  analysis::TrainingFacts &TU = trainingFacts(Context);
  // A module's own forward() calling its layers: they are trained or
  // frozen with the module that holds them.
  if (analysis::isModuleMethod(utils::enclosingFunction(Forward, TU.Parents)))
    return;
  analysis::ModuleModes &Index = moduleModes(Context);
  if (!Index.isUntrainedModule(Module) || Index.parametersFrozen(Module) ||
      !TU.Loops.perStep(Forward) ||
      analysis::isCoveredByNoGradGuard(Forward, Context, TU.Parents) ||
      isDetachedAtOnce(Forward, TU.Parents))
    return;
  Reported.get(Context).insert(Module);
  std::string Name = Module->getNameAsString();
  diag(compat::beginOf(*Forward),
       "'%0' runs on every training step with autograd recording, yet no "
       "optimizer in this file gets its parameters: backward computes "
       "gradients for weights nobody updates, and keeps the activations "
       "they need")
      << Name;
  llvm::StringRef Access =
      Module->getType().getNonReferenceType()->isRecordType() &&
              analysis::isSameOrDerivedFrom(
                  Module->getType().getNonReferenceType()->getAsCXXRecordDecl(),
                  names::JitModule)
          ? "."
          : "->";
  diag(Module->getLocation(),
       "if '%0' is frozen, turn its gradients off once after loading: 'for "
       "(auto &p : %0%1parameters()) p.requires_grad_(false);', or run its "
       "forward under 'torch::NoGradGuard' when no loss is backpropagated "
       "through it",
       DiagnosticIDs::Note)
      << Name << Access;
}

} // namespace clang::tidy::libtorch
