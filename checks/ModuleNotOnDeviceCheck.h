//===--- ModuleNotOnDeviceCheck.h - libtorch-tidy ---------------*- C++ -*-===//
//
// Part of libtorch-tidy. SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

#ifndef LIBTORCH_TIDY_CHECKS_MODULENOTONDEVICECHECK_H
#define LIBTORCH_TIDY_CHECKS_MODULENOTONDEVICECHECK_H

#include "LibTorchCheck.h"
#include "analysis/devices/ModulePlacement.h"
#include "llvm/ADT/DenseSet.h"
#include <memory>

namespace clang::tidy::libtorch {

/// Finds modules trained on device inputs (or with a CUDA device in scope)
/// that are never moved with `->to(device)`: their forward and backward
/// passes run on the CPU.
///
/// For the user-facing documentation see:
/// docs/checks/libtorch-module-not-on-device.md
class ModuleNotOnDeviceCheck : public LibTorchCheck {
public:
  using LibTorchCheck::LibTorchCheck;
  void registerUserCodeMatchers(ast_matchers::MatchFinder *Finder) override;
  void check(const ast_matchers::MatchFinder::MatchResult &Result) override;

private:
  bool asksAboutPeriodicGuards() const override { return true; }
  /// The modules already reported in this TU.
  utils::PerUnit<llvm::DenseSet<const ValueDecl *>> Reported{unitScope()};
};

} // namespace clang::tidy::libtorch

#endif // LIBTORCH_TIDY_CHECKS_MODULENOTONDEVICECHECK_H
