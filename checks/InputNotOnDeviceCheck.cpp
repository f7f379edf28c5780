//===--- InputNotOnDeviceCheck.cpp - libtorch-tidy ------------------------===//
//
// Part of libtorch-tidy. SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

#include "InputNotOnDeviceCheck.h"
#include "analysis/devices/DeviceFacts.h"
#include "analysis/devices/DeviceVariables.h"
#include "analysis/steps/BatchFlow.h"
#include "analysis/vocabulary/GradModeFacts.h"
#include "analysis/vocabulary/LibTorchCalls.h"
#include "analysis/vocabulary/LibTorchNames.h"
#include "utils/CallArguments.h"
#include "utils/FixIts.h"
#include "utils/SourceText.h"
#include "clang/AST/ASTContext.h"
#include "clang/ASTMatchers/ASTMatchFinder.h"

using namespace clang::ast_matchers;

namespace clang::tidy::libtorch {

namespace {

using analysis::MaxBatchFlowDepth;

} // namespace

void InputNotOnDeviceCheck::registerUserCodeMatchers(MatchFinder *Finder) {
  // The cheap structural tests first: member accesses are everywhere in
  // LibTorch's headers, and almost all of them are on `this`.
  Finder->addMatcher(memberExpr(hasObjectExpression(ignoringImpCasts(
                                    declRefExpr(to(varDecl().bind("batch"))))),
                                member(fieldDecl()),
                                unless(isExpansionInSystemHeader()))
                         .bind("member"),
                     this);
}

bool InputNotOnDeviceCheck::isOnDevice(const Expr *E, ASTContext &Context,
                                       unsigned Depth) {
  if (!E || Depth > MaxBatchFlowDepth)
    return false;
  if (analysis::isProvablyOnDevice(E, Context))
    return true;
  const Expr *Stripped = E->IgnoreImplicit()->IgnoreParens();
  if (analysis::isModuleForwardCall(Stripped))
    return isModuleOnDevice(
        analysis::moduleOfForwardCall(cast<CallExpr>(Stripped)), Context);
  if (const auto *Ref = dyn_cast<DeclRefExpr>(Stripped))
    if (const auto *Variable = dyn_cast<VarDecl>(Ref->getDecl()))
      if (const auto *Function = dyn_cast_or_null<FunctionDecl>(
              Variable->getParentFunctionOrMethod());
          Function && Function->getBody() && Variable->hasLocalStorage() &&
          !isa<ParmVarDecl>(Variable) && Variable->getInit() &&
          !Variable->getType()->isReferenceType() &&
          !analysis::mayHoldAnotherTensor(Variable, Function->getBody()))
        return isOnDevice(Variable->getInit(), Context, Depth + 1);
  return false;
}

bool InputNotOnDeviceCheck::isModuleOnDevice(const ValueDecl *Module,
                                             ASTContext &Context) {
  if (!Module)
    return false;
  if (modulePlacement(Context).movesOf(Module).MovedToDevice)
    return true;
  // A module handed in: on the device when a caller of this TU moved it.
  const auto *Parameter = dyn_cast<ParmVarDecl>(Module);
  const auto *Function =
      Parameter ? dyn_cast<FunctionDecl>(Parameter->getDeclContext()) : nullptr;
  if (!Function)
    return false;
  unsigned Index = Parameter->getFunctionScopeIndex();
  analysis::TrainingFacts &TU = trainingFacts(Context);
  const FunctionDecl *Canonical = Function->getCanonicalDecl();
  for (const CallExpr *Call : TU.Loops.callSitesOf(Canonical)) {
    // An overloaded operator's object is its first argument, a static
    // call operator's is not: CallArguments.h knows which.
    const Expr *Arg = utils::argumentOfParameter(Call, Index);
    if (!Arg)
      continue;
    Arg = Arg->IgnoreParenImpCasts();
    if (const auto *Construct = dyn_cast<CXXConstructExpr>(Arg))
      if (Construct->getNumArgs() == 1)
        Arg = Construct->getArg(0)->IgnoreParenImpCasts();
    if (const auto *Ref = dyn_cast<DeclRefExpr>(Arg))
      if (const auto *Handle = dyn_cast<VarDecl>(Ref->getDecl());
          Handle && !isa<ParmVarDecl>(Handle) &&
          analysis::isModuleHandleType(Handle->getType()) &&
          modulePlacement(Context).movesOf(Handle).MovedToDevice)
        return true;
  }
  return false;
}

void InputNotOnDeviceCheck::check(const MatchFinder::MatchResult &Result) {
  const auto *Member = Result.Nodes.getNodeAs<MemberExpr>("member");
  const auto *Batch = Result.Nodes.getNodeAs<VarDecl>("batch");
  ASTContext &Context = *Result.Context;
  // Written in a macro: the macro may serve other call sites.
  if (Member->getBeginLoc().isMacroID() ||
      !analysis::isTensorType(Member->getType()))
    return;
  const utils::UserCodeParents &UserParents = parents(Context);
  const CXXForRangeStmt *Loop = analysis::loaderLoopOf(Batch, UserParents);
  if (!Loop)
    return;
  // A dataset or transform of this TU that puts its tensors on the device
  // (or that we cannot see) makes batches that are already there.
  const CXXRecordDecl *Loader = Loop->getRangeInit()
                                    ->getType()
                                    .getNonReferenceType()
                                    ->getAsCXXRecordDecl();
  auto &Verdicts = LoaderVerdict.get(Context);
  auto Verdict = Verdicts.find(Loader);
  if (Verdict == Verdicts.end())
    Verdict = Verdicts
                  .try_emplace(
                      Loader, analysis::loaderMayPlaceOnDevice(Loader, Context))
                  .first;
  if (Verdict->second)
    return;
  const FunctionDecl *Function = utils::enclosingFunction(Member, UserParents);
  if (!Function || trainingFacts(Context).Devices.isCpuOnlyFunction(Function))
    return;

  std::vector<analysis::BatchUse> Uses =
      analysis::batchUses(Member, UserParents);
  const analysis::BatchUse *Found = nullptr;
  bool WithModel = false;
  for (const analysis::BatchUse &U : Uses) {
    const CallExpr *Call = U.Call;
    if (analysis::isModuleForwardCall(Call) &&
        isModuleOnDevice(analysis::moduleOfForwardCall(Call), Context)) {
      Found = &U;
      WithModel = true;
      break;
    }
    // A loss or an op: only LibTorch's own, with another operand on the
    // device. The object of a member call counts as an operand.
    const FunctionDecl *Callee = Call->getDirectCallee();
    if (!Callee)
      continue;
    bool IsLibTorch = analysis::isInNamespace(Callee, names::TorchNamespace) ||
                      analysis::isInNamespace(Callee, names::AtNamespace) ||
                      analysis::tensorMethodCalled(Call) ||
                      analysis::isModuleForwardCall(Call);
    if (!IsLibTorch)
      continue;
    llvm::SmallVector<const Expr *, 4> Operands(Call->arguments());
    if (const auto *MemberCall = dyn_cast<CXXMemberCallExpr>(Call))
      Operands.push_back(MemberCall->getImplicitObjectArgument());
    for (const Expr *Operand : Operands)
      if (Operand != U.Arg && analysis::isTensorType(Operand->getType()) &&
          isOnDevice(Operand, Context, 0)) {
        Found = &U;
        break;
      }
    if (Found)
      break;
  }
  if (!Found)
    return;

  const SourceManager &SM = *Result.SourceManager;
  const LangOptions &LangOpts = getLangOpts();
  std::string Spelled = utils::spelledText(Member, SM, LangOpts);
  auto Devices = analysis::cudaDeviceVariablesAt(Member, Context, UserParents);
  {
    auto Diag =
        diag(Found->Arg->getBeginLoc(),
             "'%0' is a data-loader batch in host memory, used with %select{"
             "tensors|the model}1 on the GPU; copy it to the device with "
             "'.to(device)' first")
        << Spelled << WithModel;
    if (Devices.size() == 1)
      if (std::optional<FixItHint> Insert =
              utils::insertionAfter(*Member,
                                    ".to(" + Devices.front()->getName().str() +
                                        ", /*non_blocking=*/true)",
                                    SM, LangOpts))
        Diag << *Insert;
  }
  if (Found->Arg->getBeginLoc() != Member->getBeginLoc())
    diag(Member->getBeginLoc(), "the batch tensor comes from here",
         DiagnosticIDs::Note);
}

} // namespace clang::tidy::libtorch
