//===--- ResultCache.h - Replay results of unchanged units ------*- C++ -*-===//
//
// Part of libtorch-tidy. SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//
//
// A unit's result is stored under a key made of everything that decides it
// except file contents: the tool binary's identity, the compile command
// (directory, file, arguments), the compiler's environment variables
// (CPATH and the like), the effective check configuration (the .clang-tidy
// options as YAML, CheckOptions included) and the analysis settings. Each entry
// records every file the compiler read for the unit with a hash of its content,
// the way ccache's "direct mode" does: a later run replays the entry only if
// every one of those files still has that content. Running the preprocessor to
// hash its output instead would cost about a tenth of a cold LibTorch unit on
// its own (torch/torch.h pulls in ~1,500 headers), which is more than the whole
// warm-path budget.
//
// A `__has_include` that found nothing records each path it looked at as a
// dependency that must stay absent. Known limit (shared with ccache's direct
// mode): a new header created in an include directory searched before the
// one that provided an `#include` is not noticed; `--no-cache` or removing
// the cache directory helps.
//
// Entries are written to a temporary file and renamed into place; an entry
// that cannot be read, parsed or does not match its key is ignored and
// overwritten by the next analysis of the unit.
//
//===----------------------------------------------------------------------===//

#ifndef LIBTORCH_TIDY_DRIVER_CACHE_RESULTCACHE_H
#define LIBTORCH_TIDY_DRIVER_CACHE_RESULTCACHE_H

#include "cache/Dependencies.h"
#include "cache/WorkerResult.h"
#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/StringRef.h"
#include <map>
#include <optional>
#include <string>

namespace libtorch_tidy::cache {

/// `$XDG_CACHE_HOME/libtorch-tidy`, else `~/.cache/libtorch-tidy`; empty if
/// neither can be determined.
std::string defaultCacheDirectory();

/// Why the cache directory \p Dir cannot be written (it exists and is not
/// writable, is not a directory, or its nearest existing parent, where it
/// would be created, is not writable); nothing when it can. A cache that
/// cannot be written is not used at all, results or precompiled prefixes:
/// a unit would otherwise wait for a prefix no one can build.
std::optional<std::string> unwritableCacheDirectory(llvm::StringRef Dir);

/// Makes room for an entry of the cache at \p Path: a directory someone put
/// there (a restored cache, a mistake) would make every write of the entry
/// fail and the cache silently useless for that unit, so it is removed.
/// Files, links and FIFOs are replaced by the write itself
/// (io::FileMode::Owned).
void clearForEntry(llvm::StringRef Path);

/// Identifies the executable at \p ExecutablePath: a hash (hex) of its real
/// path, size, modification time and inode, and the LLVM version, as
/// ccache's default `compiler_check=mtime` does, so that a rebuilt,
/// reinstalled or different binary never replays another's results or
/// reuses its precompiled prefixes. Hashing the binary's content instead
/// cost 0.35 s of every run (two thirds of a replay). Empty if the
/// executable cannot be found (the cache is then not used).
std::string toolIdentity(llvm::StringRef ExecutablePath);

/// A hash (hex) of the bytes of the executable at \p ExecutablePath: the
/// same for every copy of one build wherever it is installed, and different
/// for any other build, whatever version it says it is. The remote cache's
/// keys hold it, so that two builds that both call themselves 0.1.0 never
/// replay each other's findings. Hashing costs a third of a second; the
/// hash is kept in \p CacheDirectory under the executable's toolIdentity and
/// read from there on later runs (not kept when the directory is empty or
/// cannot be written). Empty if the executable cannot be read.
std::string buildHash(llvm::StringRef ExecutablePath,
                      llvm::StringRef CacheDirectory);

/// The environment variables the compiler reads that change how a unit
/// parses (include paths, driver overrides, __DATE__), as `NAME=value` lines
/// of those set: part of every unit's key.
std::string compilerEnvironment();

/// Hex SHA-256 over \p Format and \p Parts, each part length-prefixed: the
/// keys of the result cache and of the precompiled prefixes.
std::string hashOfParts(llvm::StringRef Format,
                        llvm::ArrayRef<std::string> Parts);

class ResultCache {
public:
  explicit ResultCache(std::string Directory);

  /// The key of a unit (hex SHA-256 over the parts, length-prefixed).
  static std::string key(llvm::ArrayRef<std::string> Parts);

  /// Where a stored result came from: this machine's analysis, or a remote
  /// cache's entry (network data, whose fix-its are never written).
  enum class Origin { Local, Remote };

  /// The stored result for \p Key if every file it read is unchanged; with
  /// \p Only, only a result of that origin.
  std::optional<model::TranslationUnitResult>
  lookup(llvm::StringRef Key, std::optional<Origin> Only = std::nullopt);

  /// Stores \p Result under \p Key; failures are silent (a cache is
  /// optional) but leave no partial entry.
  void store(llvm::StringRef Key, const WorkerResult &Result,
             Origin From = Origin::Local);

private:
  std::string entryPath(llvm::StringRef Key) const;
  std::string Directory;
  /// What this run found the dependencies of its lookups to hold.
  DependencyMemo Files;
};

} // namespace libtorch_tidy::cache

#endif // LIBTORCH_TIDY_DRIVER_CACHE_RESULTCACHE_H
