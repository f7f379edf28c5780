//===--- PinMemoryInLoopCheck.cpp - libtorch-tidy -------------------------===//
//
// Part of libtorch-tidy. SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

#include "PinMemoryInLoopCheck.h"
#include "analysis/vocabulary/LibTorchCalls.h"
#include "analysis/vocabulary/LibTorchNames.h"
#include "utils/AstWalk.h"
#include "clang/AST/ASTContext.h"
#include "clang/ASTMatchers/ASTMatchFinder.h"

using namespace clang::ast_matchers;

namespace clang::tidy::libtorch {

namespace {

/// `get()` / `get_batch()` of a dataset and the calls of a transform run on
/// the loader's worker threads: that is where pinning belongs.
bool isDataPipelineFunction(const FunctionDecl *Function) {
  const auto *Method = dyn_cast_or_null<CXXMethodDecl>(Function);
  if (!Method || !Method->getIdentifier())
    return Method && Method->getOverloadedOperator() == OO_Call &&
           !Method->getParent()->isLambda() &&
           analysis::isSameOrDerivedFrom(Method->getParent(),
                                         names::BatchTransform);
  StringRef Name = Method->getName();
  if ((Name == "get" || Name == "get_batch") &&
      analysis::isSameOrDerivedFrom(Method->getParent(), names::BatchDataset))
    return true;
  return (Name == "apply" || Name == "apply_batch") &&
         analysis::isSameOrDerivedFrom(Method->getParent(),
                                       names::BatchTransform);
}

bool isCopyToDevice(const Stmt *S) {
  return analysis::isTensorDeviceCopy(dyn_cast_or_null<Expr>(S));
}

/// The pinned tensor goes straight into a copy: `x.pin_memory().to(d)`, or
/// `auto p = x.pin_memory();` with `p.to(d)` later in the function.
bool feedsACopy(const CXXMemberCallExpr *Pin, ASTContext &Context,
                const utils::UserCodeParents &UserParents) {
  // The value flows on through conversions, temporaries, copies and a
  // conditional (`pin ? x.pin_memory() : x`).
  DynTypedNode Parent =
      utils::parentIgnoring(Pin, UserParents,
                            utils::ImplicitWrappers | utils::Construct |
                                utils::Conditional)
          .Parent;
  if (const auto *Member = Parent.get<MemberExpr>()) {
    auto Calls = UserParents.get(*Member);
    return Calls.size() == 1 && isCopyToDevice(Calls[0].get<Stmt>());
  }
  if (const auto *Variable = Parent.get<VarDecl>()) {
    const auto *Function =
        dyn_cast_or_null<FunctionDecl>(Variable->getParentFunctionOrMethod());
    if (!Function || !Function->getBody())
      return false;
    auto Copies = match(
        findAll(cxxMemberCallExpr(
                    on(ignoringImplicit(declRefExpr(to(equalsNode(Variable))))))
                    .bind("use")),
        *Function->getBody(), Context);
    for (const auto &Copy : Copies)
      if (isCopyToDevice(Copy.getNodeAs<Stmt>("use")))
        return true;
    return false;
  }
  return false;
}

} // namespace

void PinMemoryInLoopCheck::registerUserCodeMatchers(MatchFinder *Finder) {
  Finder->addMatcher(
      cxxMemberCallExpr(
          unless(isExpansionInSystemHeader()),
          callee(cxxMethodDecl(
              hasName("pin_memory"),
              ofClass(cxxRecordDecl(isSameOrDerivedFrom(names::TensorBase))))))
          .bind("pin"),
      this);
}

void PinMemoryInLoopCheck::check(const MatchFinder::MatchResult &Result) {
  const auto *Pin = Result.Nodes.getNodeAs<CXXMemberCallExpr>("pin");
  ASTContext &Context = *Result.Context;
  // Pinning inside the data pipeline runs on worker threads: the fix we
  // recommend, never a finding.
  const utils::UserCodeParents &UserParents = parents(Context);
  if (isDataPipelineFunction(utils::enclosingFunction(Pin, UserParents)))
    return;
  if (!feedsACopy(Pin, Context, UserParents))
    return;
  analysis::TrainingFacts &TU = trainingFacts(Context);
  std::optional<analysis::StepPath> Path = TU.Loops.perStep(Pin);
  if (!Path)
    return;
  // The pinned call may sit in a dataset method called from the loop.
  for (const CallExpr *Site : Path->Calls)
    if (isDataPipelineFunction(Site->getDirectCallee()))
      return;

  const auto *Member = dyn_cast<MemberExpr>(Pin->getCallee());
  if (!Member)
    return;
  {
    auto Diag = diag(Member->getMemberLoc(),
                     "'pin_memory()' on the training thread copies the batch "
                     "into pinned memory right before the device copy, which "
                     "is slower than copying it directly; remove it");
    SourceRange Removed(Member->getOperatorLoc(), Pin->getRParenLoc());
    if (Removed.getBegin().isFileID() && Removed.getEnd().isFileID())
      Diag << FixItHint::CreateRemoval(Removed);
  }
  diag(Member->getMemberLoc(),
       "to overlap copies with GPU work, pin in the dataset's get() or a "
       "transform, which run on the loader's worker threads",
       DiagnosticIDs::Note);
}

} // namespace clang::tidy::libtorch
