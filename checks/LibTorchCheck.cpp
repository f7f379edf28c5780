//===--- LibTorchCheck.cpp - What every libtorch check shares -------------===//
//
// Part of libtorch-tidy. SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

#include "LibTorchCheck.h"
#include "clang-tidy/utils/OptionsUtils.h"

namespace clang::tidy::libtorch {

namespace {

std::vector<std::string> namesIn(StringRef List) {
  std::vector<StringRef> Names = tidy::utils::options::parseStringList(List);
  return std::vector<std::string>(Names.begin(), Names.end());
}

} // namespace

LibTorchCheck::LibTorchCheck(StringRef Name, ClangTidyContext *Context)
    : ClangTidyCheck(Name, Context),
      RawGuardMacros(Options.getLocalOrGlobal("PeriodicGuardMacros", "")),
      GuardMacros(namesIn(RawGuardMacros)) {}

void LibTorchCheck::storeOptions(ClangTidyOptions::OptionMap &Opts) {
  if (asksAboutPeriodicGuards())
    Options.store(Opts, "PeriodicGuardMacros", RawGuardMacros);
}

} // namespace clang::tidy::libtorch
