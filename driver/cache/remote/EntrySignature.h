//===--- EntrySignature.h - Signed entries of the remote cache --*- C++ -*-===//
//
// Part of libtorch-tidy. SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//
//
// Ed25519 signatures (libsodium's crypto_sign_detached) over remote cache
// entries, so that a reader can tell an entry a trusted writer made from
// one that anybody else who may write to the server put there.
//
// A signed entry is an envelope around the entry RemoteEntry.h encodes:
//
//   libtorch-tidy signed remote entry\n
//   ed25519 <signature, 128 lowercase hex digits>\n
//   <the entry>
//
// The signature covers a fixed context, the key the entry is stored under
// and the entry's bytes, so a signed entry moved to another unit's key, or
// to a key of another build, does not verify.
//
// A signing key is a file or environment variable holding the 32-byte
// seed of the key pair as 64 hex digits (`libtorch-tidy remote-cache-keygen`
// makes one); a verify key is the pair's public key, 64 hex digits, which
// is no secret.
//
//===----------------------------------------------------------------------===//

#ifndef LIBTORCH_TIDY_DRIVER_CACHE_REMOTE_ENTRYSIGNATURE_H
#define LIBTORCH_TIDY_DRIVER_CACHE_REMOTE_ENTRYSIGNATURE_H

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/StringRef.h"
#include <array>
#include <optional>
#include <string>

namespace libtorch_tidy::cache {

/// An Ed25519 public key.
using VerifyKey = std::array<unsigned char, 32>;

/// The secret half of a key pair, wiped from memory when destroyed.
class SigningKey {
public:
  /// The key whose seed \p Text holds as 64 hex digits (surrounding white
  /// space ignored); nothing if it holds anything else.
  static std::optional<SigningKey> fromSeedHex(llvm::StringRef Text);
  /// A key pair made now from the system's random source.
  static SigningKey generate();

  SigningKey(const SigningKey &Other);
  SigningKey &operator=(const SigningKey &Other);
  ~SigningKey();

  /// The seed as 64 lowercase hex digits: the content of a key file.
  std::string seedHex() const;
  const VerifyKey &verifyKey() const { return Public; }

  /// \p Entry, stored under \p Key, in the signed envelope.
  std::string sign(llvm::StringRef Key, llvm::StringRef Entry) const;

private:
  SigningKey() = default;
  std::array<unsigned char, 64> Secret{}; // libsodium's seed + public key
  VerifyKey Public{};
};

/// \p Text (64 hex digits) as a verify key; nothing if it is not one.
std::optional<VerifyKey> parseVerifyKey(llvm::StringRef Text);
std::string verifyKeyHex(const VerifyKey &Key);

/// The entry inside \p Bytes, stored under \p Key. With \p Trusted keys,
/// only an envelope whose signature one of them verifies; without, any
/// entry, signed or not (its signature unchecked). Nothing otherwise, with
/// \p Why saying what was wrong.
std::optional<llvm::StringRef> verifiedEntry(llvm::StringRef Bytes,
                                             llvm::StringRef Key,
                                             llvm::ArrayRef<VerifyKey> Trusted,
                                             std::string &Why);

} // namespace libtorch_tidy::cache

#endif // LIBTORCH_TIDY_DRIVER_CACHE_REMOTE_ENTRYSIGNATURE_H
