//===--- CudnnBenchmarkCheck.cpp - libtorch-tidy -----------------------===//
//
// Part of libtorch-tidy. SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

#include "CudnnBenchmarkCheck.h"
#include "analysis/ProgramSetup.h"
#include "clang/AST/ASTContext.h"
#include "clang/ASTMatchers/ASTMatchFinder.h"

using namespace clang::ast_matchers;

namespace clang::tidy::libtorch {

namespace {

constexpr char Setting[] = "at::globalContext().setBenchmarkCuDNN(true);";
constexpr char Message[] =
    "CUDA training of a convolutional model without the cuDNN autotuner: "
    "every convolution uses cuDNN's heuristic algorithm instead of the "
    "fastest one measured for its shapes; enable "
    "'setBenchmarkCuDNN(true)'";

} // namespace

void CudnnBenchmarkCheck::registerMatchers(MatchFinder *Finder) {
  // The first CUDA training loop of the TU carries the finding (check()).
  Finder->addMatcher(
      stmt(unless(isExpansionInSystemHeader()),
           anyOf(forStmt(), cxxForRangeStmt(), whileStmt(), doStmt()))
          .bind("loop"),
      this);
}

void CudnnBenchmarkCheck::check(const MatchFinder::MatchResult &Result) {
  ASTContext &Context = *Result.Context;
  const auto *Loop = Result.Nodes.getNodeAs<Stmt>("loop");
  analysis::CudaTrainingFacts &Cuda =
      CudaFacts.get(Context, trainingFacts(Context));
  llvm::ArrayRef<const Stmt *> Loops = Cuda.cudaTrainingLoops();
  if (Loops.empty() || Loops.front() != Loop)
    return;
  if (!Cuda.buildsConvolutionModules())
    return;
  // Set either way, or determinism asked for (the autotuner picks
  // algorithms by timing, which is not deterministic).
  if (Cuda.callsContextMethod("setBenchmarkCuDNN") ||
      Cuda.callsContextMethod("setDeterministicCuDNN") ||
      Cuda.callsContextMethod("setDeterministicAlgorithms"))
    return;

  // A global setting belongs at the start of the program. Without `main` in
  // this TU (or where we cannot rewrite it) the user places it.
  std::optional<FixItHint> Fix;
  if (const FunctionDecl *Main = Cuda.mainDefinition();
      Main && analysis::declaresGlobalContext(Context))
    Fix = analysis::insertFirstInMain(*Main, Setting, *Result.SourceManager,
                                      getLangOpts());
  {
    auto Diag = diag(Loop->getBeginLoc(), Message);
    if (Fix)
      Diag << *Fix;
  }
  if (!Fix)
    diag(Loop->getBeginLoc(),
         "call '%0' once at the start of 'main', before the model is built",
         DiagnosticIDs::Note)
        << Setting;
}

} // namespace clang::tidy::libtorch
