//===--- InputNotOnDeviceCheck.h - libtorch-tidy ----------------*- C++ -*-===//
//
// Part of libtorch-tidy. SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

#ifndef LIBTORCH_TIDY_CHECKS_INPUTNOTONDEVICECHECK_H
#define LIBTORCH_TIDY_CHECKS_INPUTNOTONDEVICECHECK_H

#include "LibTorchCheck.h"
#include "analysis/devices/ModulePlacement.h"
#include "llvm/ADT/DenseMap.h"
#include <memory>

namespace clang::tidy::libtorch {

/// Finds data-loader batch tensors used with a model or tensors on the GPU
/// without being copied there.
///
/// For the user-facing documentation see:
/// docs/checks/libtorch-input-not-on-device.md
class InputNotOnDeviceCheck : public LibTorchCheck {
public:
  using LibTorchCheck::LibTorchCheck;
  void registerUserCodeMatchers(ast_matchers::MatchFinder *Finder) override;
  void check(const ast_matchers::MatchFinder::MatchResult &Result) override;

private:
  /// A tensor on a (maybe-)CUDA device: made or moved there, or the output
  /// of a module moved there.
  bool isOnDevice(const Expr *E, ASTContext &Context, unsigned Depth);
  /// The module was moved to a (maybe-)CUDA device here or by a caller.
  bool isModuleOnDevice(const ValueDecl *Module, ASTContext &Context);

  /// Per loader type: whether its dataset may already place tensors.
  utils::PerUnit<llvm::DenseMap<const CXXRecordDecl *, bool>> LoaderVerdict{
      unitScope()};
};

} // namespace clang::tidy::libtorch

#endif // LIBTORCH_TIDY_CHECKS_INPUTNOTONDEVICECHECK_H
