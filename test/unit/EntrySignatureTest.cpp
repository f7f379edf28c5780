//===--- EntrySignatureTest.cpp - Signed remote cache entries -------------===//
//
// Part of libtorch-tidy. SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

#include "cache/remote/EntrySignature.h"
#include "cache/remote/RemoteSpec.h"
#include "gtest/gtest.h"
#include <cstdlib>

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

std::string errorOf(llvm::StringRef Text) {
  llvm::Expected<std::vector<RemoteSpec>> Specs = parseRemoteSpecs(Text);
  if (Specs)
    return "";
  return llvm::toString(Specs.takeError());
}

TEST(RemoteSpecSigningTest, WriterTrustsItsOwnKey) {
  ::setenv("LIBTORCH_TIDY_TEST_SIGNING_KEY", Rfc8032Seed, 1);
  llvm::Expected<std::vector<RemoteSpec>> Specs = parseRemoteSpecs(
      "redis://h|signing-key-env=LIBTORCH_TIDY_TEST_SIGNING_KEY "
      "http://h/p|read-only|verify-key=" +
      std::string(Rfc8032Public) + "|verify-key=" + std::string(64, 'a'));
  ::unsetenv("LIBTORCH_TIDY_TEST_SIGNING_KEY");
  ASSERT_TRUE(bool(Specs)) << llvm::toString(Specs.takeError());
  ASSERT_EQ(Specs->size(), 2u);
  ASSERT_TRUE((*Specs)[0].Signing);
  ASSERT_EQ((*Specs)[0].Trusted.size(), 1u);
  EXPECT_EQ(verifyKeyHex((*Specs)[0].Trusted[0]), Rfc8032Public);
  EXPECT_FALSE((*Specs)[1].Signing);
  EXPECT_EQ((*Specs)[1].Trusted.size(), 2u);
}

TEST(RemoteSpecSigningTest, RefusesKeysOnTheCommandLineAndHalfSetUps) {
  EXPECT_EQ(errorOf("redis://h|signing-key=" + std::string(Rfc8032Seed)),
            "invalid --remote-cache: signing-key= of redis://h would put the "
            "secret on the command line; use signing-key-env=VARIABLE or "
            "signing-key-file=PATH");
  EXPECT_EQ(errorOf("redis://h|verify-key=" + std::string(Rfc8032Public)),
            "invalid --remote-cache: redis://h has a verify-key but no "
            "signing key, so the entries this run stores would be refused; "
            "add |read-only, or signing-key-env=VARIABLE or "
            "signing-key-file=PATH");
  ::setenv("LIBTORCH_TIDY_TEST_SIGNING_KEY", "secret-not-a-key", 1);
  const std::string Error =
      errorOf("redis://h|signing-key-env=LIBTORCH_TIDY_TEST_SIGNING_KEY");
  ::unsetenv("LIBTORCH_TIDY_TEST_SIGNING_KEY");
  EXPECT_NE(Error.find("is not 64 hex digits"), std::string::npos) << Error;
  EXPECT_EQ(Error.find("secret-not-a-key"), std::string::npos) << Error;
  EXPECT_NE(errorOf("redis://h|signing-key-env=LIBTORCH_TIDY_TEST_UNSET_VAR")
                .find("is not set or empty"),
            std::string::npos);
}

} // namespace entry_signature_test
