//===--- CudnnBenchmarkCheck.cpp - libtorch-tidy -----------------------===//
//
// Part of libtorch-tidy. SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

#include "CudnnBenchmarkCheck.h"
#include "analysis/LoopMatchers.h"
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

void CudnnBenchmarkCheck::registerUserCodeMatchers(MatchFinder *Finder) {
  // One CUDA training loop of the TU carries the finding (check()).
  analysis::addLoopMatchers(*Finder, this);
}

void CudnnBenchmarkCheck::check(const MatchFinder::MatchResult &Result) {
  ASTContext &Context = *Result.Context;
  const auto *Loop = Result.Nodes.getNodeAs<Stmt>("loop");
  analysis::CudaTrainingFacts &Cuda =
      CudaFacts.get(Context, trainingFacts(Context));
  // One finding per translation unit, on the first CUDA training loop that
  // `main` runs (or the first one, when `main` runs none or is elsewhere).
  analysis::ProgramEntry &Program = Programs.get(Context, parents(Context));
  if (Loop != Program.settingLoop(Cuda.cudaTrainingLoops()))
    return;
  if (!Cuda.buildsConvolutionModules())
    return;
  // Set either way, or determinism asked for (the autotuner picks
  // algorithms by timing, which is not deterministic).
  if (Cuda.callsContextMethod("setBenchmarkCuDNN") ||
      Cuda.callsContextMethod("setDeterministicCuDNN") ||
      Cuda.callsContextMethod("setDeterministicAlgorithms"))
    return;

  // A global setting belongs at the start of the program. tf32-disabled and
  // cudnn-benchmark use different slots there, so both fixes apply at once.
  analysis::reportMissingSetting(
      *this, *Loop, Message, Setting, analysis::SetupSlot::BeforeFirstStatement,
      Program.main(), Program.reaches(*Loop), Context);
}

} // namespace clang::tidy::libtorch
