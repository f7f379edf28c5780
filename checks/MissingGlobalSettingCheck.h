//===--- MissingGlobalSettingCheck.h - libtorch-tidy ------------*- C++ -*-===//
//
// Part of libtorch-tidy. SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

#ifndef LIBTORCH_TIDY_CHECKS_MISSINGGLOBALSETTINGCHECK_H
#define LIBTORCH_TIDY_CHECKS_MISSINGGLOBALSETTINGCHECK_H

#include "LibTorchCheck.h"
#include "analysis/program/ProgramSetup.h"

namespace clang::tidy::libtorch {

/// The base of the checks that find CUDA training without a program-wide
/// LibTorch setting (tf32-disabled, cudnn-benchmark): reported once per
/// translation unit, at the first CUDA training loop that `main` runs (else
/// at the first one), with a fix-it that inserts the setting first in that
/// `main` when `main` runs the loop (ProgramEntry::reaches): a `main` that
/// never runs it (an inference program including a header that trains) is
/// another program's. Without `main` in this translation unit, with a
/// `main` that does not run the loop, without a declared
/// `at::globalContext()` or with a `main` we cannot rewrite, a note says
/// where the setting goes instead: the user places it.
class MissingGlobalSettingCheck : public LibTorchCheck {
public:
  /// \p Setting: the statement to insert; \p Slot: where in `main`
  /// (the two checks use different slots, so both fixes apply at once).
  MissingGlobalSettingCheck(StringRef Name, ClangTidyContext *Context,
                            llvm::StringRef Message, llvm::StringRef Setting,
                            analysis::SetupSlot Slot)
      : LibTorchCheck(Name, Context), Finding(Message), Statement(Setting),
        Slot(Slot) {}
  void registerUserCodeMatchers(ast_matchers::MatchFinder *Finder) final;
  void check(const ast_matchers::MatchFinder::MatchResult &Result) final;

protected:
  /// The translation unit trains on CUDA without the setting (or anything
  /// that makes it moot).
  virtual bool lacksSetting(analysis::CudaTrainingFacts &Cuda) = 0;

private:
  /// The warning, and the statement the fix-it inserts.
  const llvm::StringRef Finding;
  const llvm::StringRef Statement;
  const analysis::SetupSlot Slot;
};

} // namespace clang::tidy::libtorch

#endif // LIBTORCH_TIDY_CHECKS_MISSINGGLOBALSETTINGCHECK_H
