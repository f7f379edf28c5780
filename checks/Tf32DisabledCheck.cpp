//===--- Tf32DisabledCheck.cpp - libtorch-tidy -------------------------===//
//
// Part of libtorch-tidy. SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

#include "Tf32DisabledCheck.h"
#include "analysis/LoopMatchers.h"
#include "analysis/ProgramSetup.h"
#include "clang/AST/ASTContext.h"
#include "clang/ASTMatchers/ASTMatchFinder.h"

using namespace clang::ast_matchers;

namespace clang::tidy::libtorch {

namespace {

constexpr char Setting[] =
    "at::globalContext().setFloat32MatmulPrecision(\"high\");";
constexpr char Message[] =
    "float32 CUDA training without TF32: every matmul runs in full float32 "
    "precision and leaves the Tensor Cores of Ampere and newer GPUs idle; "
    "allow TF32 with 'setFloat32MatmulPrecision(\"high\")'";

} // namespace

void Tf32DisabledCheck::registerUserCodeMatchers(MatchFinder *Finder) {
  // One CUDA training loop of the TU carries the finding (check()).
  analysis::addLoopMatchers(*Finder, this);
}

void Tf32DisabledCheck::check(const MatchFinder::MatchResult &Result) {
  ASTContext &Context = *Result.Context;
  const auto *Loop = Result.Nodes.getNodeAs<Stmt>("loop");
  analysis::CudaTrainingFacts &Cuda =
      CudaFacts.get(Context, trainingFacts(Context));
  // One finding per translation unit, on the first CUDA training loop that
  // `main` runs (or the first one, when `main` runs none or is elsewhere).
  analysis::ProgramEntry &Program = Programs.get(Context, parents(Context));
  if (Loop != Program.settingLoop(Cuda.cudaTrainingLoops()))
    return;
  // The precision was chosen (either spelling, any value), or the model
  // already runs in half / bfloat16, where TF32 hardly matters.
  if (Cuda.callsContextMethod("setFloat32MatmulPrecision") ||
      Cuda.callsContextMethod("setAllowTF32CuBLAS") || Cuda.usesAutocast() ||
      Cuda.namesReducedPrecisionDtype())
    return;

  // A global setting belongs at the start of the program. tf32-disabled and
  // cudnn-benchmark use different slots there, so both fixes apply at once.
  analysis::reportMissingSetting(
      *this, *Loop, Message, Setting, analysis::SetupSlot::AfterBrace,
      Program.main(), Program.reaches(*Loop), Context);
}

} // namespace clang::tidy::libtorch
