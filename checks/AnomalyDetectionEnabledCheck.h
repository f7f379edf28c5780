//===--- AnomalyDetectionEnabledCheck.h - libtorch-tidy ---------*- C++ -*-===//
//
// Part of libtorch-tidy. SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

#ifndef LIBTORCH_TIDY_CHECKS_ANOMALYDETECTIONENABLEDCHECK_H
#define LIBTORCH_TIDY_CHECKS_ANOMALYDETECTIONENABLEDCHECK_H

#include "analysis/TrainingFacts.h"
#include "clang-tidy/ClangTidyCheck.h"

namespace clang::tidy::libtorch {

/// Finds autograd anomaly detection (`AnomalyMode::set_enabled(true)`,
/// `DetectAnomalyGuard`) switched on in code that trains: a debugging aid
/// that records a stack trace per op and checks every backward for NaNs.
///
/// For the user-facing documentation see:
/// docs/checks/libtorch-anomaly-detection-enabled.md
class AnomalyDetectionEnabledCheck : public ClangTidyCheck {
public:
  AnomalyDetectionEnabledCheck(StringRef Name, ClangTidyContext *Context)
      : ClangTidyCheck(Name, Context) {}
  void registerMatchers(ast_matchers::MatchFinder *Finder) override;
  void check(const ast_matchers::MatchFinder::MatchResult &Result) override;
  void onEndOfTranslationUnit() override { Facts.reset(); }
  bool isLanguageVersionSupported(const LangOptions &LangOpts) const override {
    return LangOpts.CPlusPlus17;
  }

private:
  analysis::TrainingFactsCache Facts;
};

} // namespace clang::tidy::libtorch

#endif // LIBTORCH_TIDY_CHECKS_ANOMALYDETECTIONENABLEDCHECK_H
