//===--- RemoteResults.h - Units' results in the remote cache ---*- C++ -*-===//
//
// Part of libtorch-tidy. SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//
//
// The remote result cache as the CLI's scheduler (run/UnitScheduler.cpp)
// uses it, in the parent process only: a unit missing from the local cache
// is looked up here, and a unit analyzed here is stored here. It joins the
// servers (RemoteCache.h) and the entries' form and checks (RemoteEntry.h).
//
//===----------------------------------------------------------------------===//

#ifndef LIBTORCH_TIDY_DRIVER_CACHE_REMOTE_REMOTERESULTS_H
#define LIBTORCH_TIDY_DRIVER_CACHE_REMOTE_REMOTERESULTS_H

#include "cache/WorkerResult.h"
#include "cache/remote/RemoteCache.h"
#include "cache/remote/RemoteEntry.h"
#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/StringRef.h"
#include <functional>
#include <optional>
#include <string>
#include <vector>

namespace libtorch_tidy::cache {

class RemoteResults {
public:
  /// \p BaseDirectory: the directory whose paths the keys and entries hold
  /// relative to it (run::remoteCacheBase(): `--cache-base-dir`, else the
  /// project root); empty for none.
  /// \p LocalCacheDirectory: files of this machine's cache that a unit
  /// read (its precompiled prefix's header) are left out of the entries;
  /// the hash of the build at \p Executable is kept there (buildHash()).
  /// Without a build hash (the executable cannot be read) nothing is looked
  /// up or stored: another build's entries are never replayed.
  RemoteResults(std::vector<RemoteSpec> Specs, llvm::StringRef BaseDirectory,
                llvm::StringRef LocalCacheDirectory, llvm::StringRef Executable,
                std::function<void(const std::string &)> Warn);

  /// The key of a unit whose local key has \p Parts (less the tool's
  /// identity).
  std::string key(llvm::ArrayRef<std::string> Parts) const;

  /// A unit to look up: its key and main file.
  struct Lookup {
    std::string Key, MainFile;
  };

  /// The result of each of \p Units whose entry passes every check, all
  /// asked at once (RemoteCache.h).
  std::vector<std::optional<WorkerResult>>
  lookupAll(llvm::ArrayRef<Lookup> Units);

  /// Stores \p Result, analyzed here, in every writable server, while the
  /// run goes on.
  void store(llvm::StringRef Key, const WorkerResult &Result);

  /// Waits, within a budget, for the stores still under way.
  void finishStores() { Servers.finishStores(); }

  /// Entries found but ignored: damaged, foreign, holding what a unit
  /// cannot have (RemoteEntry.h), or no entry at all (another Redis type,
  /// too large: RemoteStorage.h).
  unsigned rejected() const { return Rejected + Servers.unusable(); }

  /// Entries found but not signed by a key their server trusts.
  unsigned unverified() const { return Servers.unverified(); }

private:
  BaseDirectory Base;
  std::string Build;
  DependencyMemo Dependencies;
  /// The local cache directory, as given and as its real path, with a
  /// trailing slash; empty strings for none.
  std::vector<std::string> LocalCache;
  RemoteCache Servers;
  unsigned Rejected = 0;
};

} // namespace libtorch_tidy::cache

#endif // LIBTORCH_TIDY_DRIVER_CACHE_REMOTE_REMOTERESULTS_H
