//===--- RemoteResults.cpp - Units' results in the remote cache -----------===//
//
// Part of libtorch-tidy. SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

#include "cache/remote/RemoteResults.h"
#include "cache/ResultCache.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/SmallString.h"
#include "llvm/Support/FileSystem.h"

namespace libtorch_tidy::cache {
RemoteResults::RemoteResults(std::vector<RemoteSpec> Specs,
                             llvm::StringRef BaseDirectory,
                             llvm::StringRef LocalCacheDirectory,
                             llvm::StringRef Executable,
                             std::function<void(const std::string &)> Warn)
    : Base(BaseDirectory), Build(buildHash(Executable, LocalCacheDirectory)),
      Servers(std::move(Specs), std::move(Warn)) {
  if (LocalCacheDirectory.empty())
    return;
  llvm::SmallString<256> Absolute(LocalCacheDirectory), Real;
  llvm::sys::fs::make_absolute(Absolute);
  LocalCache.push_back((Absolute + "/").str());
  if (!llvm::sys::fs::real_path(Absolute, Real))
    LocalCache.push_back((Real + "/").str());
}

std::string RemoteResults::key(llvm::ArrayRef<std::string> Parts) const {
  return remoteKey(Build, Parts, Base);
}

std::vector<std::optional<WorkerResult>>
RemoteResults::lookupAll(llvm::ArrayRef<Lookup> Units) {
  std::vector<std::optional<WorkerResult>> Results(Units.size());
  if (Build.empty() || Units.empty())
    return Results;
  std::vector<std::string> Keys;
  for (const Lookup &Unit : Units)
    Keys.push_back(Unit.Key);
  std::vector<std::optional<std::string>> Entries = Servers.fetchAll(Keys);
  for (size_t I = 0; I < Units.size(); ++I) {
    if (!Entries[I])
      continue;
    std::string Why;
    Results[I] = decodeRemoteEntry(*Entries[I], Units[I].Key, Units[I].MainFile,
                                   Base, Dependencies, Why);
    if (!Results[I] && !Why.empty())
      ++Rejected; // the unit's analysis here overwrites it
  }
  return Results;
}

void RemoteResults::store(llvm::StringRef Key, const WorkerResult &Result) {
  // As the local cache: a unit that failed, or read nothing, is not kept.
  if (Build.empty() || Result.Dependencies.empty() ||
      Result.Unit.State == model::TranslationUnitResult::Status::Failed ||
      !Servers.writable())
    return;
  // A precompiled prefix's header lives in this machine's cache: how this
  // run parsed the unit, not an input (its content follows from the unit's
  // includes, which are dependencies), and at a path no other machine has.
  WorkerResult Portable = Result;
  llvm::erase_if(Portable.Dependencies, [&](const Dependency &D) {
    return llvm::any_of(LocalCache, [&](const std::string &Directory) {
      return llvm::StringRef(D.first).starts_with(Directory);
    });
  });
  Servers.store(Key, encodeRemoteEntry(Key, Portable, Base));
}

} // namespace libtorch_tidy::cache
