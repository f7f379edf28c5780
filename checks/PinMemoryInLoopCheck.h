//===--- PinMemoryInLoopCheck.h - libtorch-tidy -----------------*- C++ -*-===//
//
// Part of libtorch-tidy. SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

#ifndef LIBTORCH_TIDY_CHECKS_PINMEMORYINLOOPCHECK_H
#define LIBTORCH_TIDY_CHECKS_PINMEMORYINLOOPCHECK_H

#include "analysis/TrainingFacts.h"
#include "clang-tidy/ClangTidyCheck.h"

namespace clang::tidy::libtorch {

/// Finds `pin_memory()` on the training thread right before a device copy:
/// an extra host copy that makes the transfer slower, not faster.
///
/// For the user-facing documentation see:
/// docs/checks/libtorch-pin-memory-in-loop.md
class PinMemoryInLoopCheck : public ClangTidyCheck {
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

#endif // LIBTORCH_TIDY_CHECKS_PINMEMORYINLOOPCHECK_H
