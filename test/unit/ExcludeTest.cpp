//===--- ExcludeTest.cpp - --exclude globs and what they leave out --------===//
//
// Part of libtorch-tidy. SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

#include "select/Exclude.h"

#include "gtest/gtest.h"

using namespace libtorch_tidy;
using namespace libtorch_tidy::select;

// Named, not anonymous: the unit tests compile in unity batches
// (CMakeLists.txt), where the helpers of one file must not meet another's.
namespace exclude_test {

// The base directories below do not exist: only the spelled paths are tried.
bool matches(llvm::StringRef Glob, llvm::StringRef Path,
             llvm::StringRef Base = "/no-such-project") {
  return ExcludeGlob(Glob, Base).matches(Path);
}

TEST(ExcludeTest, StarStaysWithinOneComponent) {
  EXPECT_TRUE(matches("*.pb.cc", "/no-such-project/a.pb.cc"));
  EXPECT_FALSE(matches("*.pb.cc", "/no-such-project/src/a.pb.cc"));
  EXPECT_FALSE(matches("*/vendor.cpp", "/no-such-project/a/b/vendor.cpp"));
  EXPECT_TRUE(matches("a/*/vendor.cpp", "/no-such-project/a/b/vendor.cpp"));
  EXPECT_TRUE(matches("src/?.cpp", "/no-such-project/src/x.cpp"));
  EXPECT_FALSE(matches("src/?.cpp", "/no-such-project/src/xy.cpp"));
  EXPECT_TRUE(matches("src/[ab].cpp", "/no-such-project/src/b.cpp"));
}

TEST(ExcludeTest, DoubleStarSpansDirectories) {
  EXPECT_TRUE(matches("**/*.pb.cc", "/no-such-project/a.pb.cc"));
  EXPECT_TRUE(matches("**/*.pb.cc", "/no-such-project/x/y/z/a.pb.cc"));
  EXPECT_TRUE(matches("src/**/gen.h", "/no-such-project/src/gen.h"));
  EXPECT_TRUE(matches("src/**/gen.h", "/no-such-project/src/a/b/gen.h"));
  EXPECT_FALSE(matches("src/**/gen.h", "/no-such-project/lib/a/gen.h"));
  EXPECT_TRUE(matches("third_party/**", "/no-such-project/third_party/x.h"));
}

TEST(ExcludeTest, ADirectoryCoversWhatIsBelowIt) {
  for (llvm::StringRef Glob :
       {"third_party", "third_party/", "./third_party", "third_party/**"})
    EXPECT_TRUE(matches(Glob, "/no-such-project/third_party/lib/a.cpp"))
        << Glob.str();
  EXPECT_FALSE(matches("third_party", "/no-such-project/third_party_b/a.cpp"));
  EXPECT_FALSE(matches("third_party", "/no-such-project/src/third_party/a.h"));
}

TEST(ExcludeTest, RelativeGlobsAreAnchoredAtTheirBase) {
  EXPECT_TRUE(matches("gen", "/p/gen/a.h", "/p"));
  EXPECT_FALSE(matches("gen", "/q/gen/a.h", "/p"));
  EXPECT_TRUE(matches("../q/gen", "/q/gen/a.h", "/p"));
  // Absolute globs ignore the base.
  EXPECT_TRUE(matches("/q/**/*.h", "/q/gen/a.h", "/p"));
  EXPECT_FALSE(matches("/q/*.h", "/q/gen/a.h", "/p"));
  // The path is normalized first.
  EXPECT_TRUE(matches("gen", "/p/src/../gen/a.h", "/p"));
}

TEST(ExcludeTest, SplitsTheConfigurationValue) {
  EXPECT_EQ(splitExcludeList(" a/** ; b,c\n d;;"),
            (std::vector<std::string>{"a/**", "b", "c", "d"}));
  EXPECT_TRUE(splitExcludeList("  ").empty());
}

clang::tidy::ClangTidyOptions withExclude(llvm::StringRef Value) {
  clang::tidy::ClangTidyOptions Options;
  Options.CheckOptions[ExcludeOptionKey] = Value;
  return Options;
}

TEST(ExcludeTest, ConfigFileGlobsAreRelativeToTheFile) {
  clang::tidy::ConfigOptionsProvider Provider(
      {}, clang::tidy::ClangTidyOptions::getDefaults(), withExclude("gen/**"),
      {});
  ExcludeFilter Filter = ExcludeFilter::create(
      {"vendor"}, "/wd", "/conf/tidy.yaml", Provider, {"/wd/a.cpp"});
  EXPECT_FALSE(Filter.empty());
  EXPECT_TRUE(Filter.excludes("/wd/a.cpp", "/conf/gen/x.h"));
  EXPECT_FALSE(Filter.excludes("/wd/a.cpp", "/wd/gen/x.h"));
  EXPECT_TRUE(Filter.excludes("/wd/a.cpp", "/wd/vendor/x.h"));
  // A unit the filter was not built for still gets the command line's.
  EXPECT_TRUE(Filter.excludes("/wd/other.cpp", "/wd/vendor/y.h"));
  EXPECT_FALSE(Filter.excludes("/wd/other.cpp", "/conf/gen/x.h"));
}

TEST(ExcludeTest, InlineConfigGlobsAreRelativeToTheWorkingDirectory) {
  clang::tidy::ConfigOptionsProvider Provider(
      {}, clang::tidy::ClangTidyOptions::getDefaults(), withExclude("gen"), {});
  ExcludeFilter Filter =
      ExcludeFilter::create({}, "/wd", "", Provider, {"/wd/a.cpp"});
  EXPECT_TRUE(Filter.excludes("/wd/a.cpp", "/wd/gen/x.h"));
}

TEST(ExcludeTest, DropsFindingsInExcludedFilesAsNonUserCode) {
  clang::tidy::ConfigOptionsProvider Provider(
      {}, clang::tidy::ClangTidyOptions::getDefaults(), {}, {});
  ExcludeFilter Filter = ExcludeFilter::create({"third_party"}, "/wd", "",
                                               Provider, {"/wd/main.cpp"});
  model::TranslationUnitResult Unit;
  Unit.MainFile = "/wd/main.cpp";
  Unit.Suppressed.NonUserCode = 2;
  for (const char *File : {"/wd/main.cpp", "/wd/third_party/a.h",
                           "/wd/third_party/b/c.h", "/wd/src/d.h"}) {
    model::Finding F;
    F.Where.File = File;
    F.Where.AbsoluteFile = File;
    Unit.Findings.push_back(F);
  }
  model::Finding Error;
  Error.Where.AbsoluteFile = "/wd/third_party/a.h";
  Unit.CompilerErrors.push_back(Error);

  EXPECT_EQ(dropExcludedFindings(Unit, Filter), 2u);
  ASSERT_EQ(Unit.Findings.size(), 2u);
  EXPECT_EQ(Unit.Findings[0].Where.File, "/wd/main.cpp");
  EXPECT_EQ(Unit.Findings[1].Where.File, "/wd/src/d.h");
  EXPECT_EQ(Unit.Suppressed.NonUserCode, 4u);
  // Compiler errors decide whether the unit was analyzed: kept.
  EXPECT_EQ(Unit.CompilerErrors.size(), 1u);
}

TEST(ExcludeTest, RemovesExcludedUnitsInOrder) {
  clang::tidy::ConfigOptionsProvider Provider(
      {}, clang::tidy::ClangTidyOptions::getDefaults(), {}, {});
  std::vector<std::string> Units = {"/wd/b.cpp", "/wd/gen/x.cpp", "/wd/a.cpp"};
  ExcludeFilter Filter =
      ExcludeFilter::create({"gen/**"}, "/wd", "", Provider, Units);
  EXPECT_EQ(removeExcludedUnits(Units, Filter), 1u);
  EXPECT_EQ(Units, (std::vector<std::string>{"/wd/b.cpp", "/wd/a.cpp"}));
}

} // namespace exclude_test
