//===--- EmptyCacheInLoopCheck.h - libtorch-tidy ----------------*- C++ -*-===//
//
// Part of libtorch-tidy. SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

#ifndef LIBTORCH_TIDY_CHECKS_EMPTYCACHEINLOOPCHECK_H
#define LIBTORCH_TIDY_CHECKS_EMPTYCACHEINLOOPCHECK_H

#include "analysis/TrainingFacts.h"
#include "clang-tidy/ClangTidyCheck.h"

namespace clang::tidy::libtorch {

/// Finds `c10::cuda::CUDACachingAllocator::emptyCache()` run on every
/// training step: the next step allocates the memory again with cudaMalloc,
/// which synchronizes the device.
///
/// For the user-facing documentation see:
/// docs/checks/libtorch-empty-cache-in-loop.md
class EmptyCacheInLoopCheck : public ClangTidyCheck {
public:
  using ClangTidyCheck::ClangTidyCheck;
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

#endif // LIBTORCH_TIDY_CHECKS_EMPTYCACHEINLOOPCHECK_H
