//===--- ConvBiasBeforeBatchnormCheck.cpp - libtorch-tidy -----------------===//
//
// Part of libtorch-tidy. SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

#include "ConvBiasBeforeBatchnormCheck.h"
#include "analysis/devices/ModuleCallChains.h"
#include "analysis/vocabulary/ConvolutionModules.h"
#include "analysis/vocabulary/LibTorchNames.h"
#include "utils/FixIts.h"
#include "utils/SourceText.h"
#include "clang/AST/ASTContext.h"
#include "clang/ASTMatchers/ASTMatchFinder.h"

using namespace clang::ast_matchers;

namespace clang::tidy::libtorch {

namespace {

using analysis::ConvBias;
using analysis::ConvConstruction;
using analysis::moduleCall;
using analysis::stripModuleValue;

} // namespace

void ConvBiasBeforeBatchnormCheck::registerUserCodeMatchers(
    MatchFinder *Finder) {
  Finder->addMatcher(
      cxxConstructExpr(unless(isExpansionInSystemHeader()),
                       hasType(cxxRecordDecl(hasAnyName(
                           names::Sequential, names::SequentialImpl))))
          .bind("sequential"),
      this);
  // Module calls; which module is decided in check(). Two matchers, not
  // expr(anyOf(...)), so that each is tried on its own node kind only.
  Finder->addMatcher(cxxOperatorCallExpr(unless(isExpansionInSystemHeader()),
                                         hasOverloadedOperatorName("()"))
                         .bind("call"),
                     this);
  Finder->addMatcher(
      cxxMemberCallExpr(unless(isExpansionInSystemHeader()),
                        callee(cxxMethodDecl(hasName("forward"))))
          .bind("call"),
      this);
}

void ConvBiasBeforeBatchnormCheck::check(
    const MatchFinder::MatchResult &Result) {
  ASTContext &Context = *Result.Context;
  if (const auto *Sequential =
          Result.Nodes.getNodeAs<CXXConstructExpr>("sequential")) {
    // Sequential(conv, bn, ...): each convolution followed by a batch norm.
    for (unsigned I = 0; I + 1 < Sequential->getNumArgs(); ++I) {
      const Expr *Next = stripModuleValue(Sequential->getArg(I + 1));
      if (!analysis::isBatchNormModuleType(Next->getType()))
        continue;
      if (std::optional<ConvConstruction> Conv =
              analysis::convConstruction(Sequential->getArg(I)))
        report(*Conv, Next, Next->getType(), Context);
    }
    return;
  }

  const auto *Call = Result.Nodes.getNodeAs<Expr>("call");
  std::optional<analysis::ModuleCall> ConvCall = moduleCall(Call);
  if (!ConvCall ||
      !analysis::isConvolutionModuleType(ConvCall->Holder->getType()))
    return;
  const Expr *BatchNorm = analysis::consumingBatchNorm(Call, parents(Context));
  if (!BatchNorm)
    return;
  const ValueDecl *Holder = analysis::holderDecl(ConvCall->Holder);
  if (!Holder)
    return;
  // A convolution whose output also goes elsewhere needs its bias there.
  std::optional<llvm::SmallVector<const Expr *, 4>> Calls =
      analysis::callsOfHolder(Holder, Call, parents(Context));
  if (!Calls)
    return;
  for (const Expr *Other : *Calls)
    if (!analysis::consumingBatchNorm(Other, parents(Context)))
      return;
  if (std::optional<ConvConstruction> Conv =
          analysis::constructionOfHolder(ConvCall->Holder, Context))
    report(*Conv, BatchNorm, moduleCall(BatchNorm)->Holder->getType(), Context);
}

void ConvBiasBeforeBatchnormCheck::report(const ConvConstruction &Conv,
                                          const Expr *BatchNorm,
                                          QualType BatchNormType,
                                          ASTContext &Context) {
  if (Conv.Bias != ConvBias::Default && Conv.Bias != ConvBias::ExplicitTrue)
    return;
  if (!Reported.get(Context).insert(Conv.Module).second)
    return;
  const SourceManager &SM = Context.getSourceManager();
  const LangOptions &LangOpts = getLangOpts();

  std::string OptionsClass = Conv.Module->getType()
                                 .getNonReferenceType()
                                 ->getAsCXXRecordDecl()
                                 ->getQualifiedNameAsString();
  StringRef ModuleName = StringRef(OptionsClass).rsplit("::").second;
  ModuleName.consume_back("Impl");
  StringRef BatchNormName = StringRef(
      BatchNormType.getNonReferenceType()->getAsCXXRecordDecl()->getName());
  BatchNormName.consume_back("Impl");

  llvm::SmallVector<FixItHint, 2> Fixes;
  if (Conv.Bias == ConvBias::ExplicitTrue) {
    if (utils::isRewritable(Conv.BiasArgument->getSourceRange()))
      Fixes.push_back(FixItHint::CreateReplacement(
          Conv.BiasArgument->getSourceRange(), "false"));
  } else if (Conv.Options) {
    if (std::optional<FixItHint> Insert =
            utils::insertionAfter(*Conv.Options, ".bias(false)", SM, LangOpts))
      Fixes.push_back(*Insert);
  } else if (SourceRange Parens = Conv.Module->getParenOrBraceRange();
             utils::isRewritable(Parens) &&
             utils::isRewritable(Conv.Module->getSourceRange())) {
    // Conv2d(in, out, k) -> Conv2d(Conv2dOptions(in, out, k).bias(false)).
    // Rewritable: the parentheses are.
    Fixes.push_back(*utils::insertionAfter(
        Parens.getBegin(), ("torch::nn::" + ModuleName + "Options(").str(), SM,
        LangOpts));
    Fixes.push_back(
        FixItHint::CreateInsertion(Parens.getEnd(), ").bias(false)"));
  }

  SourceLocation Loc =
      Conv.Options ? Conv.Options->getBeginLoc() : Conv.Module->getBeginLoc();
  {
    auto Diag = diag(Loc, "'%0' has a bias but its output goes straight into "
                          "'%1', which subtracts the per-channel mean and "
                          "cancels it: the bias costs compute and memory for "
                          "nothing; build it with '.bias(false)'")
                << ModuleName << BatchNormName;
    for (const FixItHint &Fix : Fixes)
      Diag << Fix;
  }
  if (Fixes.empty())
    diag(Loc, "add '.bias(false)' to its '%0Options'", DiagnosticIDs::Note)
        << ModuleName;
  diag(BatchNorm->getBeginLoc(), "the batch norm that follows it",
       DiagnosticIDs::Note);
}

} // namespace clang::tidy::libtorch
