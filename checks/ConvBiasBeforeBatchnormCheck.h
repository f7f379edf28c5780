//===--- ConvBiasBeforeBatchnormCheck.h - libtorch-tidy ---------*- C++ -*-===//
//
// Part of libtorch-tidy. SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

#ifndef LIBTORCH_TIDY_CHECKS_CONVBIASBEFOREBATCHNORMCHECK_H
#define LIBTORCH_TIDY_CHECKS_CONVBIASBEFOREBATCHNORMCHECK_H

#include "LibTorchCheck.h"
#include "analysis/vocabulary/ConvolutionModules.h"
#include "llvm/ADT/SmallPtrSet.h"

namespace clang::tidy::libtorch {

/// Finds convolutions built with a bias (the default of `Conv*dOptions`)
/// whose output goes straight into a `BatchNorm*d`: in a
/// `torch::nn::Sequential(...)` argument list, as `bn(conv(x))`, or as
/// `x = conv(x); x = bn(x);`. Batch norm subtracts the per-channel mean, so
/// the bias is wasted work and memory. Fix-it: `.bias(false)`.
///
/// For the user-facing documentation see:
/// docs/checks/libtorch-conv-bias-before-batchnorm.md
class ConvBiasBeforeBatchnormCheck : public LibTorchCheck {
public:
  using LibTorchCheck::LibTorchCheck;
  void registerUserCodeMatchers(ast_matchers::MatchFinder *Finder) override;
  void check(const ast_matchers::MatchFinder::MatchResult &Result) override;

private:
  void report(const analysis::ConvConstruction &Conv, const Expr *BatchNorm,
              QualType BatchNormType, ASTContext &Context);
  /// The convolution constructions already reported in this TU (a module
  /// used in several places is reported once).
  utils::PerUnit<llvm::SmallPtrSet<const Expr *, 8>> Reported{unitScope()};
};

} // namespace clang::tidy::libtorch

#endif // LIBTORCH_TIDY_CHECKS_CONVBIASBEFOREBATCHNORMCHECK_H
