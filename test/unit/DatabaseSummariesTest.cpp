//===--- DatabaseSummariesTest.cpp - other units' summaries for a run -----===//
//
// Part of libtorch-tidy. SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

#include "run/DatabaseSummaries.h"
#include "analysis/summaries/SummaryJson.h"
#include "analysis/summaries/SummaryTable.h"
#include "llvm/Support/raw_ostream.h"
#include "gtest/gtest.h"

using libtorch_tidy::run::DatabaseSummaries;

// Named, not anonymous: the unit tests compile in unity batches.
namespace database_summaries_test {

/// A result's FunctionSummaries: \p Usr, which calls \p Callee, and
/// \p Callee, which waits when \p Waits.
std::string functions(const std::string &Usr, const std::string &Callee,
                      bool Waits) {
  using namespace clang::tidy::libtorch::analysis;
  const SummarizedPlace Place{"/p/m.cpp", 3, 5, "x"};
  FunctionSummary Caller;
  Caller.Usr = Usr;
  Caller.Name = "f";
  Caller.Calls.push_back(SummarizedCall{Callee, "g", Place});
  FunctionSummary Called;
  Called.Usr = Callee;
  Called.Name = "g";
  if (Waits)
    Called.Syncs.push_back({"item()", SyncKind::ReadScalar, Place});
  std::string Text;
  llvm::raw_string_ostream OS(Text);
  OS << llvm::json::Value(summariesToJson({Caller, Called}));
  return Text;
}

TEST(DatabaseSummariesTest, DigestFollowsTheAnswers) {
  DatabaseSummaries Summaries;
  const std::vector<std::string> Asked = {"c:@F@f#"};
  const std::string Empty = Summaries.answersDigest(Asked);
  Summaries.set("/p/m.cpp", functions("c:@F@f#", "c:@F@g#", false));
  EXPECT_EQ(Summaries.answersDigest(Asked), Empty) << "no wait either way";
  Summaries.set("/p/m.cpp", functions("c:@F@f#", "c:@F@g#", true));
  const std::string Waits = Summaries.answersDigest(Asked);
  EXPECT_NE(Waits, Empty);
  EXPECT_NE(Summaries.answersDigest({}), Waits) << "asked nothing";
  // A snapshot keeps what a round read.
  DatabaseSummaries Read = Summaries.snapshot();
  Summaries.set("/p/m.cpp", "");
  EXPECT_EQ(Summaries.answersDigest(Asked), Empty) << "the unit has none now";
  EXPECT_EQ(Read.answersDigest(Asked), Waits);
  // Summaries that cannot be read count as none.
  Summaries.set("/p/m.cpp", "[{\"usr\": 3}]");
  EXPECT_EQ(Summaries.answersDigest(Asked), Empty);
}

TEST(DatabaseSummariesTest, FileTextIsASummaryFile) {
  DatabaseSummaries Summaries;
  EXPECT_TRUE(Summaries.empty());
  Summaries.set("/p/m.cpp", functions("c:@F@f#", "c:@F@g#", true));
  EXPECT_FALSE(Summaries.empty());
  auto Units =
      clang::tidy::libtorch::analysis::parseSummaryFile(Summaries.fileText());
  ASSERT_TRUE(bool(Units)) << llvm::toString(Units.takeError());
  ASSERT_EQ(Units->size(), 1u);
  EXPECT_EQ((*Units)[0].MainFile, "/p/m.cpp");
  EXPECT_EQ((*Units)[0].Functions.size(), 2u);
}

} // namespace database_summaries_test
