//===--- LibTorchMatchers.h - AST matchers for LibTorch calls ---*- C++ -*-===//
//
// Part of libtorch-tidy. SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//
//
// The AST matchers several checks register, each a thin wrapper of the
// LibTorchCalls.h predicate that code outside a matcher asks: a check that
// matches `tensor.to(...)` and an analysis that walks to one then agree on
// what a copy to a device is (as clang-tidy's own matcher utilities wrap
// its type predicates).
//
//===----------------------------------------------------------------------===//

#ifndef LIBTORCH_TIDY_CHECKS_ANALYSIS_VOCABULARY_LIBTORCHMATCHERS_H
#define LIBTORCH_TIDY_CHECKS_ANALYSIS_VOCABULARY_LIBTORCHMATCHERS_H

#include "analysis/vocabulary/LibTorchCalls.h"
#include "clang/ASTMatchers/ASTMatchers.h"

namespace clang::tidy::libtorch::analysis::matchers {

/// `tensor.to(...)` or `tensor.cuda(...)` (isTensorDeviceCopy).
AST_MATCHER(CXXMemberCallExpr, tensorToOrCuda) {
  return analysis::isTensorDeviceCopy(&Node);
}

/// A call of one of LibTorch's tensor factories (isTensorFactoryCall).
AST_MATCHER(CallExpr, tensorFactoryCall) {
  return analysis::isTensorFactoryCall(&Node);
}

/// `module->to(...)` on a torch::nn::Module (isModuleToCall).
AST_MATCHER(CXXMemberCallExpr, moduleTo) {
  return analysis::isModuleToCall(&Node);
}

/// `module->to(...)` on a torch::nn::Module or a torch::jit::Module
/// (isModuleToCall with the scripted modules).
AST_MATCHER(CXXMemberCallExpr, anyModuleTo) {
  return analysis::isModuleToCall(&Node, /*WithScripted=*/true);
}

} // namespace clang::tidy::libtorch::analysis::matchers

#endif // LIBTORCH_TIDY_CHECKS_ANALYSIS_VOCABULARY_LIBTORCHMATCHERS_H
