//===--- ShardTest.cpp - --shard=K/N partitions -------------------------===//
//
// Part of libtorch-tidy. SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

#include "select/Shard.h"

#include "llvm/ADT/SmallString.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Path.h"
#include "gtest/gtest.h"
#include <algorithm>
#include <random>
#include <set>

using namespace libtorch_tidy::select;

// Named, not anonymous: the unit tests compile in unity batches
// (CMakeLists.txt), where the helpers of one file must not meet another's.
namespace shard_test {

std::string errorOf(llvm::StringRef Text) {
  llvm::Expected<ShardSpec> Spec = parseShardSpec(Text);
  if (Spec)
    return "";
  return llvm::toString(Spec.takeError());
}

TEST(ShardTest, ParsesValidSpecs) {
  llvm::Expected<ShardSpec> Spec = parseShardSpec("3/4");
  ASSERT_TRUE(static_cast<bool>(Spec));
  EXPECT_EQ(Spec->Index, 3u);
  EXPECT_EQ(Spec->Count, 4u);
  Spec = parseShardSpec("1/1");
  ASSERT_TRUE(static_cast<bool>(Spec));
  EXPECT_EQ(Spec->Count, 1u);
}

TEST(ShardTest, RejectsBadSpecsOnOneLine) {
  for (const char *Bad : {"0/2", "3/2", "1/0", "junk", "", "1/", "/2", "1/2/3",
                          "-1/2", "+1/2", "1.5/2", "1 /2", "a/b", "1/2x"}) {
    std::string Error = errorOf(Bad);
    EXPECT_NE(Error, "") << Bad;
    EXPECT_EQ(Error.find('\n'), std::string::npos) << Error;
    EXPECT_NE(Error.find("--shard=1/4"), std::string::npos) << Error;
  }
  EXPECT_NE(errorOf("3/2").find("between 1 and N"), std::string::npos);
}

std::vector<std::string> makeFiles(const std::string &Root, unsigned N) {
  std::vector<std::string> Files;
  for (unsigned I = 0; I < N; ++I)
    Files.push_back(Root + "/src/dir" + std::to_string(I % 7) + "/unit" +
                    std::to_string(I) + ".cpp");
  return Files;
}

std::vector<std::string> relativeKeys(const std::vector<std::string> &Files,
                                      const std::string &Root) {
  std::vector<std::string> Keys;
  for (const std::string &F : Files)
    Keys.push_back(F.substr(Root.size() + 1));
  return Keys;
}

TEST(ShardTest, EveryUnitInExactlyOneShardAndBalanced) {
  std::vector<std::string> Files = makeFiles("/r", 103);
  std::vector<std::string> Keys = relativeKeys(Files, "/r");
  std::multiset<std::string> Seen;
  for (unsigned K = 1; K <= 4; ++K) {
    std::vector<std::string> Part = selectShard(Files, {K, 4}, Keys);
    EXPECT_GE(Part.size(), 25u);
    EXPECT_LE(Part.size(), 26u);
    Seen.insert(Part.begin(), Part.end());
  }
  EXPECT_EQ(Seen.size(), Files.size());
  for (const std::string &F : Files)
    EXPECT_EQ(Seen.count(F), 1u) << F;
}

TEST(ShardTest, IndependentOfOrderAndCheckoutDirectory) {
  std::vector<std::string> Here = makeFiles("/home/a/repo", 40);
  std::vector<std::string> There = makeFiles("/runner/work/repo/repo", 40);
  std::mt19937 Random(7);
  std::vector<size_t> Order(There.size());
  for (size_t I = 0; I < Order.size(); ++I)
    Order[I] = I;
  std::shuffle(Order.begin(), Order.end(), Random);
  std::vector<std::string> Shuffled;
  for (size_t I : Order)
    Shuffled.push_back(There[I]);

  for (unsigned K = 1; K <= 3; ++K) {
    std::vector<std::string> A =
        selectShard(Here, {K, 3}, relativeKeys(Here, "/home/a/repo"));
    std::vector<std::string> B = selectShard(
        Shuffled, {K, 3}, relativeKeys(Shuffled, "/runner/work/repo/repo"));
    std::vector<std::string> AKeys = relativeKeys(A, "/home/a/repo");
    std::set<std::string> RelA(AKeys.begin(), AKeys.end());
    std::vector<std::string> BKeys = relativeKeys(B, "/runner/work/repo/repo");
    std::set<std::string> RelB(BKeys.begin(), BKeys.end());
    EXPECT_EQ(RelA, RelB) << "shard " << K;
  }
}

TEST(ShardTest, OneShardIsEverything) {
  std::vector<std::string> Files = makeFiles("/r", 9);
  EXPECT_EQ(selectShard(Files, {1, 1}, relativeKeys(Files, "/r")), Files);
}

TEST(ShardTest, DuplicateEntriesLandOnce) {
  std::vector<std::string> Files = {"/r/a.cpp", "/r/b.cpp", "/r/a.cpp"};
  std::vector<std::string> Keys = {"a.cpp", "b.cpp", "a.cpp"};
  size_t Total = 0;
  for (unsigned K = 1; K <= 2; ++K)
    Total += selectShard(Files, {K, 2}, Keys).size();
  EXPECT_EQ(Total, 2u);
}

TEST(ShardTest, KeyIsRelativeToTheGitTopLevel) {
  llvm::SmallString<128> Root;
  ASSERT_FALSE(llvm::sys::fs::createUniqueDirectory("shard-test", Root));
  llvm::SmallString<128> Git(Root), Source(Root);
  llvm::sys::path::append(Git, ".git");
  llvm::sys::path::append(Source, "src", "train.cpp");
  ASSERT_FALSE(llvm::sys::fs::create_directories(Git));
  EXPECT_EQ(shardKey(Source), "src/train.cpp");
  llvm::sys::fs::remove_directories(Root);
  // Outside any repository: the absolute path.
  EXPECT_EQ(shardKey("/nonexistent-root/x/y.cpp"), "/nonexistent-root/x/y.cpp");
}

} // namespace shard_test
