//===--- AnomalyDetectionEnabledCheck.cpp - libtorch-tidy -----------------===//
//
// Part of libtorch-tidy. SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

#include "AnomalyDetectionEnabledCheck.h"
#include "analysis/steps/TrainingCode.h"
#include "analysis/vocabulary/LibTorchNames.h"
#include "utils/StatementRemoval.h"
#include "clang/AST/ASTContext.h"
#include "clang/ASTMatchers/ASTMatchFinder.h"

using namespace clang::ast_matchers;

namespace clang::tidy::libtorch {

void AnomalyDetectionEnabledCheck::registerUserCodeMatchers(
    MatchFinder *Finder) {
  // set_enabled(false) switches it off again; a non-literal argument is a
  // debug flag the user chose (`set_enabled(options.debug)`): both are fine.
  Finder->addMatcher(
      callExpr(
          unless(isExpansionInSystemHeader()),
          callee(cxxMethodDecl(hasName("set_enabled"),
                               ofClass(hasName(names::AnomalyMode)))),
          hasArgument(0, ignoringParenImpCasts(cxxBoolLiteral(equals(true)))))
          .bind("enable"),
      this);
  Finder->addMatcher(cxxConstructExpr(unless(isExpansionInSystemHeader()),
                                      hasDeclaration(cxxConstructorDecl(ofClass(
                                          hasName(names::DetectAnomalyGuard)))))
                         .bind("guard"),
                     this);
}

void AnomalyDetectionEnabledCheck::check(
    const MatchFinder::MatchResult &Result) {
  ASTContext &Context = *Result.Context;
  const Expr *Found = Result.Nodes.getNodeAs<Expr>("enable");
  const bool IsGuard = !Found;
  if (IsGuard)
    Found = Result.Nodes.getNodeAs<Expr>("guard");
  if (!Found)
    return;

  analysis::TrainingFacts &TU = trainingFacts(Context);
  const FunctionDecl *Function = utils::enclosingFunction(Found, TU.Parents);
  // At namespace scope (a static initializer) we cannot tell what runs
  // under it; stay silent.
  if (!Function)
    return;
  // Code that only runs a backward pass once (a gradient check, a
  // debugging helper) is where anomaly detection belongs.
  if (!analysis::isTrainingCode(Function, Context, TU.Loops))
    return;

  if (IsGuard)
    diag(Found->getBeginLoc(),
         "'DetectAnomalyGuard' enables autograd anomaly detection in training "
         "code: every forward op records a stack trace and every backward "
         "checks for NaNs, which slows each step; remove it once debugging "
         "is done");
  else {
    auto Diag =
        diag(Found->getBeginLoc(),
             "'AnomalyMode::set_enabled(true)' enables autograd anomaly "
             "detection in training code: every forward op records a stack "
             "trace and every backward checks for NaNs, which slows each "
             "step; remove it once debugging is done");
    // Deleting the statement changes no computed value: anomaly mode only
    // records traces and checks gradients (one host read per gradient,
    // `aten::_local_scalar_dense`, measured with LibTorch 1.13). A guard is
    // a declaration whose scope may matter to the reader; it gets the note.
    if (std::optional<FixItHint> Fix =
            utils::statementRemoval(cast<CallExpr>(Found), Context, TU.Parents))
      Diag << *Fix;
  }
  diag(Found->getBeginLoc(),
       "enable it only behind a debug flag, e.g. "
       "'torch::autograd::AnomalyMode::set_enabled(options.debug);'",
       DiagnosticIDs::Note);
}

} // namespace clang::tidy::libtorch
