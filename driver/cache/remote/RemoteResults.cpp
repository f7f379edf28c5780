//===--- RemoteResults.cpp - Units' results in the remote cache -----------===//
//
// Part of libtorch-tidy. SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

#include "cache/remote/RemoteResults.h"
#include "report/ProjectRoot.h"
#include "llvm/ADT/SmallString.h"
#include "llvm/Support/FileSystem.h"

namespace libtorch_tidy::cache {
namespace {

std::string baseOrProjectRoot(llvm::StringRef BaseDirectory) {
  if (!BaseDirectory.empty())
    return BaseDirectory.str();
  llvm::SmallString<256> Current;
  llvm::sys::fs::current_path(Current);
  return report::findProjectRoot(Current);
}

} // namespace

RemoteResults::RemoteResults(std::vector<RemoteSpec> Specs,
                             llvm::StringRef BaseDirectory,
                             std::function<void(const std::string &)> Warn)
    : Base(baseOrProjectRoot(BaseDirectory)),
      Servers(std::move(Specs), std::move(Warn)) {}

std::string RemoteResults::key(llvm::ArrayRef<std::string> Parts) const {
  return remoteKey(Parts, Base);
}

std::optional<run::WorkerResult>
RemoteResults::lookup(llvm::StringRef Key, llvm::StringRef MainFile) {
  std::optional<std::string> Bytes = Servers.fetch(Key);
  if (!Bytes)
    return std::nullopt;
  std::string Why;
  std::optional<run::WorkerResult> Hit =
      decodeRemoteEntry(*Bytes, Key, MainFile, Base, Why);
  if (!Hit && !Why.empty())
    ++Rejected; // the unit's analysis here overwrites it
  return Hit;
}

void RemoteResults::store(llvm::StringRef Key,
                          const run::WorkerResult &Result) {
  // As the local cache: a unit that failed, or read nothing, is not kept.
  if (Result.Dependencies.empty() ||
      Result.Unit.State == model::TranslationUnitResult::Status::Failed ||
      !Servers.writable())
    return;
  Servers.store(Key, encodeRemoteEntry(Key, Result, Base));
}

} // namespace libtorch_tidy::cache
