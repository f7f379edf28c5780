//===--- DiffFilterTest.cpp - --diff on a scratch git repository ---------===//
//
// Part of libtorch-tidy. SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

#include "select/DiffFilter.h"
#include "select/IncludeScan.h"

#include "llvm/ADT/SmallString.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/raw_ostream.h"
#include "gtest/gtest.h"
#include <cstdlib>

using namespace libtorch_tidy;
using namespace libtorch_tidy::select;
using clang::tooling::FixedCompilationDatabase;

// Named, not anonymous: the unit tests compile in unity batches
// (CMakeLists.txt), where the helpers of one file must not meet another's.
namespace diff_filter_test {

using Ranges = std::vector<std::pair<unsigned, unsigned>>;

/// A git repository in a temporary directory, removed at the end.
class ScratchRepo : public ::testing::Test {
protected:
  void SetUp() override {
    ASSERT_FALSE(llvm::sys::fs::createUniqueDirectory("diff-test", Root));
    git("init -q");
    git("config user.email test@example.com");
    git("config user.name test");
  }
  void TearDown() override { llvm::sys::fs::remove_directories(Root); }

  std::string path(llvm::StringRef Relative) const {
    llvm::SmallString<256> P(Root);
    llvm::sys::path::append(P, Relative);
    return std::string(P);
  }
  void write(llvm::StringRef Relative, llvm::StringRef Text) {
    std::string P = path(Relative);
    llvm::sys::fs::create_directories(llvm::sys::path::parent_path(P));
    std::error_code EC;
    llvm::raw_fd_ostream OS(P, EC);
    ASSERT_FALSE(EC);
    OS << Text;
  }
  void git(const std::string &Args) {
    std::string Command =
        "git -C '" + std::string(Root) + "' " + Args + " >/dev/null 2>&1";
    ASSERT_EQ(std::system(Command.c_str()), 0) << Command;
  }

