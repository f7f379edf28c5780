//===--- EntrySignatureTest.cpp - Signed remote cache entries -------------===//
//
// Part of libtorch-tidy. SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

#include "cache/remote/EntrySignature.h"
#include "gtest/gtest.h"

using namespace libtorch_tidy::cache;

// Named, not anonymous: the unit tests compile in unity batches.
namespace entry_signature_test {

// RFC 8032, section 7.1, TEST 1: the seed and the public key it makes.
constexpr const char *Rfc8032Seed =
    "9d61b19deffd5a60ba844af492ec2cc44449c5697b326919703bac031cae7f60";
constexpr const char *Rfc8032Public =
    "d75a980182b10ab7d54bfed3c964073a0ee172f3daa62325af021a68f707511a";

SigningKey rfcKey() { return *SigningKey::fromSeedHex(Rfc8032Seed); }

TEST(EntrySignatureTest, KeyOfASeedIsRfc8032s) {
  EXPECT_EQ(verifyKeyHex(rfcKey().verifyKey()), Rfc8032Public);
  EXPECT_EQ(rfcKey().seedHex(), Rfc8032Seed);
  // A key file's trailing newline and spaces do not count.
  EXPECT_TRUE(SigningKey::fromSeedHex(std::string(Rfc8032Seed) + "\n"));
}

TEST(EntrySignatureTest, RefusesWhatIsNoKey) {
  for (const char *Text : {"", "9d61", "not hex at all",
                           // One digit short, one too many, a non-digit.
                           "9d61b19deffd5a60ba844af492ec2cc44449c5697b326919"
                           "703bac031cae7f6",
                           "9d61b19deffd5a60ba844af492ec2cc44449c5697b326919"
                           "703bac031cae7f600",
                           "9d61b19deffd5a60ba844af492ec2cc44449c5697b326919"
                           "703bac031cae7fzz"}) {
    EXPECT_FALSE(SigningKey::fromSeedHex(Text)) << Text;
    EXPECT_FALSE(parseVerifyKey(Text)) << Text;
  }
}

TEST(EntrySignatureTest, TrustedKeyVerifiesItsEntry) {
  const std::string Signed = rfcKey().sign("key1", "the entry\n\x01bytes");
  std::string Why;
  std::optional<llvm::StringRef> Entry =
      verifiedEntry(Signed, "key1", {rfcKey().verifyKey()}, Why);
  ASSERT_TRUE(Entry) << Why;
  EXPECT_EQ(*Entry, "the entry\n\x01bytes");
}

TEST(EntrySignatureTest, RefusesEntryChangedMovedOrOfAnotherKey) {
  const SigningKey Writer = rfcKey(), Other = SigningKey::generate();
  const std::vector<VerifyKey> Trusted = {Writer.verifyKey()};
  const std::string Signed = Writer.sign("key1", "the entry");
  std::string Why;
  // A byte of the entry changed.
  std::string Changed = Signed;
  Changed.back() ^= 1;
  EXPECT_FALSE(verifiedEntry(Changed, "key1", Trusted, Why));
  EXPECT_EQ(Why, "its signature is not one of a trusted key");
  // The same bytes under another key.
  EXPECT_FALSE(verifiedEntry(Signed, "key2", Trusted, Why));
  // Signed by a key nobody trusts.
  EXPECT_FALSE(
      verifiedEntry(Other.sign("key1", "the entry"), "key1", Trusted, Why));
  // Not signed at all.
  EXPECT_FALSE(verifiedEntry("the entry", "key1", Trusted, Why));
  EXPECT_EQ(Why, "it is not signed");
  // A signature line that is no signature.
  EXPECT_FALSE(verifiedEntry("libtorch-tidy signed remote entry\ned25519 00\n"
                             "the entry",
                             "key1", Trusted, Why));
  EXPECT_EQ(Why, "its signature line is malformed");
}

TEST(EntrySignatureTest, AnyOfSeveralTrustedKeysVerifies) {
  const SigningKey Old = SigningKey::generate(), New = rfcKey();
  std::string Why;
  EXPECT_TRUE(verifiedEntry(Old.sign("k", "e"), "k",
                            {New.verifyKey(), Old.verifyKey()}, Why));
}

TEST(EntrySignatureTest, WithoutTrustedKeysAnyEntryIsTakenAsItIs) {
  std::string Why;
  EXPECT_EQ(verifiedEntry("plain", "k", {}, Why), llvm::StringRef("plain"));
  EXPECT_EQ(
      verifiedEntry(SigningKey::generate().sign("k", "inner"), "k", {}, Why),
      llvm::StringRef("inner"));
}

TEST(EntrySignatureTest, GeneratedKeysDiffer) {
  EXPECT_NE(SigningKey::generate().seedHex(), SigningKey::generate().seedHex());
}

} // namespace entry_signature_test
