//===--- DataParallelCheck.cpp - libtorch-tidy ----------------------------===//
//
// Part of libtorch-tidy. SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

#include "DataParallelCheck.h"
#include "analysis/vocabulary/LibTorchNames.h"
#include "clang-compat/ClangCompat.h"
#include "clang/AST/ASTContext.h"
#include "clang/ASTMatchers/ASTMatchFinder.h"

using namespace clang::ast_matchers;

namespace clang::tidy::libtorch {

void DataParallelCheck::registerUserCodeMatchers(MatchFinder *Finder) {
  Finder->addMatcher(
      callExpr(unless(isExpansionInSystemHeader()),
               callee(functionDecl(hasName(names::DataParallel))))
          .bind("call"),
      this);
}

void DataParallelCheck::check(const MatchFinder::MatchResult &Result) {
  ASTContext &Context = *Result.Context;
  const auto *Call = Result.Nodes.getNodeAs<CallExpr>("call");
  // Once per epoch, under a periodic guard, in an evaluation pass or outside
  // training, the replication cost is paid rarely; only per-step calls count.
  if (!trainingFacts(Context).Loops.perStep(Call))
    return;
  diag(compat::beginOf(*Call),
       "'data_parallel' on every training step copies the module's "
       "parameters and buffers to every GPU on each call, then gathers the "
       "outputs and reduces the gradients onto one device; keep one model "
       "replica per GPU for the whole run instead");
  diag(compat::beginOf(*Call),
       "run one process per GPU, each with its own model and data shard, "
       "and all-reduce the gradients after backward with a c10d process "
       "group (ProcessGroupNCCL); or train on one GPU with a larger batch",
       DiagnosticIDs::Note);
}

} // namespace clang::tidy::libtorch
