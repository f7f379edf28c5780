//===--- RemoteCache.cpp - The servers of the remote cache ----------------===//
//
// Part of libtorch-tidy. SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

#include "cache/remote/RemoteCache.h"
#include "llvm/ADT/StringExtras.h"

namespace libtorch_tidy::cache {

std::string printableServerText(llvm::StringRef Text, const RemoteSpec &Spec) {
  std::string Redacted = Text.str();
  for (const std::string *Secret : {&Spec.Password, &Spec.BearerToken}) {
    if (Secret->empty())
      continue;
    for (size_t At = Redacted.find(*Secret); At != std::string::npos;
         At = Redacted.find(*Secret, At + 3))
      Redacted.replace(At, Secret->size(), "***");
  }
  std::string Printable;
  for (unsigned char C : Redacted) {
    if (C < 0x20 || C >= 0x7f) {
      Printable += "\\x";
      Printable += llvm::hexdigit(C >> 4, /*LowerCase=*/true);
      Printable += llvm::hexdigit(C & 0xf, /*LowerCase=*/true);
    } else {
      Printable += static_cast<char>(C);
    }
  }
  return Printable;
}

RemoteCache::RemoteCache(std::vector<RemoteSpec> Specs,
                         std::function<void(const std::string &)> Warn)
    : Warn(std::move(Warn)) {
  for (RemoteSpec &Spec : Specs) {
    Server S;
    S.Storage = Spec.Scheme == RemoteSpec::Kind::Http ? makeHttpStorage(Spec)
                                                      : makeRedisStorage(Spec);
    S.Spec = std::move(Spec);
    Servers.push_back(std::move(S));
  }
}

RemoteCache::~RemoteCache() = default;

void RemoteCache::fail(Server &S, llvm::StringRef Operation,
                       llvm::StringRef Why) {
  S.Failed = true;
  Warn("libtorch-tidy: warning: the remote cache '" + S.Spec.DisplayName +
       "' failed to " + Operation.str() + " an entry (" +
       printableServerText(Why, S.Spec) +
       "); it is not used for the rest of this run, whose units are "
       "analyzed here instead");
}

std::optional<std::string> RemoteCache::fetch(llvm::StringRef Key) {
  for (Server &S : Servers) {
    if (S.Failed)
      continue;
    RemoteStorage::Fetched Got = S.Storage->get(Key);
    if (Got.What == RemoteStorage::Fetched::Outcome::Hit) {
      // Whoever may write to the server may have written it: with trusted
      // keys, only what one of them signed (EntrySignature.h).
      std::string Why;
      if (std::optional<StringRef> Entry =
              verifiedEntry(Got.Bytes, Key, S.Spec.Trusted, Why))
        return Entry->str();
      ++Unverified;
      continue;
    }
    if (Got.What == RemoteStorage::Fetched::Outcome::Unusable)
      ++Unusable;
    if (Got.What == RemoteStorage::Fetched::Outcome::Failed)
      fail(S, "read", Got.Error);
  }
  return std::nullopt;
}

void RemoteCache::store(llvm::StringRef Key, llvm::StringRef Bytes) {
  for (Server &S : Servers)
    if (!S.Failed && !S.Spec.ReadOnly)
      if (std::optional<std::string> Error = S.Storage->put(
              Key, S.Spec.Signing ? S.Spec.Signing->sign(Key, Bytes) : Bytes))
        fail(S, "store", *Error);
}

bool RemoteCache::writable() const {
  for (const Server &S : Servers)
    if (!S.Spec.ReadOnly && !S.Failed)
      return true;
  return false;
}

} // namespace libtorch_tidy::cache
