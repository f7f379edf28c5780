//===--- Catalog.h - Metadata of the registered checks ----------*- C++ -*-===//
//
// Part of libtorch-tidy. SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

#ifndef LIBTORCH_TIDY_CHECKS_CATALOG_H
#define LIBTORCH_TIDY_CHECKS_CATALOG_H

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/StringRef.h"
#include <string>

namespace clang::tidy::libtorch {

enum class CheckTier { Default, OptIn };

struct CheckInfo {
  llvm::StringRef Id;
  CheckTier Tier;
  bool HasFixIt;
  llvm::StringRef Summary;
};

/// Every registered check, in Catalog.def order.
llvm::ArrayRef<CheckInfo> checkCatalog();

/// The `-checks` glob enabling exactly the default tier: `-*,id1,id2,...`.
std::string defaultTierChecksGlob();

/// "default" or "opt-in".
llvm::StringRef tierName(CheckTier Tier);

} // namespace clang::tidy::libtorch

#endif // LIBTORCH_TIDY_CHECKS_CATALOG_H
