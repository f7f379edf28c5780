//===--- DataloaderNoWorkersCheck.h - libtorch-tidy -------------*- C++ -*-===//
//
// Part of libtorch-tidy. SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

#ifndef LIBTORCH_TIDY_CHECKS_DATALOADERNOWORKERSCHECK_H
#define LIBTORCH_TIDY_CHECKS_DATALOADERNOWORKERSCHECK_H

#include "LibTorchCheck.h"

namespace clang::tidy::libtorch {

/// Finds `torch::data::make_data_loader` calls whose options give the loader
/// no worker threads, so every batch is read and collated on the training
/// thread while the GPU waits.
///
/// For the user-facing documentation see:
/// docs/checks/libtorch-dataloader-no-workers.md
class DataloaderNoWorkersCheck : public LibTorchCheck {
public:
  DataloaderNoWorkersCheck(StringRef Name, ClangTidyContext *Context);
  void storeOptions(ClangTidyOptions::OptionMap &Opts) override;
  void registerUserCodeMatchers(ast_matchers::MatchFinder *Finder) override;
  void check(const ast_matchers::MatchFinder::MatchResult &Result) override;

private:
  /// Worker threads suggested by the fix-it (check option `Workers`).
  const unsigned Workers;
};

} // namespace clang::tidy::libtorch

#endif // LIBTORCH_TIDY_CHECKS_DATALOADERNOWORKERSCHECK_H
