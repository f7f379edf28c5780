//===--- TensorCreatedOffDeviceCheck.h - libtorch-tidy ----------*- C++ -*-===//
//
// Part of libtorch-tidy. SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

#ifndef LIBTORCH_TIDY_CHECKS_TENSORCREATEDOFFDEVICECHECK_H
#define LIBTORCH_TIDY_CHECKS_TENSORCREATEDOFFDEVICECHECK_H

#include "LibTorchCheck.h"
#include "analysis/BatchScope.h"

namespace clang::tidy::libtorch {

/// Finds tensors made on the host by a factory and copied to the GPU right
/// away, on every training step or evaluation batch (analysis/BatchScope.h):
/// the factory can make them on the device. Where that runs once (setup,
/// constructors, once per epoch) it costs nothing worth a finding.
///
/// For the user-facing documentation see:
/// docs/checks/libtorch-tensor-created-off-device.md
class TensorCreatedOffDeviceCheck : public LibTorchCheck {
public:
  using LibTorchCheck::LibTorchCheck;
  void registerUserCodeMatchers(ast_matchers::MatchFinder *Finder) override;
  void check(const ast_matchers::MatchFinder::MatchResult &Result) override;

private:
  bool asksAboutPeriodicGuards() const override { return true; }
};

} // namespace clang::tidy::libtorch

#endif // LIBTORCH_TIDY_CHECKS_TENSORCREATEDOFFDEVICECHECK_H
