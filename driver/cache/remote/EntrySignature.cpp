//===--- EntrySignature.cpp - Signed entries of the remote cache ----------===//
//
// Part of libtorch-tidy. SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

#include "cache/remote/EntrySignature.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/ErrorHandling.h"
#include <sodium.h>

using namespace llvm;

namespace libtorch_tidy::cache {
namespace {

/// The first line of a signed entry.
constexpr llvm::StringLiteral SignedMagic =
    "libtorch-tidy signed remote entry\n";
constexpr llvm::StringLiteral SignatureField = "ed25519 ";
/// What a signature covers before the key and the entry: no signature made
/// for another purpose with the same key verifies as one of an entry.
constexpr llvm::StringLiteral SignedContext =
    "libtorch-tidy remote entry signature v1\n";

/// libsodium must be initialized once before use; sodium_init() may be
/// called again, from any thread, and then does nothing.
void initializeSodium() {
  if (sodium_init() < 0)
    report_fatal_error("libsodium cannot be initialized");
}

std::string signedMessage(StringRef Key, StringRef Entry) {
  return (SignedContext + Key + "\n" + Entry).str();
}

/// \p Hex of exactly \p Out's size in bytes.
template <size_t N>
bool fromHex(StringRef Hex, std::array<unsigned char, N> &Out) {
  Hex = Hex.trim();
  std::string Bytes;
  if (Hex.size() != 2 * N || !tryGetFromHex(Hex, Bytes))
    return false;
  std::copy(Bytes.begin(), Bytes.end(), Out.begin());
  sodium_memzero(Bytes.data(), Bytes.size());
  return true;
}

} // namespace

std::optional<SigningKey> SigningKey::fromSeedHex(StringRef Text) {
  initializeSodium();
  std::array<unsigned char, crypto_sign_SEEDBYTES> Seed;
  if (!fromHex(Text, Seed))
    return std::nullopt;
  SigningKey Key;
  crypto_sign_seed_keypair(Key.Public.data(), Key.Secret.data(), Seed.data());
  sodium_memzero(Seed.data(), Seed.size());
  return Key;
}

SigningKey SigningKey::generate() {
  initializeSodium();
  SigningKey Key;
  crypto_sign_keypair(Key.Public.data(), Key.Secret.data());
  return Key;
}

SigningKey::SigningKey(const SigningKey &Other) = default;
SigningKey &SigningKey::operator=(const SigningKey &Other) = default;
SigningKey::~SigningKey() { sodium_memzero(Secret.data(), Secret.size()); }

std::string SigningKey::seedHex() const {
  std::array<unsigned char, crypto_sign_SEEDBYTES> Seed;
  crypto_sign_ed25519_sk_to_seed(Seed.data(), Secret.data());
  std::string Hex = toHex(ArrayRef(Seed), /*LowerCase=*/true);
  sodium_memzero(Seed.data(), Seed.size());
  return Hex;
}

std::string SigningKey::sign(StringRef Key, StringRef Entry) const {
  std::array<unsigned char, crypto_sign_BYTES> Signature;
  const std::string Message = signedMessage(Key, Entry);
  crypto_sign_detached(Signature.data(), nullptr,
                       reinterpret_cast<const unsigned char *>(Message.data()),
                       Message.size(), Secret.data());
  return (SignedMagic + SignatureField +
          toHex(ArrayRef(Signature), /*LowerCase=*/true) + "\n" + Entry)
      .str();
}

std::optional<VerifyKey> parseVerifyKey(StringRef Text) {
  VerifyKey Key;
  if (!fromHex(Text, Key))
    return std::nullopt;
  return Key;
}

std::string verifyKeyHex(const VerifyKey &Key) {
  return toHex(ArrayRef(Key), /*LowerCase=*/true);
}

std::optional<StringRef> verifiedEntry(StringRef Bytes, StringRef Key,
                                       ArrayRef<VerifyKey> Trusted,
                                       std::string &Why) {
  if (!Bytes.consume_front(SignedMagic)) {
    if (Trusted.empty())
      return Bytes;
    Why = "it is not signed";
    return std::nullopt;
  }
  std::array<unsigned char, crypto_sign_BYTES> Signature;
  const size_t LineEnd = Bytes.find('\n');
  StringRef Line = Bytes.take_front(LineEnd);
  if (LineEnd == StringRef::npos || !Line.consume_front(SignatureField) ||
      !fromHex(Line, Signature)) {
    Why = "its signature line is malformed";
    return std::nullopt;
  }
  StringRef Entry = Bytes.drop_front(LineEnd + 1);
  if (Trusted.empty())
    return Entry;
  initializeSodium();
  const std::string Message = signedMessage(Key, Entry);
  for (const VerifyKey &Public : Trusted)
    if (crypto_sign_verify_detached(
            Signature.data(),
            reinterpret_cast<const unsigned char *>(Message.data()),
            Message.size(), Public.data()) == 0)
      return Entry;
  Why = "its signature is not one of a trusted key";
  return std::nullopt;
}

} // namespace libtorch_tidy::cache
