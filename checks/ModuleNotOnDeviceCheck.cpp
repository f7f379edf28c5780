//===--- ModuleNotOnDeviceCheck.cpp - libtorch-tidy -----------------------===//
//
// Part of libtorch-tidy. SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

#include "ModuleNotOnDeviceCheck.h"
#include "analysis/devices/DeviceFacts.h"
#include "analysis/devices/DeviceVariables.h"
#include "analysis/vocabulary/GradModeFacts.h"
#include "analysis/vocabulary/LibTorchCalls.h"
#include "analysis/vocabulary/LibTorchNames.h"
#include "clang-compat/ClangCompat.h"
#include "utils/AstWalk.h"
#include "utils/FixIts.h"
#include "utils/SourceLines.h"
#include "utils/SourceText.h"
#include "clang/AST/ASTContext.h"
#include "clang/ASTMatchers/ASTMatchFinder.h"

using namespace clang::ast_matchers;

namespace clang::tidy::libtorch {

namespace {

/// The handle holds a module from its declaration on, so `->to()` right
/// after it is valid: not `Net model = nullptr;` nor an empty shared_ptr.
bool holdsModuleWhenDeclared(const VarDecl &Handle) {
  const Expr *Init = utils::stripWrappers(
      Handle.getInit(), utils::ImplicitWrappers | utils::CopyConstruct);
  if (!Init)
    return false;
  if (isa<CallExpr>(Init) && !isa<CXXOperatorCallExpr>(Init))
    return true; // std::make_shared<NetImpl>(...)
  const auto *Construct = dyn_cast<CXXConstructExpr>(Init);
  if (!Construct)
    return false;
  bool IsSharedPtr =
      analysis::isRecordNamed(Construct->getType(), names::SharedPtr);
  if (Construct->getNumArgs() == 0)
    return !IsSharedPtr; // a ModuleHolder default-constructs its module
  const Expr *First = Construct->getArg(0)->IgnoreImplicit();
  return !First->getType()->isNullPtrType() &&
         !isa<CXXNullPtrLiteralExpr>(First) && !isa<CXXDefaultArgExpr>(First);
}

/// The statement that declares \p Variable, if it sits directly in a block.
const DeclStmt *declarationInBlock(const VarDecl &Variable,
                                   const utils::UserCodeParents &UserParents) {
  DynTypedNodeList Parents = UserParents.get(Variable);
  if (Parents.size() != 1)
    return nullptr;
  const auto *Declaration = Parents[0].get<DeclStmt>();
  if (!Declaration)
    return nullptr;
  DynTypedNodeList Grandparents = UserParents.get(*Declaration);
  if (Grandparents.size() != 1 || !Grandparents[0].get<CompoundStmt>())
    return nullptr;
  return Declaration;
}

} // namespace

void ModuleNotOnDeviceCheck::registerUserCodeMatchers(MatchFinder *Finder) {
  const auto ForwardMethod = cxxMethodDecl(
      hasName("forward"), ofClass(cxxRecordDecl(isSameOrDerivedFrom(
                              cxxRecordDecl(hasName(names::Module))))));
  const auto HolderCall =
      cxxMethodDecl(hasOverloadedOperatorName("()"),
                    ofClass(cxxRecordDecl(isSameOrDerivedFrom(
                        cxxRecordDecl(hasName(names::ModuleHolder))))));
  Finder->addMatcher(cxxMemberCallExpr(unless(isExpansionInSystemHeader()),
                                       callee(ForwardMethod))
                         .bind("forward"),
                     this);
  Finder->addMatcher(cxxOperatorCallExpr(unless(isExpansionInSystemHeader()),
                                         callee(HolderCall))
                         .bind("forward"),
                     this);
}

void ModuleNotOnDeviceCheck::check(const MatchFinder::MatchResult &Result) {
  const auto *Forward = Result.Nodes.getNodeAs<CallExpr>("forward");
  ASTContext &Context = *Result.Context;
  if (!analysis::isModuleForwardCall(Forward))
    return;
  const ValueDecl *Module = analysis::moduleOfForwardCall(Forward);
  // A module handed in by the caller may have been moved there: we cannot
  // see every caller.
  if (!Module || isa<ParmVarDecl>(Module) ||
      Reported.get(Context).contains(Module))
    return;

  analysis::TrainingFacts &TU = trainingFacts(Context);
  if (!TU.Loops.perStep(Forward))
    return;
  const FunctionDecl *Function = utils::enclosingFunction(Forward, TU.Parents);
  if (!Function || TU.Devices.isCpuOnlyFunction(Function))
    return;

  // The evidence that training is meant for a GPU: inputs on the device, or
  // a CUDA (or maybe-CUDA) device variable the code could have used.
  bool DeviceInputs = false;
  for (unsigned I = isa<CXXOperatorCallExpr>(Forward) ? 1 : 0;
       I < Forward->getNumArgs(); ++I)
    if (analysis::isTensorType(Forward->getArg(I)->getType()) &&
        analysis::isProvablyOnDevice(Forward->getArg(I), Context))
      DeviceInputs = true;
  if (!DeviceInputs &&
      analysis::cudaDeviceVariablesAt(Forward, Context, TU.Parents).empty())
    return;

  if (modulePlacement(Context).movesOf(Module).MaybeMoved)
    return;
  Reported.get(Context).insert(Module);

  const SourceManager &SM = *Result.SourceManager;
  std::string Name = Module->getName().str();
  // The fix goes right after a local declaration, where exactly one device
  // variable must already be visible.
  std::string Fix;
  const DeclStmt *Declaration = nullptr;
  std::string DeviceName = "device";
  if (const auto *Variable = dyn_cast<VarDecl>(Module)) {
    Declaration = declarationInBlock(*Variable, TU.Parents);
    if (Declaration) {
      auto Devices =
          analysis::cudaDeviceVariablesAt(Declaration, Context, TU.Parents);
      if (Devices.size() == 1)
        DeviceName = Devices.front()->getName().str();
      if (Devices.size() == 1 && holdsModuleWhenDeclared(*Variable) &&
          utils::isRewritable(Declaration->getSourceRange()))
        Fix = Name + "->to(" + DeviceName + ");";
    }
  }
  if (!Declaration) {
    // A member: name the device the training code can see.
    auto Devices =
        analysis::cudaDeviceVariablesAt(Forward, Context, TU.Parents);
    if (Devices.size() == 1)
      DeviceName = Devices.front()->getName().str();
  }
  {
    auto Diag = diag(Module->getLocation(),
                     "module '%0' is never moved to the GPU: its forward and "
                     "backward passes in the training loop run on the CPU; "
                     "call '%0->to(device)' once before training")
                << Name;
    if (!Fix.empty())
      if (std::optional<FixItHint> Insert = utils::insertionAfter(
              *Declaration,
              utils::lineBreakAt(Declaration->getEndLoc(), SM) +
                  utils::indentationOf(Declaration->getBeginLoc(), SM) + Fix,
              SM, getLangOpts()))
        Diag << *Insert;
  }
  if (Fix.empty())
    diag(Module->getLocation(),
         "move it once where it is set up: '%0->to(%1);'", DiagnosticIDs::Note)
        << Name << DeviceName;
  diag(compat::beginOf(*Forward),
       DeviceInputs ? "forward pass on device inputs in the training loop"
                    : "forward pass in the training loop",
       DiagnosticIDs::Note);
}

} // namespace clang::tidy::libtorch
