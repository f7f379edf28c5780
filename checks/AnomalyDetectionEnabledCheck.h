//===--- AnomalyDetectionEnabledCheck.h - libtorch-tidy ---------*- C++ -*-===//
//
// Part of libtorch-tidy. SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

#ifndef LIBTORCH_TIDY_CHECKS_ANOMALYDETECTIONENABLEDCHECK_H
#define LIBTORCH_TIDY_CHECKS_ANOMALYDETECTIONENABLEDCHECK_H

#include "LibTorchCheck.h"

namespace clang::tidy::libtorch {

/// Finds autograd anomaly detection (`AnomalyMode::set_enabled(true)`,
/// `DetectAnomalyGuard`) switched on in code that trains: a debugging aid
/// that records a stack trace per op and checks every backward for NaNs.
///
/// For the user-facing documentation see:
/// docs/checks/libtorch-anomaly-detection-enabled.md
class AnomalyDetectionEnabledCheck : public LibTorchCheck {
public:
  using LibTorchCheck::LibTorchCheck;
  void registerUserCodeMatchers(ast_matchers::MatchFinder *Finder) override;
  void check(const ast_matchers::MatchFinder::MatchResult &Result) override;
};

} // namespace clang::tidy::libtorch

#endif // LIBTORCH_TIDY_CHECKS_ANOMALYDETECTIONENABLEDCHECK_H
