//===--- RemoteEntry.h - A unit's result as a remote cache entry -===//
//
// Part of libtorch-tidy. SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//
//
// What the remote cache stores for a unit, and the key it is stored under,
// both independent of where the checkout is: every path under the base
// directory (`--cache-base-dir`, default the project root, as ccache's
// `base_dir`) is written with a placeholder in its place, so a checkout at
// another path computes the same key and reads the entry with its own paths.
//
// The key hashes the unit's path relative to the base, its compile command
// and the compiler's environment with the base rewritten, the effective
// check configuration, the analysis settings, the tool's and LLVM's version
// and the entry format's version. The entry holds, besides the findings and
// their fix-its, every file the unit read with its content hash (as the
// local cache does): an entry is replayed only when each of them has that
// content here, so a header's content decides a hit as much as the key.
//
// An entry is network data. decodeRemoteEntry() replays it only if its
// SHA-256 checksum, format and key match, it names the unit asked for,
// every dependency holds, every finding and fix-it is in a file the unit
// read, and every file a fix-it edits has the digest recorded with it
// (`--fix` checks the digest again before it writes).
//
//===----------------------------------------------------------------------===//

#ifndef LIBTORCH_TIDY_DRIVER_CACHE_REMOTE_REMOTEENTRY_H
#define LIBTORCH_TIDY_DRIVER_CACHE_REMOTE_REMOTEENTRY_H

#include "cache/ResultCache.h"
#include "cache/WorkerResult.h"
#include "model/Findings.h"
#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/StringRef.h"
#include <optional>
#include <string>
#include <vector>

namespace libtorch_tidy::cache {

/// The base directory as it is spelled and as its real path: both are
/// replaced by the placeholder (dependencies are recorded as real paths).
class BaseDirectory {
public:
  /// \p Directory made absolute; empty for none (paths stay absolute).
  explicit BaseDirectory(llvm::StringRef Directory);
  /// \p Text with every path under the base made portable.
  std::string portable(llvm::StringRef Text) const;
  /// \p Text with the placeholder replaced by this checkout's base.
  std::string local(llvm::StringRef Text) const;

private:
  std::vector<std::string> Spellings; // longest first
};

/// The remote key of a unit: SHA-256 (hex) over \p Parts made portable,
/// the build of the tool (\p Build, buildHash() in ResultCache.h), the
/// version of LLVM and the entry format.
std::string remoteKey(llvm::StringRef Build, llvm::ArrayRef<std::string> Parts,
                      const BaseDirectory &Base);

/// The entry for \p Result (analyzed here) under \p Key.
std::string encodeRemoteEntry(llvm::StringRef Key, const WorkerResult &Result,
                              const BaseDirectory &Base);

/// The unit \p MainFile's result from \p Bytes if the entry passes every
/// check of the file comment; else nothing, and \p Why says which failed.
std::optional<WorkerResult>
decodeRemoteEntry(llvm::StringRef Bytes, llvm::StringRef Key,
                  llvm::StringRef MainFile, const BaseDirectory &Base,
                  DependencyMemo &Dependencies, std::string &Why);

} // namespace libtorch_tidy::cache

#endif // LIBTORCH_TIDY_DRIVER_CACHE_REMOTE_REMOTEENTRY_H
