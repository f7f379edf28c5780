//===--- RemoteCache.cpp - The servers of the remote cache ----------------===//
//
// Part of libtorch-tidy. SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

#include "cache/remote/RemoteCache.h"

namespace libtorch_tidy::cache {

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
       "' failed to " + Operation.str() + " an entry (" + Why.str() +
       "); it is not used for the rest of this run, whose units are "
       "analyzed here instead");
}

std::optional<std::string> RemoteCache::fetch(llvm::StringRef Key) {
  for (Server &S : Servers) {
    if (S.Failed)
      continue;
    RemoteStorage::Fetched Got = S.Storage->get(Key);
    if (Got.What == RemoteStorage::Fetched::Outcome::Hit)
      return std::move(Got.Bytes);
    if (Got.What == RemoteStorage::Fetched::Outcome::Failed)
      fail(S, "read", Got.Error);
  }
  return std::nullopt;
}

void RemoteCache::store(llvm::StringRef Key, llvm::StringRef Bytes) {
  for (Server &S : Servers)
    if (!S.Failed && !S.Spec.ReadOnly)
      if (std::optional<std::string> Error = S.Storage->put(Key, Bytes))
        fail(S, "store", *Error);
}

bool RemoteCache::writable() const {
  for (const Server &S : Servers)
    if (!S.Spec.ReadOnly && !S.Failed)
      return true;
  return false;
}

} // namespace libtorch_tidy::cache
