//===--- MissingAutocastCheck.cpp - libtorch-tidy -------------------------===//
//
// Part of libtorch-tidy. SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

#include "MissingAutocastCheck.h"
#include "analysis/program/ProgramSetup.h"
#include "utils/LoopMatchers.h"
#include "clang/AST/ASTContext.h"
#include "clang/ASTMatchers/ASTMatchFinder.h"

using namespace clang::ast_matchers;

namespace clang::tidy::libtorch {

namespace {

/// The autocast code for the LibTorch the code is compiled against. The
/// device-generic API (`set_autocast_enabled(at::kCUDA, ...)`) arrived in
/// 2.4, which deprecated the CUDA-only `set_enabled(bool)` of 1.x-2.3.
std::string autocastSuggestion(std::optional<analysis::LibTorchVersion> V) {
  const bool DeviceGeneric = V && V->atLeast(2, 4);
  std::string Enable, Disable, Dtype;
  if (DeviceGeneric) {
    Dtype = "at::autocast::set_autocast_dtype(at::kCUDA, at::kBFloat16);";
    Enable = "at::autocast::set_autocast_enabled(at::kCUDA, true);";
    Disable = "at::autocast::set_autocast_enabled(at::kCUDA, false);";
  } else {
    Dtype = "at::autocast::set_autocast_gpu_dtype(at::kBFloat16);";
    Enable = "at::autocast::set_enabled(true);";
    Disable = "at::autocast::set_enabled(false);";
  }
  return "include <ATen/autocast_mode.h> and run the forward pass and the "
         "loss under bfloat16 autocast: '" +
         Dtype + " " + Enable +
         " auto loss = ...; at::autocast::clear_cache(); " + Disable +
         " loss.backward();' (LibTorch has no C++ GradScaler: float16 would "
         "need manual loss scaling)";
}

} // namespace

void MissingAutocastCheck::registerUserCodeMatchers(MatchFinder *Finder) {
  // Which loops train on the GPU is decided in check(), once per TU.
  utils::addLoopMatchers(*Finder, this);
}

void MissingAutocastCheck::check(const MatchFinder::MatchResult &Result) {
  ASTContext &Context = *Result.Context;
  const auto *Loop = Result.Nodes.getNodeAs<Stmt>("loop");
  analysis::CudaTrainingFacts &Cuda = cudaTrainingFacts(Context);
  // Nested training loops (generator steps around critic steps) share one
  // forward pass's precision: the outermost one carries the finding.
  if (!Cuda.isOutermostCudaTrainingLoop(Loop))
    return;
  // Autocast anywhere in the TU (even switched off, or in a helper we do not
  // follow), or a model run in half / bfloat16: precision was chosen.
  if (Cuda.usesAutocast() || Cuda.namesReducedPrecisionDtype())
    return;

  diag(Loop->getBeginLoc(),
       "CUDA training loop without mixed precision: float32 matmuls and "
       "convolutions leave the GPU's Tensor Cores idle; run the forward pass "
       "under bfloat16 autocast");
  std::optional<analysis::LibTorchVersion> Version;
  if (PP)
    Version = analysis::libTorchVersion(*PP);
  diag(Loop->getBeginLoc(), autocastSuggestion(Version), DiagnosticIDs::Note);
}

} // namespace clang::tidy::libtorch
