//===--- Dependencies.h - The files an entry of the cache read --*- C++ -*-===//
//
// Part of libtorch-tidy. SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//
//
// Every entry of the cache, a unit's result (ResultCache.h, remote/) or a
// precompiled prefix (PreambleStore.h), records the files its parse read,
// each with the hash of the content it parsed, and the paths where a
// `__has_include` found nothing (DependencyRecording.h). An entry is used
// only while all of them still hold.
//
//===----------------------------------------------------------------------===//

#ifndef LIBTORCH_TIDY_DRIVER_CACHE_DEPENDENCIES_H
#define LIBTORCH_TIDY_DRIVER_CACHE_DEPENDENCIES_H

#include "llvm/ADT/StringRef.h"
#include <map>
#include <string>
#include <utility>

namespace libtorch_tidy::cache {

/// A file a unit read and the xxHash64 of its content (hex).
using Dependency = std::pair<std::string, std::string>;

/// The "hash" of a dependency that must not exist (never a hex digest).
constexpr llvm::StringLiteral AbsentFileHash = "absent";

/// The hex xxHash64 of \p Bytes: the content hash of the cache.
std::string fastContentHash(llvm::StringRef Bytes);

/// Whether \p D still holds: the file has the recorded content, or a path
/// where `__has_include` found nothing still has nothing.
bool dependencyHolds(const Dependency &D);

/// dependencyHolds() with each file read and hashed once: the units of a
/// project read the same headers (LibTorch's ~1,500 each), which replaying
/// every unit would otherwise read and hash again. For the lookups a
/// process makes before it
/// analyzes anything (the CLI's parent, a language-server worker's remote
/// lookup): no file it checks changes under it in between.
class DependencyMemo {
public:
  bool holds(const Dependency &D);

private:
  /// Path -> its content hash, or "" when it is no readable regular file.
  std::map<std::string, std::string> Hashes;
};

} // namespace libtorch_tidy::cache

#endif // LIBTORCH_TIDY_DRIVER_CACHE_DEPENDENCIES_H
