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

/// Where a check looks for what decides its findings (Catalog.def).
enum class CheckEvidence {
  /// The function that holds the finding, and the functions it calls or is
  /// called from, directly or not.
  Calls,
  /// Anywhere in the unit: device placement, program-wide settings, every
  /// member function of a module.
  Unit,
};

struct CheckInfo {
  llvm::StringRef Id;
  CheckTier Tier;
  bool HasFixIt;
  CheckEvidence Evidence;
  llvm::StringRef Summary;
};

/// Every registered check, in Catalog.def order.
llvm::ArrayRef<CheckInfo> checkCatalog();

/// The registered check \p Id, or null.
const CheckInfo *findCheck(llvm::StringRef Id);

/// The `-checks` glob enabling exactly the default tier: `-*,id1,id2,...`.
std::string defaultTierChecksGlob();

/// Whether the check \p Id reads the summaries of functions defined in
/// other units (Catalog.def).
bool readsSummaries(llvm::StringRef Id);

/// The `libtorch-tidy.SummaryFile` option: one key for every check that
/// reads the summaries, no one check's own.
inline constexpr llvm::StringLiteral SummaryFileOption =
    "libtorch-tidy.SummaryFile";

/// "default" or "opt-in".
llvm::StringRef tierName(CheckTier Tier);

} // namespace clang::tidy::libtorch

#endif // LIBTORCH_TIDY_CHECKS_CATALOG_H
