//===--- DataloaderNoWorkersCheck.cpp - libtorch-tidy ---------------------===//
//
// Part of libtorch-tidy. SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

#include "DataloaderNoWorkersCheck.h"
#include "analysis/data/DataLoaderOptionsModel.h"
#include "analysis/vocabulary/LibTorchNames.h"
#include "clang-compat/ClangCompat.h"
#include "utils/AstWalk.h"
#include "utils/FixIts.h"
#include "utils/SourceText.h"
#include "clang/AST/ASTContext.h"
#include "clang/ASTMatchers/ASTMatchFinder.h"
#include "clang/Lex/Lexer.h"
#include <optional>

using namespace clang::ast_matchers;

namespace clang::tidy::libtorch {

using analysis::LoaderOptionsFacts;

DataloaderNoWorkersCheck::DataloaderNoWorkersCheck(StringRef Name,
                                                   ClangTidyContext *Context)
    : LibTorchCheck(Name, Context),
      Workers(std::max(1U, Options.get("Workers", 4U))) {}

void DataloaderNoWorkersCheck::storeOptions(ClangTidyOptions::OptionMap &Opts) {
  LibTorchCheck::storeOptions(Opts);
  Options.store(Opts, "Workers", Workers);
}

void DataloaderNoWorkersCheck::registerUserCodeMatchers(MatchFinder *Finder) {
  const auto MakeDataLoader = functionDecl(hasName(names::MakeDataLoader));
  // LibTorch's own headers call make_data_loader too (the overload without a
  // sampler forwards its options); only user code is ours to judge.
  Finder->addMatcher(
      callExpr(unless(isExpansionInSystemHeader()), callee(MakeDataLoader))
          .bind("call"),
      this);
}

namespace {

std::optional<StringRef> sourceText(const Expr *E, const SourceManager &SM,
                                    const LangOptions &LangOpts) {
  if (!utils::isRewritable(E->getSourceRange()))
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
    return utils::insertionAfter(*Facts.AppendAfter, "." + Setter, SM,
                                 LangOpts);
  case LoaderOptionsFacts::OriginKind::Opaque:
    return std::nullopt;
  }
  return std::nullopt;
}

/// The variable a make_data_loader call initializes, if any.
const VarDecl *loaderVariable(const CallExpr &Call,
                              const utils::UserCodeParents &UserParents) {
  // The loader (a unique_ptr) may be moved into the variable.
  return utils::parentIgnoring(&Call, UserParents,
                               utils::ImplicitWrappers | utils::Construct)
      .Parent.get<VarDecl>();
}

/// A `break` (or `goto`) that leaves \p Loop itself, not a nested loop or
/// switch.
const Stmt *exitOf(const Stmt *S, bool Nested) {
  if (!S)
    return nullptr;
  if (isa<GotoStmt>(S) || (!Nested && isa<BreakStmt>(S)))
    return S;
  bool InnerNested =
      Nested || isa<ForStmt, CXXForRangeStmt, WhileStmt, DoStmt, SwitchStmt>(S);
  for (const Stmt *Child : S->children())
    if (const Stmt *Exit = exitOf(Child, InnerNested))
      return Exit;
  return nullptr;
}

/// The first statement that leaves a loop over the loader created by
/// \p Call before the loader is exhausted.
const Stmt *breakOutOfLoaderLoop(const CallExpr &Call, const Stmt &Body,
                                 ASTContext &Context,
                                 const utils::UserCodeParents &UserParents) {
  const VarDecl *Loader = loaderVariable(Call, UserParents);
  if (!Loader)
    return nullptr;
  const auto UsesLoader =
      hasDescendant(declRefExpr(to(varDecl(equalsNode(Loader)))));
  const auto Loops =
      match(findAll(stmt(anyOf(cxxForRangeStmt(hasRangeInit(UsesLoader)),
                               forStmt(anyOf(hasLoopInit(UsesLoader),
                                             hasCondition(UsesLoader))),
                               whileStmt(hasCondition(UsesLoader))))
                        .bind("loop")),
            Body, Context);
  for (const auto &Bound : Loops) {
    const Stmt *Loop = Bound.getNodeAs<Stmt>("loop");
    if (const Stmt *Exit = exitOf(utils::loopBody(Loop), /*Nested=*/false))
      return Exit;
  }
  return nullptr;
}

} // namespace

void DataloaderNoWorkersCheck::check(const MatchFinder::MatchResult &Result) {
  const auto *Call = Result.Nodes.getNodeAs<CallExpr>("call");
  // The body of the function or lambda around the call, where a local
  // options variable is set up (not `forCallable`: it would index the
  // parents of all of LibTorch).
  const FunctionDecl *Callable =
      utils::enclosingCallable(Call, parents(*Result.Context));
  const Stmt *Body = Callable ? Callable->getBody() : nullptr;
  const Expr *OptionsArg = analysis::findLoaderOptionsArgument(*Call);
  if (!OptionsArg)
    return;
  const LoaderOptionsFacts Facts = analysis::analyzeLoaderOptions(
      OptionsArg, Body, *Result.Context, parents(*Result.Context));
  // Silent unless the options certainly ask for no workers: a worker count
  // from a variable, a call or a helper may well be positive.
  if (!Facts.hasNoWorkers())
    return;

  const SourceManager &SM = *Result.SourceManager;
  const LangOptions &LangOpts = getLangOpts();
  const std::string Setter = workersSetter(Workers);
  SourceLocation ReportLoc = compat::beginOf(*Call);
  if (const auto *Ref =
          dyn_cast<DeclRefExpr>(Call->getCallee()->IgnoreImplicit()))
    ReportLoc = Ref->getLocation();
  // With workers, LibTorch refuses a new pass over a loader whose previous
  // pass was left early: the fix-it would turn a working program into one
  // that throws, so we only suggest it there.
  const Stmt *EarlyExit =
      Body ? breakOutOfLoaderLoop(*Call, *Body, *Result.Context,
                                  parents(*Result.Context))
           : nullptr;

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
    if (!EarlyExit)
      if (std::optional<FixItHint> Fix =
              makeFix(*Call, Facts, Workers, SM, LangOpts))
        Diag << *Fix;
  }
  if (EarlyExit) {
    diag(EarlyExit->getBeginLoc(),
         "no fix-it: this loop leaves the loader early, and with worker "
         "threads a new pass before the last one is exhausted throws "
         "('Attempted to get a new DataLoader iterator while another "
         "iterator is not yet exhausted'); let each pass finish first",
         DiagnosticIDs::Note);
    return;
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
