//===--- CheckTableTest.cpp - catalog and README table --------------------===//
//
// Part of libtorch-tidy. SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

#include "report/CheckTable.h"
#include "Catalog.h"
#include "gtest/gtest.h"

using namespace clang::tidy::libtorch;

// Named, not anonymous: the unit tests compile in unity batches
// (CMakeLists.txt), where the helpers of one file must not meet another's.
namespace check_table_test {

TEST(CatalogTest, DefaultGlobEnablesExactlyTheDefaultTier) {
  std::string Glob = defaultTierChecksGlob();
  EXPECT_EQ(Glob.rfind("-*", 0), 0u);
  for (const CheckInfo &Check : checkCatalog()) {
    bool Listed = Glob.find("," + Check.Id.str()) != std::string::npos;
    EXPECT_EQ(Listed, Check.Tier == CheckTier::Default) << Check.Id.str();
  }
}

TEST(CatalogTest, IdsAreUniqueAndPrefixed) {
  for (size_t I = 0; I < checkCatalog().size(); ++I) {
    EXPECT_TRUE(checkCatalog()[I].Id.starts_with("libtorch-"));
    for (size_t J = I + 1; J < checkCatalog().size(); ++J)
      EXPECT_NE(checkCatalog()[I].Id, checkCatalog()[J].Id);
  }
}

TEST(CatalogTest, ReadersOfSummariesAreRegisteredChecks) {
  EXPECT_TRUE(readsSummaries("libtorch-host-sync-in-loop"));
  EXPECT_FALSE(readsSummaries("libtorch-module-not-on-device"));
  EXPECT_FALSE(readsSummaries("libtorch-no-such-check"));
  unsigned Readers = 0;
  for (const CheckInfo &Check : checkCatalog())
    Readers += readsSummaries(Check.Id);
  EXPECT_GE(Readers, 1u);
}

TEST(CheckTableTest, OneRowPerCheckLinkingItsDocs) {
  std::string Table = libtorch_tidy::renderCheckTable();
  for (const CheckInfo &Check : checkCatalog())
    EXPECT_NE(Table.find("[`" + Check.Id.str() + "`](docs/checks/" +
                         Check.Id.str() + ".md)"),
              std::string::npos);
}

} // namespace check_table_test
