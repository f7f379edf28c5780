//===--- DataloaderEnforceOrderingCheck.cpp - libtorch-tidy ---------------===//
//
// Part of libtorch-tidy. SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

#include "DataloaderEnforceOrderingCheck.h"
#include "analysis/data/DataLoaderOptionsModel.h"
#include "analysis/vocabulary/LibTorchNames.h"
#include "clang-compat/ClangCompat.h"
#include "utils/CallArguments.h"
#include "utils/FixIts.h"
#include "utils/SourceText.h"
#include "clang/AST/ASTContext.h"
#include "clang/ASTMatchers/ASTMatchFinder.h"

using namespace clang::ast_matchers;

namespace clang::tidy::libtorch {

using analysis::LoaderOptionsFacts;

void DataloaderEnforceOrderingCheck::registerUserCodeMatchers(
    MatchFinder *Finder) {
  // LibTorch's own headers forward options between overloads: user code only.
  Finder->addMatcher(
      callExpr(unless(isExpansionInSystemHeader()),
               callee(functionDecl(hasName(names::MakeDataLoader))))
          .bind("call"),
      this);
}

void DataloaderEnforceOrderingCheck::check(
    const MatchFinder::MatchResult &Result) {
  const auto *Call = Result.Nodes.getNodeAs<CallExpr>("call");
  const Expr *OptionsArg = analysis::findLoaderOptionsArgument(*Call);
  if (!OptionsArg)
    return;
  const utils::UserCodeParents &UserParents = parents(*Result.Context);
  const FunctionDecl *Callable = utils::enclosingCallable(Call, UserParents);
  const LoaderOptionsFacts Facts = analysis::analyzeLoaderOptions(
      OptionsArg, Callable ? Callable->getBody() : nullptr, *Result.Context,
      UserParents);
  // Without workers there is nothing to reorder (that is
  // libtorch-dataloader-no-workers' finding); options we cannot read are
  // not ours to judge.
  if (Facts.Origin == LoaderOptionsFacts::OriginKind::Opaque ||
      (Facts.Workers != LoaderOptionsFacts::WorkersKind::LiteralPositive &&
       Facts.Workers != LoaderOptionsFacts::WorkersKind::NonLiteral))
    return;
  const Expr *Ordering = Facts.setterArgument("enforce_ordering");
  std::optional<bool> Literal = utils::literalBool(Ordering);
  // enforce_ordering(false), or a value we cannot know: silent.
  if (Ordering && Literal != std::optional<bool>(true))
    return;

  SourceLocation ReportLoc = compat::beginOf(*Call);
  if (const auto *Ref =
          dyn_cast<DeclRefExpr>(Call->getCallee()->IgnoreImplicit()))
    ReportLoc = Ref->getLocation();
  auto Diag = diag(ReportLoc,
                   "data loader delivers batches in sampler order: one slow "
                   "batch holds back the ready ones behind it; use "
                   "'.enforce_ordering(false)' if batch order does not matter");

  const SourceManager &SM = *Result.SourceManager;
  // No fix-it inside macro expansions.
  if (Ordering) {
    if (utils::isRewritable(Ordering->getSourceRange()))
      Diag << FixItHint::CreateReplacement(Ordering->getSourceRange(), "false");
    return;
  }
  if (Facts.AppendAfter)
    if (std::optional<FixItHint> Insert = utils::insertionAfter(
            *Facts.AppendAfter, ".enforce_ordering(false)", SM, getLangOpts()))
      Diag << *Insert;
}

} // namespace clang::tidy::libtorch
