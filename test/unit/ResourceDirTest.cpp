//===--- ResourceDirTest.cpp - driver resource-dir lookup -----------------===//
//
// Part of libtorch-tidy. SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

#include "units/ResourceDir.h"
#include "llvm/ADT/SmallString.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Path.h"
#include "gtest/gtest.h"

using namespace libtorch_tidy;

// Named, not anonymous: the unit tests compile in unity batches
// (CMakeLists.txt), where the helpers of one file must not meet another's.
namespace resource_dir_test {

TEST(ResourceDirTest, BuiltInDirectoryHasTheBuiltinHeaders) {
  EXPECT_TRUE(isClangResourceDir(LIBTORCH_TIDY_CLANG_RESOURCE_DIR));
  EXPECT_FALSE(isClangResourceDir("/nonexistent/lib/clang/16"));
}

TEST(ResourceDirTest, LooksNextToTheExecutableFirst) {
  auto Candidates =
      resourceDirCandidates("/opt/tidy/bin/libtorch-tidy", "/builtin", "16");
  ASSERT_EQ(Candidates.size(), 2u);
  EXPECT_EQ(Candidates[0], "/opt/tidy/lib/clang/16");
  EXPECT_EQ(Candidates[1], "/builtin");
}

TEST(ResourceDirTest, FallsBackToTheBuiltInDirectory) {
  // An installed tool in a prefix without clang: the first candidate has no
  // headers, the compiled-in one does.
  llvm::SmallString<128> Prefix;
  ASSERT_FALSE(llvm::sys::fs::createUniqueDirectory("rdtest", Prefix));
  auto Candidates =
      resourceDirCandidates((Prefix + "/bin/libtorch-tidy").str(),
                            LIBTORCH_TIDY_CLANG_RESOURCE_DIR, "16");
  EXPECT_EQ(findResourceDir(Candidates), LIBTORCH_TIDY_CLANG_RESOURCE_DIR);
  EXPECT_EQ(findResourceDir({"/nonexistent"}), "");
  llvm::sys::fs::remove_directories(Prefix);
}

TEST(ResourceDirTest, RecognizesAnExplicitResourceDir) {
  EXPECT_TRUE(hasResourceDirArgument({"clang++", "-resource-dir", "/x"}));
  EXPECT_TRUE(hasResourceDirArgument({"clang++", "-resource-dir=/x"}));
  EXPECT_FALSE(hasResourceDirArgument({"clang++", "-c", "a.cpp"}));
}

} // namespace resource_dir_test
