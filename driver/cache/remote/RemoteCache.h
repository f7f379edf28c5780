//===--- RemoteCache.h - The servers of the remote cache --------*- C++ -*-===//
//
// Part of libtorch-tidy. SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//
//
// The servers `--remote-cache` names, in order: an entry is fetched from the
// first that has it and stored in every one that is not read-only. A fault
// never costs more than analyzing the unit here: the first failure of a
// server (refused, down, timed out, HTTP 5xx, authorization refused, an
// answer cut short) gets one warning naming it, and the server is not asked
// again for the rest of the run, so a dead server costs one time-out, not
// one per unit, and nothing is retried.
//
// A slow server costs little more. A run's lookups are asked at once, over
// several connections to each server, and must all be answered within a
// budget that grows with their number (lookupBudget()); a server that does
// not keep to it is given up on, with one warning, and the keys it did not
// answer are misses. Stores go to a thread of their own while the run goes
// on; at the end, what a server has not stored within a short budget is
// dropped, with one warning.
//
//===----------------------------------------------------------------------===//

#ifndef LIBTORCH_TIDY_DRIVER_CACHE_REMOTE_REMOTECACHE_H
#define LIBTORCH_TIDY_DRIVER_CACHE_REMOTE_REMOTECACHE_H

#include "cache/remote/RemoteSpec.h"
#include "cache/remote/RemoteStorage.h"
#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/StringRef.h"
#include <chrono>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace libtorch_tidy::cache {

/// \p Text from a server or the library talking to it (a Redis error reply,
/// hiredis' or curl's reason) as a warning may print it: the password and
/// token of \p Spec, should the server echo them, replaced by `***`, and
/// control characters and bytes past ASCII escaped (`\x1b`), so that a
/// server cannot move the cursor, retitle or clear the terminal, or start a
/// new line that passes for another message.
std::string printableServerText(llvm::StringRef Text, const RemoteSpec &Spec);

/// How long a server may take to answer \p Keys lookups asked at once: a
/// cache on the local network answers each in about a millisecond; a
/// server many times slower costs the run more than it saves.
std::chrono::milliseconds lookupBudget(size_t Keys);

/// How long the end of a run waits for the stores still queued.
constexpr std::chrono::milliseconds StoreBudget{2000};

/// Connections to one server that a run's lookups use at once.
constexpr unsigned LookupConnections = 8;

class RemoteCache {
public:
  /// \p Warn gets each warning line (without the newline), always on the
  /// thread that calls this object.
  RemoteCache(std::vector<RemoteSpec> Specs,
              std::function<void(const std::string &)> Warn);
  /// Waits for the stores as finishStores() does.
  ~RemoteCache();

  /// The entry under each of \p Keys from the first server that has it,
  /// and that one of the server's trusted keys signed if it has any
  /// (RemoteSpec.h), out of its signed envelope; all asked at once.
  std::vector<std::optional<std::string>>
  fetchAll(llvm::ArrayRef<std::string> Keys);

  /// Keys found holding what is no entry of ours (RemoteStorage.h): each a
  /// miss, whose analysis here overwrites it; the server stays in use.
  unsigned unusable() const { return Unusable; }

  /// Entries refused because none of their server's trusted keys signed
  /// them: each a miss, whose analysis here overwrites it where this run
  /// signs.
  unsigned unverified() const { return Unverified; }

  /// Queues \p Bytes for every writable server still working, signed with
  /// the server's signing key if it has one; stored while the run goes on.
  void store(llvm::StringRef Key, llvm::StringRef Bytes);

  /// Waits at most StoreBudget for the queued stores; what is left is
  /// dropped, with one warning per server.
  void finishStores();

  /// Whether any server may be written: one not read-only that has not
  /// failed (an entry is not even encoded for a dead server).
  bool writable() const;

private:
  struct Server;
  class StoreQueue;
  void fail(Server &S, llvm::StringRef Operation, llvm::StringRef Why);
  void lookUpIn(Server &S, llvm::ArrayRef<std::string> Keys,
                std::vector<std::optional<std::string>> &Found);
  std::vector<std::unique_ptr<Server>> Servers;
  std::unique_ptr<StoreQueue> Stores;
  std::function<void(const std::string &)> Warn;
  unsigned Unusable = 0;
  unsigned Unverified = 0;
};

} // namespace libtorch_tidy::cache

#endif // LIBTORCH_TIDY_DRIVER_CACHE_REMOTE_REMOTECACHE_H
