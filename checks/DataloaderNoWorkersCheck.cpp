//===--- DataloaderNoWorkersCheck.cpp - libtorch-tidy ---------------------===//
//
// Part of libtorch-tidy. SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

#include "DataloaderNoWorkersCheck.h"
#include "analysis/DataLoaderOptionsModel.h"
#include "analysis/LibTorchNames.h"
#include "clang/AST/ASTContext.h"
#include "clang/ASTMatchers/ASTMatchFinder.h"
#include "clang/Lex/Lexer.h"
#include <optional>

using namespace clang::ast_matchers;

namespace clang::tidy::libtorch {

using analysis::LoaderOptionsFacts;

DataloaderNoWorkersCheck::DataloaderNoWorkersCheck(StringRef Name,
                                                   ClangTidyContext *Context)
    : ClangTidyCheck(Name, Context),
      Workers(std::max(1U, Options.get("Workers", 4U))) {}

void DataloaderNoWorkersCheck::storeOptions(ClangTidyOptions::OptionMap &Opts) {
  Options.store(Opts, "Workers", Workers);
}

void DataloaderNoWorkersCheck::registerMatchers(MatchFinder *Finder) {
  const auto MakeDataLoader = functionDecl(hasName(names::MakeDataLoader));
  const auto EnclosingBody =
      forCallable(functionDecl(hasBody(stmt().bind("body"))));
  // LibTorch's own headers call make_data_loader too (the overload without a
  // sampler forwards its options); only user code is ours to judge.
  Finder->addMatcher(callExpr(callee(MakeDataLoader),
                              unless(isExpansionInSystemHeader()),
                              optionally(EnclosingBody))
                         .bind("call"),
                     this);
}

namespace {

std::optional<StringRef> sourceText(const Expr *E, const SourceManager &SM,
                                    const LangOptions &LangOpts) {
  if (E->getBeginLoc().isMacroID() || E->getEndLoc().isMacroID())
    return std::nullopt;
  StringRef Text = Lexer::getSourceText(
      CharSourceRange::getTokenRange(E->getSourceRange()), SM, LangOpts);
  if (Text.empty())
    return std::nullopt;
  return Text;
}

std::string workersSetter(unsigned Workers) {
  return "workers(" + std::to_string(Workers) + ")";
}

/// The rewrite that makes the options ask for \p Workers threads, if the source
/// spells out the place to change. Never inside macro expansions.
std::optional<FixItHint> makeFix(const CallExpr &Call,
                                 const LoaderOptionsFacts &Facts,
                                 unsigned Workers, const SourceManager &SM,
                                 const LangOptions &LangOpts) {
  if (Facts.Workers == LoaderOptionsFacts::WorkersKind::LiteralZero) {
    if (!sourceText(Facts.WorkersArg, SM, LangOpts))
      return std::nullopt;
    return FixItHint::CreateReplacement(Facts.WorkersArg->getSourceRange(),
                                        std::to_string(Workers));
  }
  const std::string Setter = workersSetter(Workers);
  switch (Facts.Origin) {
  case LoaderOptionsFacts::OriginKind::BareBatchSize:
    if (auto BatchSize = sourceText(Facts.BatchSizeArg, SM, LangOpts))
      return FixItHint::CreateReplacement(
          Facts.BatchSizeArg->getSourceRange(),
          ("torch::data::DataLoaderOptions().batch_size(" + *BatchSize + ")." +
           Setter)
              .str());
    return std::nullopt;
  case LoaderOptionsFacts::OriginKind::DefaultArgument:
    if (!Call.getRParenLoc().isFileID() || Call.getNumArgs() == 0 ||
        Call.getArg(0)->getBeginLoc().isMacroID())
      return std::nullopt;
    return FixItHint::CreateInsertion(
        Call.getRParenLoc(), ", torch::data::DataLoaderOptions()." + Setter);
  case LoaderOptionsFacts::OriginKind::SetterChain:
    if (!Facts.AppendAfter || !sourceText(Facts.AppendAfter, SM, LangOpts))
      return std::nullopt;
    return FixItHint::CreateInsertion(
        Lexer::getLocForEndOfToken(Facts.AppendAfter->getEndLoc(), 0, SM,
                                   LangOpts),
        "." + Setter);
  case LoaderOptionsFacts::OriginKind::Opaque:
    return std::nullopt;
  }
  return std::nullopt;
}

} // namespace

void DataloaderNoWorkersCheck::check(const MatchFinder::MatchResult &Result) {
  const auto *Call = Result.Nodes.getNodeAs<CallExpr>("call");
  const auto *Body = Result.Nodes.getNodeAs<Stmt>("body");
  const Expr *OptionsArg = analysis::findLoaderOptionsArgument(*Call);
  if (!OptionsArg)
    return;
  const LoaderOptionsFacts Facts =
      analysis::analyzeLoaderOptions(OptionsArg, Body, *Result.Context);
  // Silent unless the options certainly ask for no workers: a worker count
  // from a variable, a call or a helper may well be positive.
  if (!Facts.hasNoWorkers())
    return;

  const SourceManager &SM = *Result.SourceManager;
  const LangOptions &LangOpts = getLangOpts();
  const std::string Setter = workersSetter(Workers);
  SourceLocation ReportLoc = Call->getBeginLoc();
  if (const auto *Ref =
          dyn_cast<DeclRefExpr>(Call->getCallee()->IgnoreImplicit()))
    ReportLoc = Ref->getLocation();

  {
    auto Diag =
        Facts.Workers == LoaderOptionsFacts::WorkersKind::LiteralZero
            ? diag(ReportLoc, "data loader set to '.workers(0)' loads every "
                              "batch on the training thread while the GPU "
                              "waits; use '.%0' to prepare batches in worker "
                              "threads")
            : diag(ReportLoc, "data loader without worker threads loads every "
                              "batch on the training thread while the GPU "
                              "waits; add '.%0' to its options");
    Diag << Setter;
    if (std::optional<FixItHint> Fix =
            makeFix(*Call, Facts, Workers, SM, LangOpts))
      Diag << *Fix;
  }
  // `DataLoaderOptions opts(64);` has no expression to extend; a new
  // statement would be ours to place, so we only suggest it.
  if (Facts.Workers == LoaderOptionsFacts::WorkersKind::Unset &&
      Facts.Origin == LoaderOptionsFacts::OriginKind::SetterChain &&
      !Facts.AppendAfter && Facts.Variable)
    diag(Facts.Variable->getLocation(),
         "set the worker threads after this declaration: '%0.%1;'",
         DiagnosticIDs::Note)
        << Facts.Variable->getName() << Setter;
}

} // namespace clang::tidy::libtorch
