//===--- LibTorchCheck.h - What every libtorch check shares -----*- C++ -*-===//
//
// Part of libtorch-tidy. SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

#ifndef LIBTORCH_TIDY_CHECKS_LIBTORCHCHECK_H
#define LIBTORCH_TIDY_CHECKS_LIBTORCHCHECK_H

#include "analysis/TrainingFacts.h"
#include "analysis/UserCodeMatchFinder.h"
#include "clang-tidy/ClangTidyCheck.h"

namespace clang::tidy::libtorch {

/// The base of the `libtorch` checks: LibTorch needs C++17, and checks that
/// ask the training-loop model share one set of per-TU facts, built on first
/// use and dropped at the end of the translation unit. So is the index of
/// user code's parents that their walks up the AST use instead of
/// `ASTContext::getParents` (analysis/UserCode.h says why).
///
/// The checks never report outside user code, so their matchers run over
/// user code only (analysis/UserCodeMatchFinder.h): a check registers them
/// in registerUserCodeMatchers, not registerMatchers.
class LibTorchCheck : public ClangTidyCheck {
public:
  using ClangTidyCheck::ClangTidyCheck;
  void registerMatchers(ast_matchers::MatchFinder *Finder) final {
    registerUserCodeMatchers(&UserCode.attach(*Finder));
  }
  bool isLanguageVersionSupported(const LangOptions &LangOpts) const override {
    return LangOpts.CPlusPlus17;
  }
  void onEndOfTranslationUnit() override {
    Facts.reset();
    Parents.reset();
  }

protected:
  /// The check's matchers, run on the nodes of user code.
  virtual void registerUserCodeMatchers(ast_matchers::MatchFinder *Finder) = 0;

  analysis::TrainingFacts &
  trainingFacts(ASTContext &Context,
                llvm::ArrayRef<std::string> GuardMacros = {}) {
    return Facts.get(Context, parents(Context), GuardMacros);
  }
  const analysis::UserCodeParents &parents(ASTContext &Context) {
    return Parents.get(Context);
  }

private:
  analysis::UserCodeMatchFinder UserCode{*this};
  analysis::PerUnit<analysis::UserCodeParents> Parents;
  analysis::TrainingFactsCache Facts;
};

} // namespace clang::tidy::libtorch

#endif // LIBTORCH_TIDY_CHECKS_LIBTORCHCHECK_H