  llvm::SmallString<128> Root;
};

TEST_F(ScratchRepo, GitRefGivesChangedLinesOfTheWorkingTree) {
  write("src/train.cpp", "#include \"model.h\"\nint a;\nint b;\nint c;\n");
  write("src/model.h", "int m;\n");
  write("old name.cpp", "int x;\n");
  write("gone.cpp", "int g;\n");
  git("add -A");
  git("commit -q -m base");
  write("src/train.cpp",
        "#include \"model.h\"\nint a;\nint B;\nint c;\nint d;");
  git("mv 'old name.cpp' 'new name.cpp'");
  write("new name.cpp", "int x;\nint y;\n");
  git("rm -q gone.cpp");
  write("added.cpp", "int n;\n");
  git("add -N added.cpp");

  // From a subdirectory: paths still resolve against the top-level.
  llvm::Expected<ChangedFiles> Changes = readChanges("HEAD", path("src"));
  ASSERT_TRUE(static_cast<bool>(Changes))
      << llvm::toString(Changes.takeError());
  ASSERT_NE(Changes->find(path("src/train.cpp")), nullptr);
  EXPECT_EQ(Changes->find(path("src/train.cpp"))->ranges(),
            (Ranges{{3, 3}, {5, 5}}));
  ASSERT_NE(Changes->find(path("new name.cpp")), nullptr);
  EXPECT_EQ(Changes->find(path("new name.cpp"))->ranges(), (Ranges{{2, 2}}));
  ASSERT_NE(Changes->find(path("added.cpp")), nullptr);
  EXPECT_EQ(Changes->find(path("gone.cpp")), nullptr);
  EXPECT_EQ(Changes->find(path("src/model.h")), nullptr);
}

TEST_F(ScratchRepo, BadRefAndNoRepositoryAreOneLineErrors) {
  write("a.cpp", "int a;\n");
  git("add -A");
  git("commit -q -m base");
  llvm::Expected<ChangedFiles> Changes = readChanges("no-such-ref", Root);
  ASSERT_FALSE(static_cast<bool>(Changes));
  std::string Error = llvm::toString(Changes.takeError());
  EXPECT_NE(Error.find("'git diff no-such-ref' failed"), std::string::npos)
      << Error;
  EXPECT_EQ(Error.find('\n'), std::string::npos) << Error;

  Changes = readChanges("--output=/tmp/x", Root);
  ASSERT_FALSE(static_cast<bool>(Changes));
  EXPECT_NE(llvm::toString(Changes.takeError()).find("invalid --diff"),
            std::string::npos);

  llvm::SmallString<128> Outside;
  ASSERT_FALSE(llvm::sys::fs::createUniqueDirectory("diff-test-out", Outside));
  Changes = readChanges("HEAD", Outside);
  ASSERT_FALSE(static_cast<bool>(Changes));
  EXPECT_NE(llvm::toString(Changes.takeError()).find("not inside a git"),
            std::string::npos);
  llvm::sys::fs::remove_directories(Outside);
}

TEST_F(ScratchRepo, StdinDiffResolvesAgainstTopLevel) {
  write("a.cpp", "int a;\n");
  git("add -A");
  git("commit -q -m base");
  std::string Diff = "diff --git a/a.cpp b/a.cpp\n--- a/a.cpp\n+++ b/a.cpp\n"
                     "@@ -1 +1 @@\n-int a;\n+int b;\n";
  llvm::Expected<ChangedFiles> Changes = readChanges("-", path("sub"), &Diff);
  ASSERT_TRUE(static_cast<bool>(Changes));
  EXPECT_NE(Changes->find(path("a.cpp")), nullptr);
}

TEST_F(ScratchRepo, ChangedHeaderSelectsTheUnitsThatIncludeIt) {
  write("include/lib/model.h", "#pragma once\n#include \"detail.h\"\n");
  write("include/lib/detail.h", "int d;\n");
  write("src/uses_model.cpp", "#include <lib/model.h>\nint u;\n");
  write("src/uses_detail.cpp",
        "#if 0\n#include \"../include/lib/detail.h\"\n#endif\n");
  write("src/unrelated.cpp", "#include <vector>\nint r;\n");
  write("src/computed.cpp", "#define H <vector>\n#include H\n");
  std::vector<std::string> Units = {
      path("src/uses_model.cpp"), path("src/uses_detail.cpp"),
      path("src/unrelated.cpp"), path("src/computed.cpp")};
  FixedCompilationDatabase Compilations(
      path("src"),
      {"-std=c++17", "-I../include", "-isystem", "/usr/include/torch"});

  ChangedFiles Changes;
  Changes.Lines[path("include/lib/detail.h")].add(1, 1);
  EXPECT_EQ(selectChangedUnits(Units, Changes, Compilations),
            (std::vector<std::string>{path("src/uses_model.cpp"),
                                      path("src/uses_detail.cpp"),
                                      path("src/computed.cpp")}));

  // Only a unit's own lines changed: only that unit.
  ChangedFiles Own;
  Own.Lines[path("src/unrelated.cpp")].add(2, 2);
  EXPECT_EQ(selectChangedUnits(Units, Own, Compilations),
            (std::vector<std::string>{path("src/unrelated.cpp")}));

  // A file that only lost its last lines, or only moved, selects nothing.
  ChangedFiles Renamed;
  Renamed.Lines[path("src/unrelated.cpp")];
  EXPECT_TRUE(selectChangedUnits(Units, Renamed, Compilations).empty());
}

TEST(IncludeScanTest, ReadsDirectivesTextually) {
  std::vector<IncludeDirective> Found = scanIncludeDirectives(
      "#include \"a.h\"\n  #  include <b/c.h> // x\n#include_next <d.h>\n"
      "#include MACRO\n#includes are not here\n#define X 1\n#import "
      "\"e.h\"\r\n");
  ASSERT_EQ(Found.size(), 5u);
  EXPECT_EQ(Found[0].Spelling, "a.h");
  EXPECT_FALSE(Found[0].Angled);
  EXPECT_EQ(Found[1].Spelling, "b/c.h");
  EXPECT_TRUE(Found[1].Angled);
  EXPECT_EQ(Found[2].Spelling, "d.h");
  EXPECT_TRUE(Found[3].Computed);
  EXPECT_EQ(Found[4].Spelling, "e.h");
}

TEST(DiffFilterTest, KeepsFindingsOnChangedLinesAndAllCompilerErrors) {
  model::RunResult Run;
  model::TranslationUnitResult Unit;
  Unit.MainFile = "/r/a.cpp";
  auto Make = [](std::string File, unsigned Line) {
    model::Finding F;
    F.CheckId = "libtorch-x";
    F.Where.AbsoluteFile = std::move(File);
    F.Where.Begin.Line = Line;
    return F;
  };
  Unit.Findings = {Make("/r/a.cpp", 3), Make("/r/a.cpp", 9),
                   Make("/r/./h.h", 1), Make("/r/other.h", 1)};
  Unit.CompilerErrors = {Make("/r/a.cpp", 40)};
  Run.Units.push_back(Unit);

  ChangedFiles Changes;
  Changes.Lines["/r/a.cpp"].add(2, 4);
  Changes.Lines["/r/h.h"].add(1, 1);
  EXPECT_EQ(keepFindingsOnChangedLines(Run, Changes), 2u);
  ASSERT_EQ(Run.Units[0].Findings.size(), 2u);
  EXPECT_EQ(Run.Units[0].Findings[0].Where.Begin.Line, 3u);
  EXPECT_EQ(Run.Units[0].Findings[1].Where.AbsoluteFile, "/r/./h.h");
  EXPECT_EQ(Run.Units[0].CompilerErrors.size(), 1u);
}

} // namespace diff_filter_test
