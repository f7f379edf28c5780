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
//===----------------------------------------------------------------------===//

#ifndef LIBTORCH_TIDY_DRIVER_CACHE_REMOTE_REMOTECACHE_H
#define LIBTORCH_TIDY_DRIVER_CACHE_REMOTE_REMOTECACHE_H

#include "cache/remote/RemoteSpec.h"
#include "cache/remote/RemoteStorage.h"
#include "llvm/ADT/StringRef.h"
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

class RemoteCache {
public:
  /// \p Warn gets each warning line (without the newline).
  RemoteCache(std::vector<RemoteSpec> Specs,
              std::function<void(const std::string &)> Warn);
  ~RemoteCache();

  /// The entry under \p Key from the first server that has it, and that
  /// one of the server's trusted keys signed if it has any (RemoteSpec.h),
  /// out of its signed envelope.
  std::optional<std::string> fetch(llvm::StringRef Key);

  /// Keys found holding what is no entry of ours (RemoteStorage.h): each a
  /// miss, whose analysis here overwrites it; the server stays in use.
  unsigned unusable() const { return Unusable; }

  /// Entries refused because none of their server's trusted keys signed
  /// them: each a miss, whose analysis here overwrites it where this run
  /// signs.
  unsigned unverified() const { return Unverified; }

  /// Stores \p Bytes under \p Key in every writable server still working,
  /// signed with the server's signing key if it has one.
  void store(llvm::StringRef Key, llvm::StringRef Bytes);

  /// Whether any server may be written: one not read-only that has not
  /// failed (an entry is not even encoded for a dead server).
  bool writable() const;

private:
  struct Server {
    RemoteSpec Spec;
    std::unique_ptr<RemoteStorage> Storage;
    bool Failed = false;
  };
  void fail(Server &S, llvm::StringRef Operation, llvm::StringRef Why);
  std::vector<Server> Servers;
  std::function<void(const std::string &)> Warn;
  unsigned Unusable = 0;
  unsigned Unverified = 0;
};

} // namespace libtorch_tidy::cache

#endif // LIBTORCH_TIDY_DRIVER_CACHE_REMOTE_REMOTECACHE_H
