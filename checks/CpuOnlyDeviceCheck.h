//===--- CpuOnlyDeviceCheck.h - libtorch-tidy -------------------*- C++ -*-===//
//
// Part of libtorch-tidy. SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

#ifndef LIBTORCH_TIDY_CHECKS_CPUONLYDEVICECHECK_H
#define LIBTORCH_TIDY_CHECKS_CPUONLYDEVICECHECK_H

#include "LibTorchCheck.h"
#include <optional>

namespace clang::tidy::libtorch {

/// Finds training programs whose device is hard-coded to the CPU and that
/// never ask whether CUDA is available.
///
/// For the user-facing documentation see:
/// docs/checks/libtorch-cpu-only-device.md
class CpuOnlyDeviceCheck : public LibTorchCheck {
public:
  using LibTorchCheck::LibTorchCheck;
  void registerUserCodeMatchers(ast_matchers::MatchFinder *Finder) override;
  void check(const ast_matchers::MatchFinder::MatchResult &Result) override;

private:
  /// The TU is a program (it has `main`) that trains and that cannot use a
  /// GPU as written (DeviceScopeFacts::isGpuFreeProgram).
  bool isCpuOnlyTrainingProgram(ASTContext &Context);
  utils::PerUnit<std::optional<bool>> TrainingProgram{unitScope()};
};

} // namespace clang::tidy::libtorch

#endif // LIBTORCH_TIDY_CHECKS_CPUONLYDEVICECHECK_H
