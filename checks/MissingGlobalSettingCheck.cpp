//===--- MissingGlobalSettingCheck.cpp - libtorch-tidy --------------------===//
//
// Part of libtorch-tidy. SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

#include "MissingGlobalSettingCheck.h"
#include "utils/LoopMatchers.h"
#include "clang/AST/ASTContext.h"
#include "clang/ASTMatchers/ASTMatchFinder.h"

using namespace clang::ast_matchers;

namespace clang::tidy::libtorch {

void MissingGlobalSettingCheck::registerUserCodeMatchers(MatchFinder *Finder) {
  // One CUDA training loop of the TU carries the finding (check()).
  utils::addLoopMatchers(*Finder, this);
}

void MissingGlobalSettingCheck::check(const MatchFinder::MatchResult &Result) {
  ASTContext &Context = *Result.Context;
  const auto *Loop = Result.Nodes.getNodeAs<Stmt>("loop");
  analysis::CudaTrainingFacts &Cuda = cudaTrainingFacts(Context);
  // One finding per translation unit, on the first CUDA training loop that
  // `main` runs (or the first one, when `main` runs none or is elsewhere).
  analysis::ProgramEntry &Program = programEntry(Context);
  if (Loop != Program.settingLoop(Cuda.cudaTrainingLoops()))
    return;
  if (!lacksSetting(Cuda))
    return;

  const FunctionDecl *Main = Program.main();
  const bool MainRunsLoop = Program.reaches(*Loop);
  std::optional<FixItHint> Fix;
  if (Main && MainRunsLoop && analysis::declaresGlobalContext(Context))
    Fix = analysis::insertFirstInMain(*Main, Statement, Slot,
                                      Context.getSourceManager(),
                                      Context.getLangOpts());
  {
    auto Diag = diag(Loop->getBeginLoc(), Finding);
    if (Fix)
      Diag << *Fix;
  }
  if (Fix)
    return;
  if (Main && !MainRunsLoop)
    diag(Loop->getBeginLoc(),
         "'main' in this file does not run this training loop: call '%0' "
         "once at the start of the 'main' of the program that trains with it",
         DiagnosticIDs::Note)
        << Statement;
  else
    diag(Loop->getBeginLoc(),
         "call '%0' once at the start of 'main', before the model is built",
         DiagnosticIDs::Note)
        << Statement;
}

} // namespace clang::tidy::libtorch
