//===--- CheckTable.cpp - The README's check table ------------------------===//
//
// Part of libtorch-tidy. SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

#include "report/CheckTable.h"
#include "Catalog.h"

namespace libtorch_tidy {

std::string renderCheckTable() {
  using clang::tidy::libtorch::CheckInfo;
  std::string Table = "| check | tier | finds | fix-it |\n"
                      "|---|---|---|---|\n";
  for (const CheckInfo &Check : clang::tidy::libtorch::checkCatalog()) {
    Table += "| [`" + Check.Id.str() + "`](docs/checks/" + Check.Id.str() +
             ".md) | " + clang::tidy::libtorch::tierName(Check.Tier).str() +
             " | " + Check.Summary.str() + " | " +
             (Check.HasFixIt ? "yes" : "no") + " |\n";
  }
  return Table;
}

} // namespace libtorch_tidy
