//===--- CudnnBenchmarkCheck.h - libtorch-tidy ------------------*- C++ -*-===//
//
// Part of libtorch-tidy. SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

#ifndef LIBTORCH_TIDY_CHECKS_CUDNNBENCHMARKCHECK_H
#define LIBTORCH_TIDY_CHECKS_CUDNNBENCHMARKCHECK_H

#include "LibTorchCheck.h"
#include "analysis/CudaTrainingFacts.h"

namespace clang::tidy::libtorch {

/// Finds CUDA training programs with convolution modules that never enable
/// the cuDNN autotuner (`setBenchmarkCuDNN(true)`). Reported once per
/// translation unit, at its first CUDA training loop; the fix-it goes first
/// in `main`.
///
/// For the user-facing documentation see:
/// docs/checks/libtorch-cudnn-benchmark.md
class CudnnBenchmarkCheck : public LibTorchCheck {
public:
  using LibTorchCheck::LibTorchCheck;
  void registerUserCodeMatchers(ast_matchers::MatchFinder *Finder) override;
  void check(const ast_matchers::MatchFinder::MatchResult &Result) override;
  void onEndOfTranslationUnit() override {
    CudaFacts.reset();
    LibTorchCheck::onEndOfTranslationUnit();
  }

private:
  analysis::CudaTrainingFactsCache CudaFacts;
};

} // namespace clang::tidy::libtorch

#endif // LIBTORCH_TIDY_CHECKS_CUDNNBENCHMARKCHECK_H
