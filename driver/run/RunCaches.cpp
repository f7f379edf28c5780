//===--- RunCaches.cpp - The caches a run opens ---------------------------===//
//
// Part of libtorch-tidy. SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

#include "run/RunCaches.h"
#include "cache/PreambleStore.h"
#include "io/FileIO.h"
#include "preamble/IncludePrefix.h"
#include "llvm/Support/Process.h"
#include "llvm/Support/raw_ostream.h"
#include <limits>
#include <map>

using namespace llvm;

namespace libtorch_tidy::run {

/// For each of \p Files, whether another of them starts with the same
/// system includes: a precompiled prefix built for it then pays
/// (preamble/PrecompiledPrefixes.h). A file that cannot be read has none.
namespace {

std::vector<bool> sharedPrefixes(ArrayRef<std::string> Files) {
  std::map<std::vector<std::string>, unsigned> Count;
  std::vector<std::vector<std::string>> Prefixes(Files.size());
  for (size_t I = 0; I < Files.size(); ++I) {
    std::string Ignored;
    if (std::optional<std::string> Text = io::readRegularFile(
            Files[I], std::numeric_limits<size_t>::max(), "source", Ignored))
      Prefixes[I] = preamble::leadingSystemIncludes(*Text).Headers;
    if (!Prefixes[I].empty())
      ++Count[Prefixes[I]];
  }
  std::vector<bool> Shared(Files.size());
  for (size_t I = 0; I < Files.size(); ++I)
    Shared[I] = !Prefixes[I].empty() && Count[Prefixes[I]] > 1;
  return Shared;
}

} // namespace

std::optional<cache::ResultCache> openResultCache(const SchedulerOptions &Tool,
                                                  StringRef Executable,
                                                  std::string &Identity) {
  if (Tool.NoCache || Tool.NoReplay)
    return std::nullopt;
  std::string Dir =
      Tool.CacheDir.empty() ? cache::defaultCacheDirectory() : Tool.CacheDir;
  Identity = cache::toolIdentity(Executable);
  std::optional<std::string> Unwritable;
  if (!Dir.empty())
    Unwritable = cache::unwritableCacheDirectory(Dir);
  if (Unwritable) {
    errs() << "libtorch-tidy: warning: the cache directory '" << Dir
           << "' cannot be used: " << *Unwritable
           << "; analyzing without the result cache and precompiled "
              "prefixes (pass --cache-dir=<a writable directory>, or "
              "--no-cache)\n";
    return std::nullopt;
  }
  if (Dir.empty() || Identity.empty())
    return std::nullopt;
  // The cache works, but its prefixes folder does not (analysisSettings()
  // leaves prefixes out).
  if (Tool.Preamble != "never")
    if (std::optional<std::string> Unusable =
            cache::unusablePreambleDirectory(Dir))
      errs() << "libtorch-tidy: warning: precompiled prefixes cannot be kept "
                "in the cache directory '"
             << Dir << "': " << *Unusable
             << "; analyzing without them (remove what is there, or pass "
                "another --cache-dir)\n";
  return cache::ResultCache(Dir);
}

std::vector<worker::WorkerRequest> prefixRequests(const SchedulerOptions &Tool,
                                                  ArrayRef<std::string> Files,
                                                  unsigned Jobs,
                                                  StringRef PreambleDirectory) {
  std::vector<worker::WorkerRequest> Requests(Files.size());
  if (PreambleDirectory.empty())
    return Requests;
  if (Files.size() > 1) {
    std::vector<bool> Shared = sharedPrefixes(Files);
    for (size_t K = 0; K < Files.size(); ++K)
      Requests[K].PreambleShared = Shared[K];
  }
  // A run at a terminal is usually followed by an edit and another run:
  // with a core to spare, a prefix wanted for the first time is built for
  // that run, apart (DetachedPrefixBuild.h). Scripts and CI, which analyze
  // once, keep the rule that once is no reason to build.
  if (Tool.Preamble == "auto" &&
      Tool.Worker.Prefix == worker::PrefixRole::Analyze &&
      Files.size() < Jobs && sys::Process::StandardErrIsDisplayed())
    for (worker::WorkerRequest &Unit : Requests)
      if (!Unit.PreambleShared)
        Unit.Prefix = worker::PrefixRole::BuildDetached;
  return Requests;
}

} // namespace libtorch_tidy::run
