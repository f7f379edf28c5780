//===--- Dependencies.cpp - The files an entry of the cache read ----------===//
//
// Part of libtorch-tidy. SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

#include "cache/Dependencies.h"
#include "io/FileIO.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/xxhash.h"
#include <limits>
#include <optional>

namespace libtorch_tidy::cache {
namespace {

/// The content of a regular file. Anything else (a FIFO a dependency has
/// become would block the lookup forever; a device never ends) is no
/// content: the entry is then stale.
std::optional<std::string> regularFileContent(llvm::StringRef Path) {
  std::string Ignored;
  return io::readRegularFile(Path.str(), std::numeric_limits<size_t>::max(),
                             "file", Ignored);
}

} // namespace

std::string fastContentHash(llvm::StringRef Bytes) {
  return llvm::utohexstr(llvm::xxHash64(Bytes), /*LowerCase=*/true);
}

bool dependencyHolds(const Dependency &D) {
  if (D.second == AbsentFileHash)
    return !llvm::sys::fs::exists(D.first);
  std::optional<std::string> Content = regularFileContent(D.first);
  return Content && fastContentHash(*Content) == D.second;
}

bool DependencyMemo::holds(const Dependency &D) {
  if (D.second == AbsentFileHash)
    return dependencyHolds(D);
  auto [It, New] = Hashes.try_emplace(D.first);
  if (New)
    if (std::optional<std::string> Content = regularFileContent(D.first))
      It->second = fastContentHash(*Content);
  return !It->second.empty() && It->second == D.second;
}

} // namespace libtorch_tidy::cache
