//===--- BuildCommandsTest.cpp - Compile commands of real builds ----------===//
//
// Part of libtorch-tidy. SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

#include "units/BuildCommands.h"
#include "clang/Tooling/CompilationDatabase.h"
#include "llvm/ADT/SmallString.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/raw_ostream.h"

#include "clang/Basic/Version.h"
#include "gtest/gtest.h"

using namespace libtorch_tidy;
using Args = std::vector<std::string>;

// Named, not anonymous: the unit tests compile in unity batches
// (CMakeLists.txt), where the helpers of one file must not meet another's.
namespace build_commands_test {

/// A directory with the files a PCH build leaves: cmake_pch.hxx and its
/// GCC PCH beside it, and other.h without one.
class BuildCommandsTest : public ::testing::Test {
protected:
  void SetUp() override {
    ASSERT_FALSE(llvm::sys::fs::createUniqueDirectory("build-commands", Dir));
    write("cmake_pch.hxx", "#include <vector>\n");
    write("cmake_pch.hxx.gch", "gpch");
    write("other.h", "int other();\n");
    write("clangpch.h", "int clangpch();\n");
    write("clangpch.h.pch", "CPCH");
    write("orphan.pch", "CPCH");
  }
  void TearDown() override { llvm::sys::fs::remove_directories(Dir); }

  void write(llvm::StringRef Name, llvm::StringRef Text) {
    std::error_code EC;
    llvm::raw_fd_ostream OS(path(Name), EC);
    ASSERT_FALSE(EC);
    OS << Text;
  }
  std::string path(llvm::StringRef Name) {
    llvm::SmallString<256> P(Dir);
    llvm::sys::path::append(P, Name);
    return std::string(P);
  }

