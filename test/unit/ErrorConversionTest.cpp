//===--- ErrorConversionTest.cpp - Positions and digests of findings ------===//
//
// Part of libtorch-tidy. SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

#include "run/ErrorConversion.h"
#include "run/ResultCache.h"

#include "gtest/gtest.h"

using namespace libtorch_tidy::run;

// Named, not anonymous: the unit tests compile in unity batches
// (CMakeLists.txt), where the helpers of one file must not meet another's.
namespace error_conversion_test {

TEST(ErrorConversionTest, LinesAndColumnsAreOneBased) {
  llvm::StringRef Text = "ab\ncd\n";
  libtorch_tidy::model::Position P = positionAt(Text, 0);
  EXPECT_EQ(P.Line, 1u);
  EXPECT_EQ(P.Column, 1u);
  P = positionAt(Text, 4);
  EXPECT_EQ(P.Line, 2u);
  EXPECT_EQ(P.Column, 2u);
  EXPECT_EQ(P.ColumnUtf16, 2u);
}

TEST(ErrorConversionTest, Utf16ColumnsCountCodeUnits) {
  // "é" is 2 bytes and 1 UTF-16 unit; U+1F600 is 4 bytes and 2 units.
  std::string Text = "x = \"\xC3\xA9\xF0\x9F\x98\x80\"; y";
  libtorch_tidy::model::Position P = positionAt(Text, Text.size() - 1);
  EXPECT_EQ(P.Column, Text.size());
  EXPECT_EQ(P.ColumnUtf16, Text.size() - 1 - 3 + 1);
}

TEST(ErrorConversionTest, OffsetPastTheEndIsClamped) {
  libtorch_tidy::model::Position P = positionAt("ab", 10);
  EXPECT_EQ(P.Line, 1u);
  EXPECT_EQ(P.Column, 3u);
}

TEST(ErrorConversionTest, DigestIsLowercaseSha256) {
  EXPECT_EQ(libtorch_tidy::model::contentDigest("abc"),
            "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad");
}

TEST(ResultCacheTest, KeyPartsAreDelimited) {
  EXPECT_NE(ResultCache::key({"ab", "c"}), ResultCache::key({"a", "bc"}));
  EXPECT_EQ(ResultCache::key({"a", "b"}), ResultCache::key({"a", "b"}));
}

} // namespace error_conversion_test
