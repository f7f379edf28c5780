//===--- Catalog.cpp - Metadata of the registered checks ------------------===//
//
// Part of libtorch-tidy. SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

#include "Catalog.h"
#include "llvm/ADT/STLExtras.h"

namespace clang::tidy::libtorch {

namespace {
constexpr CheckInfo Checks[] = {
#define LIBTORCH_CHECK(Id, Class, Tier, HasFixIt, Evidence, Summary)           \
  {Id, CheckTier::Tier, HasFixIt, CheckEvidence::Evidence, Summary},
#include "Catalog.def"
};

constexpr llvm::StringLiteral SummaryReaders[] = {
#define LIBTORCH_CHECK(Id, Class, Tier, HasFixIt, Evidence, Summary)
#define LIBTORCH_CHECK_READS_SUMMARIES(Id) Id,
#include "Catalog.def"
};
} // namespace

llvm::ArrayRef<CheckInfo> checkCatalog() { return Checks; }

std::string defaultTierChecksGlob() {
  std::string Glob = "-*";
  for (const CheckInfo &Check : checkCatalog())
    if (Check.Tier == CheckTier::Default)
      Glob += "," + Check.Id.str();
  return Glob;
}

const CheckInfo *findCheck(llvm::StringRef Id) {
  for (const CheckInfo &Check : checkCatalog())
    if (Check.Id == Id)
      return &Check;
  return nullptr;
}

bool readsSummaries(llvm::StringRef Id) {
  return llvm::is_contained(SummaryReaders, Id);
}

llvm::StringRef tierName(CheckTier Tier) {
  return Tier == CheckTier::Default ? "default" : "opt-in";
}

} // namespace clang::tidy::libtorch