  llvm::SmallString<256> Dir;
};

TEST_F(BuildCommandsTest, DropsCompilerLaunchers) {
  EXPECT_EQ(
      adjustBuildCommand(Args{"/usr/bin/ccache", "g++", "-c", "a.cpp"}, Dir),
      (Args{"g++", "-c", "a.cpp"}));
  EXPECT_EQ(adjustBuildCommand(
                Args{"icecc", "distcc", "/usr/bin/c++", "-c", "a.cpp"}, Dir),
            (Args{"/usr/bin/c++", "-c", "a.cpp"}));
  // A launcher that finds the compiler itself.
  EXPECT_EQ(adjustBuildCommand(Args{"distcc", "-c", "a.cpp"}, Dir),
            (Args{"c++", "-c", "a.cpp"}));
  EXPECT_EQ(adjustBuildCommand(Args{"sccache", "clang++", "a.cpp"}, Dir),
            (Args{"clang++", "a.cpp"}));
}

// g++'s names of standards: those the clang in use knows stay; one it does
// not know becomes the newest one of the same dialect it knows that is not
// newer. Clang 19 and 22 know every name g++ 12 to 15 has (clang 16 knew
// none of c++23, c++26 and c++2c): on the majors we build against, every
// spelling stays as it is and no change is recorded.
TEST_F(BuildCommandsTest, UsesStandardsClangKnows) {
  const std::pair<const char *, const char *> Spellings[] = {
      {"-std=c++23", "-std=c++23"},     {"-std=gnu++23", "-std=gnu++23"},
      {"-std=c++26", "-std=c++26"},     {"-std=gnu++26", "-std=gnu++26"},
      {"-std=c++2c", "-std=c++2c"},     {"-std=gnu++2c", "-std=gnu++2c"},
      {"--std=c++23", "--std=c++23"},   {"-std=c++2b", "-std=c++2b"},
      {"-std=gnu++17", "-std=gnu++17"}, {"-std=c17", "-std=c17"}};
  for (const auto &[Asked, Used] : Spellings) {
    BuildCommandChanges Changes;
    EXPECT_EQ(
        adjustBuildCommand(Args{"g++", Asked, "-c", "a.cpp"}, Dir, &Changes),
        (Args{"g++", Used, "-c", "a.cpp"}))
        << Asked;
    EXPECT_EQ(Changes.StandardAsked.empty(), llvm::StringRef(Asked) == Used);
  }
  EXPECT_EQ(adjustBuildCommand(Args{"g++", "--std", "gnu++23", "a.cpp"}, Dir),
            (Args{"g++", "--std", "gnu++23", "a.cpp"}));
}

TEST_F(BuildCommandsTest, IncludesHeaderTextInsteadOfGccPch) {
  BuildCommandChanges Changes;
  // CMake's command for a target with target_precompile_headers, and an
  // -include without a PCH before it: both become cc1 includes, in order.
  Args Command = {"/usr/bin/c++",
                  "-include",
                  path("other.h"),
                  "-Winvalid-pch",
                  "-include",
                  path("cmake_pch.hxx"),
                  "-o",
                  "a.o",
                  "-c",
                  "a.cpp"};
  EXPECT_EQ(
      adjustBuildCommand(Command, Dir, &Changes),
      (Args{"/usr/bin/c++", "-Xclang", "-include", "-Xclang", path("other.h"),
            "-Winvalid-pch", "-Xclang", "-include", "-Xclang",
            path("cmake_pch.hxx"), "-o", "a.o", "-c", "a.cpp"}));
  EXPECT_EQ(Changes.PrecompiledHeaders, Args{path("cmake_pch.hxx") + ".gch"});
  // Relative to the command's directory.
  EXPECT_EQ(adjustBuildCommand(
                Args{"c++", "-include", "cmake_pch.hxx", "-c", "a.cpp"}, Dir),
            (Args{"c++", "-Xclang", "-include", "-Xclang", "cmake_pch.hxx",
                  "-c", "a.cpp"}));
  // Without a PCH beside it, -include stays as it is.
  Args Plain = {"c++", "-include", path("other.h"), "-c", "a.cpp"};
  EXPECT_EQ(adjustBuildCommand(Plain, Dir), Plain);
}

TEST_F(BuildCommandsTest, ReplacesIncludePchWithItsHeader) {
  BuildCommandChanges Changes;
  EXPECT_EQ(adjustBuildCommand(Args{"clang++", "-include-pch",
                                    path("clangpch.h.pch"), "-c", "a.cpp"},
                               Dir, &Changes),
            (Args{"clang++", "-Xclang", "-include", "-Xclang",
                  path("clangpch.h"), "-c", "a.cpp"}));
  EXPECT_EQ(Changes.PrecompiledHeaders, Args{path("clangpch.h.pch")});
  // CMake with clang: the PCH behind -Xclang, the header's text included
  // after it; the PCH goes, the include stays.
  EXPECT_EQ(
      adjustBuildCommand(Args{"clang++", "-Xclang", "-include-pch", "-Xclang",
                              path("clangpch.h.pch"), "-Xclang", "-include",
                              "-Xclang", path("clangpch.h"), "-c", "a.cpp"},
                         Dir),
      (Args{"clang++", "-Xclang", "-include", "-Xclang", path("clangpch.h"),
            "-c", "a.cpp"}));
  // No header text beside the PCH: dropped, and said.
  BuildCommandChanges Orphan;
  EXPECT_EQ(adjustBuildCommand(Args{"clang++", "-include-pch",
                                    path("orphan.pch"), "-c", "a.cpp"},
                               Dir, &Orphan),
            (Args{"clang++", "-c", "a.cpp"}));
  EXPECT_EQ(Orphan.DroppedPch, Args{path("orphan.pch")});
}

TEST_F(BuildCommandsTest, DropsArgumentsClangDoesNotKnow) {
  BuildCommandChanges Changes;
  EXPECT_EQ(adjustBuildCommand(
                Args{"g++", "-fconcepts", "-O2", "-fno-gnu-unique", "-Wall",
                     "-fimplicit-constexpr", "-std=gnu++17", "-c", "a.cpp"},
                Dir, &Changes),
            (Args{"g++", "-O2", "-Wall", "-std=gnu++17", "-c", "a.cpp"}));
  EXPECT_EQ(Changes.UnknownArguments,
            (Args{"-fconcepts", "-fno-gnu-unique", "-fimplicit-constexpr"}));
  // Values of known options are kept, whatever they look like.
  Args Known = {"g++", "-Xclang", "-fconcepts", "-I", "-fno-gnu-unique",
                "-c",  "a.cpp"};
  EXPECT_EQ(adjustBuildCommand(Known, Dir), Known);
}

TEST_F(BuildCommandsTest, NoticesOncePerArgument) {
  std::vector<clang::tooling::CompileCommand> Commands;
  for (const char *File : {"a.cpp", "b.cpp"})
    Commands.emplace_back(std::string(Dir), path(File),
                          Args{"g++", "-fconcepts", "-fconcepts", "-include",
                               path("cmake_pch.hxx"), "-c", path(File)},
                          "");
  class Database : public clang::tooling::CompilationDatabase {
  public:
    explicit Database(std::vector<clang::tooling::CompileCommand> Commands)
        : Commands(std::move(Commands)) {}
    std::vector<clang::tooling::CompileCommand>
    getCompileCommands(llvm::StringRef File) const override {
      std::vector<clang::tooling::CompileCommand> Found;
      for (const auto &C : Commands)
        if (C.Filename == File)
          Found.push_back(C);
      return Found;
    }

  private:
    std::vector<clang::tooling::CompileCommand> Commands;
  } DB(Commands);
  std::vector<std::string> Notices =
      buildCommandNotices(DB, {path("a.cpp"), path("b.cpp")});
  ASSERT_EQ(Notices.size(), 2u);
  EXPECT_EQ(Notices[0], "libtorch-tidy: note: dropped '-fconcepts' from 2 "
                        "compile commands (first: '" +
                            path("a.cpp") +
                            "'): clang " CLANG_VERSION_MAJOR_STRING
                            " does not know this option (a g++ "
                            "one?)");
  EXPECT_EQ(Notices[1], "libtorch-tidy: note: 2 compile commands use a "
                        "precompiled header (first: '" +
                            path("a.cpp") +
                            "'); analyzing against the header's text instead");
}

} // namespace build_commands_test
