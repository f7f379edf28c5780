//===--- PreambleStore.h - Precompiled prefixes in the cache ----*- C++ -*-===//
//
// Part of libtorch-tidy. SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//
//
// Where the precompiled include prefixes (preamble/PrefixPch.h) live: the
// result cache's directory, under `preamble/`. One prefix, under its key (a
// hash of everything that decides the PCH: the tool, the compiler invocation,
// the prefix's headers, what bodies are skipped), is three files:
//
//   <key>.h            the prefix as a header (the PCH records this path, and
//                      clang includes it by name before the main file);
//   <key>-<random>.pch the PCH of one build;
//   <key>.deps         which .pch is current and every file the build read,
//                      with the hash of its content.
//
// A build writes its .pch under a name of its own, then the .deps that names
// it, each to a temporary file renamed into place: a reader sees an old
// entry or a new one, never a part, and two runs that build the same prefix
// at once never write into each other's file. An entry is used only if
// every file its build read still has the content it had (as the result
// cache's entries); a missing, foreign or corrupt part is no entry, and the
// next build replaces it.
//
// Three more files decide when to build (docs/performance.md): `<key>.wanted`
// says an earlier run would have used the prefix, `<key>.lock` that a
// process is building it now (others wait for it rather than parse the same
// headers at the same time), and `<key>.refused` that it cannot be built
// while the files its build read stay as they are.
//
//===----------------------------------------------------------------------===//

#ifndef LIBTORCH_TIDY_DRIVER_CACHE_PREAMBLESTORE_H
#define LIBTORCH_TIDY_DRIVER_CACHE_PREAMBLESTORE_H

#include "cache/Dependencies.h"
#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/StringRef.h"
#include <chrono>
#include <cstdint>
#include <map>
#include <optional>
#include <set>
#include <string>
#include <vector>

namespace libtorch_tidy::cache {

/// A usable precompiled prefix.
struct StoredPrefix {
  std::string HeaderPath;
  std::string PchPath;
  /// What its build read; part of the dependencies of every unit that uses
  /// it, for the result cache.
  std::vector<Dependency> Dependencies;
};

/// Why precompiled prefixes cannot be kept in \p CacheDirectory: it, or the
/// `preamble` folder in it, is not a writable directory (a file someone put
/// there, a read-only mount). Units would wait for a prefix that no one can
/// write until their time-out, so the run goes without prefixes.
std::optional<std::string>
unusablePreambleDirectory(llvm::StringRef CacheDirectory);

class PreambleStore {
public:
  /// \p CacheDirectory is the result cache's directory.
  explicit PreambleStore(const std::string &CacheDirectory);

  /// The key of a prefix (hex SHA-256 over the parts).
  static std::string key(llvm::ArrayRef<std::string> Parts);

  /// The entry under \p Key if it is complete and every file its build read
  /// is unchanged. Marks it used (for least-recently-used eviction). A
  /// damaged PCH (emptied, cut short, overwritten) is removed with its
  /// record, so that it is built again.
  std::optional<StoredPrefix> lookup(llvm::StringRef Key) const;
  /// Whether a lookup of \p Key in this process removed a damaged PCH.
  bool removedDamaged(llvm::StringRef Key) const;

  /// Writes the prefix header of \p Key (\p Text); returns its path, or
  /// nothing if it cannot be written.
  std::optional<std::string> writeHeader(llvm::StringRef Key,
                                         llvm::StringRef Text) const;
  /// A fresh path for a build's PCH.
  std::string newPchPath(llvm::StringRef Key) const;
  /// Makes the build that wrote \p PchPath the entry of \p Key. Returns
  /// false (and removes the PCH) if the entry cannot be written.
  bool commit(llvm::StringRef Key, llvm::StringRef PchPath,
              const std::vector<Dependency> &Dependencies) const;

  /// Records that \p Key cannot be built (its build read a user file or
  /// failed), as long as every file that build read is unchanged.
  void refuse(llvm::StringRef Key,
              const std::vector<Dependency> &Dependencies) const;
  bool refused(llvm::StringRef Key) const;

  /// Records that the prefix of \p Key takes \p Bytes, more than the cache
  /// may hold: not built again under a cap below that while every file its
  /// build read is unchanged.
  void recordOversize(llvm::StringRef Key, std::uint64_t Bytes,
                      const std::vector<Dependency> &Dependencies) const;
  /// The size recorded for \p Key by recordOversize(), if it still holds.
  std::optional<std::uint64_t> oversize(llvm::StringRef Key) const;

  /// Records that the prefix of \p Key, \p Bytes large, could not be
  /// written (a full disk, a quota): on a full disk every run would build
  /// it and throw it away. An empty file whose name holds the size, which a
  /// full disk still takes.
  void recordNoRoom(llvm::StringRef Key, std::uint64_t Bytes) const;
  /// Whether \p Key has such a record and the cache's file system still
  /// has less room than it says; the record goes once there is room.
  bool stillNoRoom(llvm::StringRef Key) const;

  /// Whether an earlier run recorded that it would have used \p Key.
  bool wanted(llvm::StringRef Key) const;
  void markWanted(llvm::StringRef Key) const;

  /// Takes the build lock of \p Key (flock on its .lock file, which the
  /// kernel releases with its holder, however it ends): true if this
  /// process may build it.
  bool tryLock(llvm::StringRef Key) const;
  void unlock(llvm::StringRef Key) const;
  /// Whether another process holds the build lock of \p Key now.
  bool locked(llvm::StringRef Key) const;
  std::string lockPath(llvm::StringRef Key) const;

private:
  std::string path(llvm::StringRef Key, llvm::StringRef Suffix) const;
  std::string Directory;
  /// The open lock files of the keys this process holds.
  mutable std::map<std::string, int> Held;
  /// The keys whose damaged PCH a lookup removed.
  mutable std::set<std::string, std::less<>> Damaged;
};

/// Removes the least recently used files of the cache under
/// \p CacheDirectory (result entries and prefixes alike) until it holds at
/// most \p MaxBytes. A removed part of a prefix makes it no entry.
void limitCacheSize(llvm::StringRef CacheDirectory, std::uint64_t MaxBytes);

/// Parses a size such as `5G`, `500M`, `64K` or a byte count (binary units,
/// as ccache's --max-size).
std::optional<std::uint64_t> parseSize(llvm::StringRef Text);

} // namespace libtorch_tidy::cache

#endif // LIBTORCH_TIDY_DRIVER_CACHE_PREAMBLESTORE_H
