//===--- ConvolutionModules.h - How conv modules are built/used -*- C++ -*-===//
//
// Part of libtorch-tidy. SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//
//
// Where a `torch::nn::Conv*d` module is constructed, whether its options
// keep the default bias, and where a module held by a `ModuleHolder` is
// called (`conv(x)`, `conv->forward(x)`). Used to find a convolution whose
// output goes straight into a batch norm.
//
//===----------------------------------------------------------------------===//

#ifndef LIBTORCH_TIDY_CHECKS_ANALYSIS_VOCABULARY_CONVOLUTIONMODULES_H
#define LIBTORCH_TIDY_CHECKS_ANALYSIS_VOCABULARY_CONVOLUTIONMODULES_H

#include "clang/AST/ASTContext.h"
#include "clang/AST/ExprCXX.h"
#include <optional>

namespace clang::tidy::libtorch::analysis {

enum class ConvBias {
  Default,      ///< no `.bias(...)`: ConvOptions' default, true
  ExplicitTrue, ///< `.bias(true)`
  Off,          ///< `.bias(false)`
  Unknown,      ///< `.bias(flag)`, or options we cannot see into
};

struct ConvConstruction {
  /// The construction of the module (holder or `Conv*dImpl`).
  const CXXConstructExpr *Module = nullptr;
  /// The options expression passed to it; null for `Conv2d(in, out, k)`.
  const Expr *Options = nullptr;
  ConvBias Bias = ConvBias::Unknown;
  /// The literal `true` of `.bias(true)`.
  const Expr *BiasArgument = nullptr;
};

/// How \p E builds a convolution module: `Conv2d(Conv2dOptions(...)...)`,
/// `Conv2d(in, out, kernel)`, also through `register_module(name, ...)`.
std::optional<ConvConstruction> convConstruction(const Expr *E);

/// The one construction of the convolution module that \p Holder (a local
/// variable or a member of a module class) refers to: its initializer, or the
/// member's in-class initializer, constructor initializers and assignments
/// in the class's methods. Nothing when there is not exactly one.
std::optional<ConvConstruction> constructionOfHolder(const Expr *Holder,
                                                     ASTContext &Context);

/// A call of a module: `m(x)` on a ModuleHolder, or `m->forward(x)`.
struct ModuleCall {
  const Expr *Holder = nullptr; ///< the expression naming the module
  const Expr *Input = nullptr;  ///< the first argument
};
std::optional<ModuleCall> moduleCall(const Expr *E);

/// The LibTorch holder or options class of a convolution
/// (`torch::nn::Conv2d`, `torch::nn::ConvOptions<2>`, ...).
bool isConvolutionModuleType(QualType Type);
bool isConvolutionOptionsType(QualType Type);

/// `torch::nn::BatchNorm1d/2d/3d` (holder or Impl).
bool isBatchNormModuleType(QualType Type);

/// \p E without the implicit nodes, parentheses, temporaries and copies
/// that passing a module or options around adds.
const Expr *stripModuleValue(const Expr *E);

} // namespace clang::tidy::libtorch::analysis

#endif // LIBTORCH_TIDY_CHECKS_ANALYSIS_VOCABULARY_CONVOLUTIONMODULES_H
