//===--- RemoteStorage.h - One server of the remote cache -------*- C++ -*-===//
//
// Part of libtorch-tidy. SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//
//
// What a backend does: fetch and store one opaque blob per key, as ccache's
// remote storage does. A backend knows nothing of what the blob holds
// (RemoteEntry.h checks it) nor of failing over to the next server
// (RemoteCache.h): it reports what happened, with a one-line reason that
// never holds a password or token. One object is one connection, used by
// one thread at a time; RemoteCache.h makes several for parallel lookups.
//
//===----------------------------------------------------------------------===//

#ifndef LIBTORCH_TIDY_DRIVER_CACHE_REMOTE_REMOTESTORAGE_H
#define LIBTORCH_TIDY_DRIVER_CACHE_REMOTE_REMOTESTORAGE_H

#include "cache/remote/RemoteSpec.h"
#include "llvm/ADT/StringRef.h"
#include <cstddef>
#include <memory>
#include <optional>
#include <string>

namespace libtorch_tidy::cache {

/// The largest entry fetched: a unit's findings are kilobytes; a server
/// that sends more is broken or hostile, and is not read to the end.
constexpr std::size_t MaxRemoteEntryBytes = std::size_t(64) << 20;

class RemoteStorage {
public:
  virtual ~RemoteStorage() = default;

  struct Fetched {
    /// Found; not there; there but no entry of ours (another Redis type,
    /// more than MaxRemoteEntryBytes), a miss for this key only, which the
    /// unit's analysis here overwrites; or the server failed (Error says
    /// how), which ends its use for the run.
    enum class Outcome { Hit, Miss, Unusable, Failed } What = Outcome::Miss;
    std::string Bytes;
    std::string Error;
  };

  /// The blob stored under \p Key (lowercase hex), answered within
  /// \p TimeoutMs (at most the server's operation timeout: the caller's
  /// budget may leave less).
  virtual Fetched get(llvm::StringRef Key, unsigned TimeoutMs) = 0;

  /// Stores \p Bytes under \p Key, replacing what is there, within
  /// \p TimeoutMs. Returns the reason it failed, or nothing.
  virtual std::optional<std::string>
  put(llvm::StringRef Key, llvm::StringRef Bytes, unsigned TimeoutMs) = 0;
};

/// libcurl: `GET`/`PUT` of `<prefix>/<key in Spec.Layout>`.
std::unique_ptr<RemoteStorage> makeHttpStorage(const RemoteSpec &Spec);

/// hiredis: `GETRANGE`/`SET` of `libtorch-tidy:<key>`.
std::unique_ptr<RemoteStorage> makeRedisStorage(const RemoteSpec &Spec);

} // namespace libtorch_tidy::cache

#endif // LIBTORCH_TIDY_DRIVER_CACHE_REMOTE_REMOTESTORAGE_H
