//===--- FixApplierTest.cpp - --fix planning and atomic writes -----------===//
//
// Part of libtorch-tidy. SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

#include "fix/FixApplier.h"

#include "llvm/ADT/SmallString.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/raw_ostream.h"
#include "gtest/gtest.h"
#include <sys/stat.h>

using namespace libtorch_tidy;
using namespace libtorch_tidy::fix;
using model::Finding;
using model::Replacement;

// Named, not anonymous: the unit tests compile in unity batches
// (CMakeLists.txt), where the helpers of one file must not meet another's.
namespace fix_applier_test {

Finding finding(std::string Check, std::string File, unsigned Offset,
                std::vector<Replacement> Fixes) {
  Finding F;
  F.CheckId = std::move(Check);
  F.Message = "message of " + F.CheckId;
  F.Where.File = File;
  F.Where.AbsoluteFile = std::move(File);
  F.Where.Offset = Offset;
  F.Fixes = std::move(Fixes);
  return F;
}

model::RunResult runOf(std::vector<std::vector<Finding>> Units) {
  model::RunResult Run;
  for (auto &Findings : Units) {
    model::TranslationUnitResult Unit;
    Unit.Findings = std::move(Findings);
    Run.Units.push_back(std::move(Unit));
  }
  return Run;
}

/// Plans every finding of \p Run once, in uniqueFindings() order.
FixPlan planAll(const model::RunResult &Run, FixOptions Options) {
  std::vector<Finding> Unique = model::uniqueFindings(Run);
  std::vector<const Finding *> Pointers;
  for (const Finding &F : Unique)
    Pointers.push_back(&F);
  return planFixes(Pointers, Options);
}

TEST(FixPlanTest, DeduplicatesIdenticalEditsFromSeveralUnits) {
  // The same finding in a header, reported by two units.
  Finding InHeader =
      finding("libtorch-a", "/r/h.h", 4, {{"/r/h.h", 4, 2, "x"}});
  model::RunResult Run = runOf({{InHeader}, {InHeader}});
  FixPlan Plan = planAll(Run, {});
  EXPECT_EQ(Plan.Fixes, 1u);
  ASSERT_EQ(Plan.Edits["/r/h.h"].size(), 1u);
  EXPECT_TRUE(Plan.Conflicts.empty());

  // Two different findings that make the very same edit: applied once, no
  // conflict.
  Run = runOf(
      {{finding("libtorch-a", "/r/f.cpp", 1, {{"/r/f.cpp", 1, 2, "y"}}),
        finding("libtorch-b", "/r/f.cpp", 1, {{"/r/f.cpp", 1, 2, "y"}})}});
  Plan = planAll(Run, {});
  EXPECT_EQ(Plan.Fixes, 2u);
  EXPECT_EQ(Plan.Edits["/r/f.cpp"].size(), 1u);
  EXPECT_TRUE(Plan.Conflicts.empty());
}

TEST(FixPlanTest, OverlappingFixesAreSkippedWhole) {
  model::RunResult Run = runOf({{
      finding("libtorch-a", "/r/f.cpp", 10,
              {{"/r/f.cpp", 10, 5, "AAA"}, {"/r/f.cpp", 40, 0, "a-too"}}),
      // Overlaps a's first edit: the whole fix, also its harmless second
      // edit, is skipped.
      finding("libtorch-b", "/r/f.cpp", 12,
              {{"/r/f.cpp", 12, 5, "BBB"}, {"/r/f.cpp", 60, 0, "b-too"}}),
      // Touches a's range only at its end: no conflict.
      finding("libtorch-c", "/r/f.cpp", 15, {{"/r/f.cpp", 15, 0, "C"}}),
      // Two different insertions at one place: the second is skipped.
      finding("libtorch-d", "/r/f.cpp", 40, {{"/r/f.cpp", 40, 0, "other"}}),
  }});
  FixPlan Plan = planAll(Run, {});
  EXPECT_EQ(Plan.Fixes, 2u);
  ASSERT_EQ(Plan.Conflicts.size(), 2u);
  EXPECT_EQ(Plan.Conflicts[0].CheckId, "libtorch-b");
  EXPECT_EQ(Plan.Conflicts[0].OtherCheckId, "libtorch-a");
  EXPECT_EQ(Plan.Conflicts[1].CheckId, "libtorch-d");
  std::vector<Replacement> &Edits = Plan.Edits["/r/f.cpp"];
  ASSERT_EQ(Edits.size(), 3u);
  EXPECT_EQ(Edits[0].Text, "AAA");
  EXPECT_EQ(Edits[1].Text, "C");
  EXPECT_EQ(Edits[2].Text, "a-too");
}

TEST(FixPlanTest, FixNotesTakesTheOnlyNoteWithAFix) {
  Finding OneNote = finding("libtorch-a", "/r/f.cpp", 1, {});
  model::Note Plain, WithFix;
  Plain.Message = "context";
  WithFix.Message = "suggested";
  WithFix.Fixes = {{"/r/f.cpp", 1, 1, "n"}};
  OneNote.Notes = {Plain, WithFix};
  Finding TwoNotes = finding("libtorch-b", "/r/g.cpp", 1, {});
  TwoNotes.Notes = {WithFix, WithFix};
  TwoNotes.Notes[1].Fixes = {{"/r/g.cpp", 5, 1, "m"}};
  model::RunResult Run = runOf({{OneNote, TwoNotes}});

  EXPECT_EQ(planAll(Run, {}).Fixes, 0u);
  FixPlan Plan = planAll(Run, FixOptions{/*FixNotes=*/true, {}});
  EXPECT_EQ(Plan.Fixes, 1u);
  EXPECT_EQ(Plan.Edits.count("/r/f.cpp"), 1u);
  EXPECT_EQ(Plan.Edits.count("/r/g.cpp"), 0u);
}

TEST(FixPlanTest, ApplyReplacementsInOrder) {
  llvm::Expected<std::string> Out = applyReplacements(
      "0123456789",
      {{"f", 0, 0, "<"}, {"f", 0, 2, "ab"}, {"f", 5, 0, "|"}, {"f", 8, 2, ""}});
  ASSERT_TRUE(static_cast<bool>(Out));
  EXPECT_EQ(*Out, "<ab234|567");
  llvm::Expected<std::string> PastTheEnd =
      applyReplacements("0123", {{"f", 3, 2, ""}});
  ASSERT_FALSE(static_cast<bool>(PastTheEnd));
  llvm::consumeError(PastTheEnd.takeError());
}

TEST(FixPlanTest, DigestIsLowercaseSha256) {
  EXPECT_EQ(model::contentDigest("abc"),
            "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad");
}

/// Applies the fix of every finding of \p Run once, in uniqueFindings()
/// order, as `--fix` does for a run without compiler errors.
FixOutcome fixAll(const model::RunResult &Run) {
  std::vector<Finding> Unique = model::uniqueFindings(Run);
  std::vector<const Finding *> Pointers;
  for (const Finding &F : Unique)
    Pointers.push_back(&F);
  return applyFixes(Run, Pointers, {});
}

class FixFiles : public ::testing::Test {
protected:
  void SetUp() override {
    ASSERT_FALSE(llvm::sys::fs::createUniqueDirectory("fix-test", Dir));
  }
  void TearDown() override { llvm::sys::fs::remove_directories(Dir); }
  std::string write(llvm::StringRef Name, llvm::StringRef Text) {
    llvm::SmallString<256> P(Dir);
    llvm::sys::path::append(P, Name);
    std::error_code EC;
    llvm::raw_fd_ostream OS(P, EC);
    EXPECT_FALSE(EC);
    OS << Text;
    return std::string(P);
  }
  static std::string read(llvm::StringRef Path) {
    auto Buffer = llvm::MemoryBuffer::getFile(Path);
    return Buffer ? (*Buffer)->getBuffer().str() : "<unreadable>";
  }
  unsigned filesInDir() {
    std::error_code EC;
    unsigned N = 0;
    for (llvm::sys::fs::directory_iterator It(Dir, EC), End; It != End && !EC;
         It.increment(EC))
      ++N;
    return N;
  }
  llvm::SmallString<128> Dir;
};

TEST_F(FixFiles, WritesFixesKeepingModeAndFollowingSymlinks) {
  std::string A = write("a.cpp", "int  x = 0;\n");
  ASSERT_EQ(::chmod(A.c_str(), 0751), 0);
  std::string Link = A + ".link.cpp";
  ASSERT_FALSE(llvm::sys::fs::create_link(A, Link));
  model::RunResult Run =
      runOf({{finding("libtorch-a", Link, 3, {{Link, 3, 2, " "}})}});
  Run.Units[0].ContentDigests[Link] = model::contentDigest("int  x = 0;\n");
  FixOutcome Outcome = fixAll(Run);
  ASSERT_TRUE(Outcome.Errors.empty()) << Outcome.Errors.front();
  EXPECT_EQ(Outcome.AppliedFixes, 1u);
  EXPECT_EQ(read(A), "int x = 0;\n");
  struct stat Status;
  ASSERT_EQ(::lstat(Link.c_str(), &Status), 0);
  EXPECT_TRUE(S_ISLNK(Status.st_mode)) << "the link was replaced";
  ASSERT_EQ(::stat(A.c_str(), &Status), 0);
  EXPECT_EQ(Status.st_mode & 07777, 0751u);
  EXPECT_EQ(filesInDir(), 2u) << "a temporary file was left behind";
}

TEST_F(FixFiles, RefusesAFileThatChangedSinceItWasAnalyzedAndWritesNothing) {
  std::string A = write("a.cpp", "int a;\n");
  std::string B = write("b.cpp", "int b; // edited after the analysis\n");
  model::RunResult Run =
      runOf({{finding("libtorch-a", A, 0, {{A, 0, 3, "long"}})},
             {finding("libtorch-a", B, 0, {{B, 0, 3, "long"}})}});
  Run.Units[0].ContentDigests[A] = model::contentDigest("int a;\n");
  Run.Units[1].ContentDigests[B] = model::contentDigest("int b;\n");
  FixOutcome Outcome = fixAll(Run);
  ASSERT_EQ(Outcome.Errors.size(), 1u);
  EXPECT_EQ(Outcome.Errors[0], "'" + B +
                                   "' changed since it was analyzed; no fixes "
                                   "were applied to it: re-run libtorch-tidy "
                                   "--fix");
  EXPECT_EQ(read(A), "int a;\n") << "nothing is written when a file is stale";
  EXPECT_TRUE(Outcome.WrittenFiles.empty());
}

TEST_F(FixFiles, NoDigestOrTwoDigestsIsAnError) {
  std::string A = write("a.cpp", "int a;\n");
  model::RunResult Run =
      runOf({{finding("libtorch-a", A, 0, {{A, 0, 3, "long"}})}, {}});
  FixOutcome Outcome = fixAll(Run);
  ASSERT_EQ(Outcome.Errors.size(), 1u);
  EXPECT_NE(Outcome.Errors[0].find("has no content digest"), std::string::npos);
  Run.Units[0].ContentDigests[A] = model::contentDigest("int a;\n");
  Run.Units[1].ContentDigests[A] = model::contentDigest("int a; ");
  Outcome = fixAll(Run);
  ASSERT_EQ(Outcome.Errors.size(), 1u);
  EXPECT_NE(Outcome.Errors[0].find("changed while it was being analyzed"),
            std::string::npos);
  EXPECT_EQ(read(A), "int a;\n");
}

TEST_F(FixFiles, ConflictsAreReportedWithLineAndColumn) {
  std::string A = write("a.cpp", "int a;\nint b;\n");
  model::RunResult Run =
      runOf({{finding("libtorch-a", A, 7, {{A, 7, 3, "long"}}),
              finding("libtorch-b", A, 8, {{A, 8, 2, "xx"}})}});
  Run.Units[0].ContentDigests[A] = model::contentDigest("int a;\nint b;\n");
  FixOutcome Outcome = fixAll(Run);
  ASSERT_TRUE(Outcome.Errors.empty());
  ASSERT_EQ(Outcome.ConflictMessages.size(), 1u);
  EXPECT_EQ(Outcome.ConflictMessages[0],
            A + ":2:2: warning: fix of [libtorch-b] not applied: it overlaps "
                "the fix of [libtorch-a] at line 2, column 1; run --fix again "
                "to apply it to the fixed code");
  EXPECT_EQ(read(A), "int a;\nlong b;\n");
}

TEST_F(FixFiles, UnwritableDirectoryIsAnErrorAndLeavesTheFile) {
  // A file whose directory is gone cannot be replaced.
  model::RunResult Run =
      runOf({{finding("libtorch-a", "/nonexistent/a.cpp", 0,
                      {{"/nonexistent/a.cpp", 0, 1, "x"}})}});
  Run.Units[0].ContentDigests["/nonexistent/a.cpp"] = model::contentDigest("");
  FixOutcome Outcome = fixAll(Run);
  ASSERT_EQ(Outcome.Errors.size(), 1u);
  EXPECT_NE(
      Outcome.Errors[0].find("cannot read source file '/nonexistent/a.cpp'"),
      std::string::npos)
      << Outcome.Errors[0];
}

TEST_F(FixFiles, ReplayedEditsOutsideTheFileAreRefused) {
  // Offsets come back from the result cache as data: -1 read into an
  // unsigned, or one past the end, must not reach clang's rewriter.
  const std::string Text = "int a;\n";
  std::string A = write("a.cpp", Text);
  for (Replacement Bad :
       {Replacement{A, 4294967295u, 1, "x"}, Replacement{A, 7, 5, "x"},
        Replacement{A, 8, 0, "x"}}) {
    model::RunResult Run = runOf({{finding("libtorch-a", A, 0, {Bad})}});
    Run.Units[0].ContentDigests[A] = model::contentDigest(Text);
    FixOutcome Outcome = fixAll(Run);
    ASSERT_EQ(Outcome.Errors.size(), 1u) << Bad.Offset;
    EXPECT_NE(Outcome.Errors[0].find("lies outside its 7 bytes"),
              std::string::npos)
        << Outcome.Errors[0];
    EXPECT_EQ(Outcome.AppliedFixes, 0u);
    EXPECT_EQ(read(A), Text);
  }
  // At the very end is inside: an insertion there is applied.
  model::RunResult Run =
      runOf({{finding("libtorch-a", A, 0, {{A, 7, 0, "int b;\n"}})}});
  Run.Units[0].ContentDigests[A] = model::contentDigest(Text);
  FixOutcome Outcome = fixAll(Run);
  ASSERT_TRUE(Outcome.Errors.empty()) << Outcome.Errors.front();
  EXPECT_EQ(read(A), "int a;\nint b;\n");
}

TEST_F(FixFiles, PreFixContentIsKeptForTheTextOutput) {
  std::string A = write("a.cpp", "int  a;\n");
  model::RunResult Run =
      runOf({{finding("libtorch-a", A, 3, {{A, 3, 2, " "}})}});
  Run.Units[0].ContentDigests[A] = model::contentDigest("int  a;\n");
  FixOutcome Outcome = fixAll(Run);
  EXPECT_TRUE(Outcome.Errors.empty());
  EXPECT_EQ(Outcome.Originals[A], "int  a;\n");
  EXPECT_EQ(Outcome.WrittenFiles, std::vector<std::string>{A});
  EXPECT_EQ(Outcome.Suggested, 1u);
  EXPECT_EQ(Outcome.AppliedReplacements, 1u);
  ASSERT_EQ(Outcome.PerFinding.size(), 1u);
  ASSERT_EQ(Outcome.PerFinding[0].size(), 1u);
  EXPECT_TRUE(Outcome.PerFinding[0][0].second);
  // Nothing written (the file is no longer what was analyzed): every
  // replacement is reported as not applied.
  Outcome = fixAll(Run);
  ASSERT_EQ(Outcome.Errors.size(), 1u);
  EXPECT_TRUE(Outcome.Originals.empty());
  EXPECT_EQ(Outcome.Suggested, 1u);
  EXPECT_EQ(Outcome.AppliedReplacements, 0u);
  ASSERT_EQ(Outcome.PerFinding.size(), 1u);
  ASSERT_EQ(Outcome.PerFinding[0].size(), 1u);
  EXPECT_FALSE(Outcome.PerFinding[0][0].second);
}

} // namespace fix_applier_test
