//===--- EmptyCacheInLoopCheck.cpp - libtorch-tidy ------------------------===//
//
// Part of libtorch-tidy. SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

#include "EmptyCacheInLoopCheck.h"
#include "analysis/vocabulary/LibTorchNames.h"
#include "clang-compat/ClangCompat.h"
#include "utils/StatementRemoval.h"
#include "clang/AST/ASTContext.h"
#include "clang/ASTMatchers/ASTMatchFinder.h"

using namespace clang::ast_matchers;

namespace clang::tidy::libtorch {

void EmptyCacheInLoopCheck::registerUserCodeMatchers(MatchFinder *Finder) {
  Finder->addMatcher(callExpr(unless(isExpansionInSystemHeader()),
                              callee(functionDecl(hasName(names::EmptyCache))))
                         .bind("call"),
                     this);
}

void EmptyCacheInLoopCheck::check(const MatchFinder::MatchResult &Result) {
  const auto *Call = Result.Nodes.getNodeAs<CallExpr>("call");
  ASTContext &Context = *Result.Context;
  analysis::TrainingFacts &TU = trainingFacts(Context);
  // Once after training, once per epoch or every N steps under a periodic
  // guard is how the cache is meant to be trimmed: not a finding.
  if (!TU.Loops.perStep(Call))
    return;
  auto Diag = diag(compat::beginOf(*Call),
                   "'emptyCache()' on every training step returns the cached "
                   "GPU memory to the driver, so the next step allocates it "
                   "again with cudaMalloc, which synchronizes; remove it");
  // A call spelled in a macro is left alone: the macro has other users.
  if (compat::beginOf(*Call).isMacroID() || Call->getEndLoc().isMacroID())
    return;
  if (std::optional<FixItHint> Fix =
          utils::statementRemoval(Call, Context, parents(Context)))
    Diag << *Fix;
}

} // namespace clang::tidy::libtorch
