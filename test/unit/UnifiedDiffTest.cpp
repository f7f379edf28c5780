//===--- UnifiedDiffTest.cpp - Changed lines from unified diffs ----------===//
//
// Part of libtorch-tidy. SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

#include "select/UnifiedDiff.h"

#include "gtest/gtest.h"

using namespace libtorch_tidy::select;

// Named, not anonymous: the unit tests compile in unity batches
// (CMakeLists.txt), where the helpers of one file must not meet another's.
namespace unified_diff_test {

ParsedDiff parse(llvm::StringRef Text) {
  llvm::Expected<ParsedDiff> Parsed = parseUnifiedDiff(Text);
  EXPECT_TRUE(static_cast<bool>(Parsed)) << llvm::toString(Parsed.takeError());
  return Parsed ? std::move(*Parsed) : ParsedDiff();
}

using Ranges = std::vector<std::pair<unsigned, unsigned>>;

TEST(ChangedLinesTest, MergesAndLooksUp) {
  ChangedLines Lines;
  Lines.add(10, 12);
  Lines.add(3, 3);
  Lines.add(13, 14);
  Lines.add(4, 4);
  EXPECT_EQ(Lines.ranges(), (Ranges{{3, 4}, {10, 14}}));
  EXPECT_TRUE(Lines.contains(3));
  EXPECT_TRUE(Lines.contains(14));
  EXPECT_FALSE(Lines.contains(5));
  EXPECT_FALSE(Lines.contains(2));
  EXPECT_FALSE(Lines.contains(15));
}

// Real `git diff -U0 HEAD` output: a new file, a rename with an edit, a
// deleted file with a quoted name, a name with a space (git ends it with a
// tab), and a last line without a newline.
const char GitDiff[] = "diff --git a/added.cpp b/added.cpp\n"
                       "new file mode 100644\n"
                       "index 0000000..8ba3a16\n"
                       "--- /dev/null\n"
                       "+++ b/added.cpp\n"
                       "@@ -0,0 +1,2 @@\n"
                       "+n\n"
                       "+m\n"
                       "diff --git a/old.cpp b/new.cpp\n"
                       "similarity index 50%\n"
                       "rename from old.cpp\n"
                       "rename to new.cpp\n"
                       "index 587be6b..b77b4eb 100644\n"
                       "--- a/old.cpp\n"
                       "+++ b/new.cpp\n"
                       "@@ -1,0 +2 @@ x\n"
                       "+y\n"
                       "diff --git \"a/tab\\t\\303\\251.cpp\" "
                       "\"b/tab\\t\\303\\251.cpp\"\n"
                       "deleted file mode 100644\n"
                       "index bca70f3..0000000\n"
                       "--- \"a/tab\\t\\303\\251.cpp\"\n"
                       "+++ /dev/null\n"
                       "@@ -1 +0,0 @@\n"
                       "-q\n"
                       "diff --git a/with space.cpp b/with space.cpp\n"
                       "index de98044..f8f7a32 100644\n"
                       "--- a/with space.cpp\t\n"
                       "+++ b/with space.cpp\t\n"
                       "@@ -2 +2 @@ a\n"
                       "-b\n"
                       "+B\n"
                       "@@ -3,0 +4 @@ c\n"
                       "+d\n"
                       "\\ No newline at end of file\n";

TEST(UnifiedDiffTest, GitDiffOfAllKinds) {
  ParsedDiff Diff = parse(GitDiff);
  EXPECT_TRUE(Diff.FromGit);
  ASSERT_EQ(Diff.Files.size(), 3u);
  EXPECT_EQ(Diff.Files["added.cpp"].ranges(), (Ranges{{1, 2}}));
  EXPECT_EQ(Diff.Files["new.cpp"].ranges(), (Ranges{{2, 2}}));
  EXPECT_EQ(Diff.Files["with space.cpp"].ranges(), (Ranges{{2, 2}, {4, 4}}));
  EXPECT_EQ(Diff.Files.count("old.cpp"), 0u);
}

TEST(UnifiedDiffTest, QuotedNamesAreDecoded) {
  EXPECT_EQ(unquoteGitPath("\"b/tab\\t\\303\\251.cpp\""),
            "b/tab\t\xc3\xa9.cpp");
  EXPECT_EQ(unquoteGitPath("\"b/q\\\"uote\\\\.cpp\""), "b/q\"uote\\.cpp");
  EXPECT_EQ(unquoteGitPath("b/plain.cpp"), "b/plain.cpp");
  ParsedDiff Diff =
      parse("diff --git \"a/x\\303\\251.cpp\" \"b/x\\303\\251.cpp\"\n"
            "--- \"a/x\\303\\251.cpp\"\n"
            "+++ \"b/x\\303\\251.cpp\"\n"
            "@@ -1 +1 @@\n-a\n+b\n");
  EXPECT_EQ(Diff.Files.count("x\xc3\xa9.cpp"), 1u);
}

TEST(UnifiedDiffTest, PureDeletionTouchesItsNeighbours) {
  // Lines 5-6 of the old file removed; they sat between new lines 4 and 5.
  ParsedDiff Diff =
      parse("--- a/f.cpp\n+++ b/f.cpp\n@@ -5,2 +4,0 @@\n-x\n-y\n");
  EXPECT_EQ(Diff.Files["f.cpp"].ranges(), (Ranges{{4, 5}}));
  // At the start of the file.
  Diff = parse("--- a/f.cpp\n+++ b/f.cpp\n@@ -1 +0,0 @@\n-x\n");
  EXPECT_EQ(Diff.Files["f.cpp"].ranges(), (Ranges{{1, 1}}));
}

TEST(UnifiedDiffTest, ContextDiffsCountOnlyAddedLines) {
  // `diff -u` style, with timestamps after a tab and three lines of context;
  // a line inside the hunk that looks like a header is content.
  ParsedDiff Diff = parse("--- f.cpp\t2024-01-01 00:00:00\n"
                          "+++ f.cpp\t2024-01-02 00:00:00\n"
                          "@@ -1,5 +1,6 @@\n"
                          " a\n"
                          " b\n"
                          "-c\n"
                          "+C\n"
                          "+--- not a header\n"
                          " d\n"
                          " e\n");
  EXPECT_FALSE(Diff.FromGit);
  EXPECT_EQ(Diff.Files["f.cpp"].ranges(), (Ranges{{3, 4}}));
  // A removal in the middle of context marks the lines around it.
  Diff = parse("--- f.cpp\n+++ f.cpp\n@@ -1,3 +1,2 @@\n a\n-b\n c\n");
  EXPECT_EQ(Diff.Files["f.cpp"].ranges(), (Ranges{{1, 2}}));
}

TEST(UnifiedDiffTest, NoPrefixDiffKeepsPaths) {
  ParsedDiff Diff =
      parse("diff --git src/a.cpp src/a.cpp\n"
            "--- src/a.cpp\n+++ src/a.cpp\n@@ -1 +1 @@\n-a\n+b\n");
  EXPECT_EQ(Diff.Files.count("src/a.cpp"), 1u);
}

TEST(UnifiedDiffTest, PreambleAndBinaryFilesAreIgnored) {
  ParsedDiff Diff = parse("commit 123\nAuthor: x\n\n    message\n"
                          "diff --git a/b.bin b/b.bin\n"
                          "Binary files a/b.bin and b/b.bin differ\n");
  EXPECT_TRUE(Diff.Files.empty());
}

TEST(UnifiedDiffTest, MalformedHunksFailOnOneLine) {
  for (const char *Bad :
       {"--- a/f\n+++ b/f\n@@ -x +1 @@\n+a\n",
        "--- a/f\n+++ b/f\n@@ -1,2 +1,2 @@\n a\n", "@@ -1 +1 @@\n-a\n+b\n",
        "--- a/f\n+++ b/f\n@@ -1 +1 @@\n-a\n?b\n"}) {
    llvm::Expected<ParsedDiff> Parsed = parseUnifiedDiff(Bad);
    ASSERT_FALSE(static_cast<bool>(Parsed)) << Bad;
    std::string Error = llvm::toString(Parsed.takeError());
    EXPECT_EQ(Error.find('\n'), std::string::npos);
    EXPECT_NE(Error.find("malformed diff at line"), std::string::npos);
  }
}

} // namespace unified_diff_test
