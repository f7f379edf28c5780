//===--- ErrorConversionTest.cpp - Positions and digests of findings ------===//
//
// Part of libtorch-tidy. SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

#include "run/ErrorConversion.h"
#include "cache/ResultCache.h"

#include "gtest/gtest.h"

using namespace libtorch_tidy::run;
using libtorch_tidy::cache::ResultCache;
using libtorch_tidy::model::contentDigest;

// Named, not anonymous: the unit tests compile in unity batches
// (CMakeLists.txt), where the helpers of one file must not meet another's.
namespace error_conversion_test {

TEST(ErrorConversionTest, DigestIsLowercaseSha256) {
  EXPECT_EQ(libtorch_tidy::model::contentDigest("abc"),
            "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad");
}

TEST(ResultCacheTest, KeyPartsAreDelimited) {
  EXPECT_NE(ResultCache::key({"ab", "c"}), ResultCache::key({"a", "bc"}));
  EXPECT_EQ(ResultCache::key({"a", "b"}), ResultCache::key({"a", "b"}));
}

} // namespace error_conversion_test
