//===--- UnitScheduler.cpp - Analyze units: cache, then workers -----------===//
//
// Part of libtorch-tidy. SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

#include "run/UnitScheduler.h"

#include "cache/PreambleStore.h"
#include "cache/ResultCache.h"
#include "cache/remote/RemoteResults.h"
#include "io/FileIO.h"
#include "model/ExitCodes.h"
#include "preamble/IncludePrefix.h"
#include "report/ProjectRoot.h"
#include "run/Progress.h"
#include "run/UnitAnalysis.h"
#include "run/Workers.h"
#include "llvm/ADT/SmallString.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Process.h"

#include <algorithm>
#include <limits>
#include <map>
#include <optional>
#include <set>
#include <thread>

using namespace clang::tidy;
using namespace llvm;

namespace libtorch_tidy::run {

using model::TranslationUnitResult;

AnalysisSettings analysisSettings(const ToolOptions &Tool) {
  AnalysisSettings Settings;
  Settings.SkipSystemBodies = Tool.SkipSystemBodies;
  Settings.FixNotes = Tool.FixNotes;
  Settings.EnableCheckProfile = Tool.EnableCheckProfile;
  Settings.StoreCheckProfile = Tool.StoreCheckProfile;
  if (!Tool.NoCache && Tool.Preamble != "never") {
    std::string Dir =
        Tool.CacheDir.empty() ? cache::defaultCacheDirectory() : Tool.CacheDir;
    // A prefix no one can write would be waited for until the unit's
    // time-out (analyzeUnits() says so once).
    if (!Dir.empty() && !cache::unwritableCacheDirectory(Dir))
      Settings.PreambleDirectory = Dir;
  }
  Settings.PreambleAlways = Tool.Preamble == "always";
  Settings.PreambleMaxBytes = Tool.CacheMaxSize;
  Settings.PreambleShared = Tool.WorkerPreambleShared;
  Settings.PreambleOverlay = !Tool.VfsOverlay.empty();
  Settings.PreambleNotice = Tool.WorkerPreambleNotice;
  Settings.Prefix = Tool.WorkerPrefixRole;
  return Settings;
}

/// \p Message less the warnings about a cache directory that an earlier
/// unit's messages gave already (\p Printed holds the directories): each
/// unit whose prefix cannot be written says so, the run says it once.
static std::string onceARun(StringRef Message, std::set<std::string> &Printed) {
  std::string Out;
  SmallVector<StringRef, 8> Lines;
  Message.split(Lines, '\n');
  for (size_t I = 0; I < Lines.size(); ++I) {
    StringRef Line = Lines[I];
    // Once for each directory, whatever file of it failed.
    StringRef Start = "libtorch-tidy: warning: the cache directory '";
    if (Line.startswith(Start)) {
      size_t Quote = Line.find('\'', Start.size());
      if (!Printed.insert(Line.take_front(Quote).str()).second)
        continue;
    }
    Out += Line.str();
    if (I + 1 < Lines.size())
      Out += '\n';
  }
  return Out;
}

/// For each of \p Files, whether another of them starts with the same
/// system includes: a precompiled prefix built for it then pays
/// (preamble/PrecompiledPrefixes.h). A file that cannot be read has none.
static std::vector<bool> sharedPrefixes(ArrayRef<std::string> Files) {
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

std::string remoteCacheBase(const ToolOptions &Tool) {
  if (!Tool.CacheBaseDir.empty())
    return Tool.CacheBaseDir;
  SmallString<256> Current;
  sys::fs::current_path(Current);
  return report::findProjectRoot(Current);
}

std::vector<std::string> unitKeyParts(const ToolOptions &Tool,
                                      const CompilationSetup &Setup,
                                      ClangTidyOptionsProvider &Provider,
                                      StringRef File) {
  std::string Command;
  for (const clang::tooling::CompileCommand &C :
       Setup.Compilations->getCompileCommands(File)) {
    Command += C.Directory + '\n' + C.Filename + '\n';
    for (const std::string &Arg : C.CommandLine)
      Command += Arg + '\0';
    Command += '\n';
  }
  // The effective configuration of this file, CheckOptions included.
  std::string Config = configurationAsText(Provider.getOptions(File));
  return {File.str(), Command, cache::compilerEnvironment(), Config,
          settingsKey(analysisSettings(Tool))};
}

std::vector<TranslationUnitResult>
analyzeUnits(const ToolOptions &Tool, const CompilationSetup &Setup,
             ArrayRef<std::string> Units, ClangTidyOptionsProvider &Provider,
             int Argc, const char **Argv, const UnitReady &Ready) {
  std::string Executable = sys::fs::getMainExecutable(
      Argv[0], reinterpret_cast<void *>(&analysisSettings));

  std::optional<cache::ResultCache> Cache;
  std::string Identity;
  if (!Tool.NoCache && !Tool.NoReplay) {
    std::string Dir =
        Tool.CacheDir.empty() ? cache::defaultCacheDirectory() : Tool.CacheDir;
    Identity = cache::toolIdentity(Executable);
    std::optional<std::string> Unwritable;
    if (!Dir.empty())
      Unwritable = cache::unwritableCacheDirectory(Dir);
    if (Unwritable)
      errs() << "libtorch-tidy: warning: the cache directory '" << Dir
             << "' cannot be used: " << *Unwritable
             << "; analyzing without the result cache and precompiled "
                "prefixes (pass --cache-dir=<a writable directory>, or "
                "--no-cache)\n";
    else if (!Dir.empty() && !Identity.empty())
      Cache.emplace(Dir);
  }

  const ProgressStyle Style = progressStyle(
      Tool.Progress, Tool.Quiet, sys::Process::StandardErrIsDisplayed());
  ProgressReporter Progress(
      errs(), Style, Units.size(),
      Style == ProgressStyle::Bar ? sys::Process::StandardErrColumns() : 0);

  std::vector<TranslationUnitResult> Results(Units.size());
  // Workers' own messages (e.g. --enable-check-profile of clang), printed in
  // the order of the units, not the order they finished in.
  std::vector<std::string> Messages(Units.size());
  std::set<std::string> CachePrinted;
  std::vector<bool> Done(Units.size());
  size_t NextReady = 0;
  auto HandOn = [&] {
    if (NextReady >= Units.size() || !Done[NextReady])
      return;
    Progress.suspend();
    for (; NextReady < Units.size() && Done[NextReady]; ++NextReady) {
      errs() << onceARun(Messages[NextReady], CachePrinted);
      if (Ready)
        Ready(NextReady, Results[NextReady]);
    }
    Progress.resume();
  };

  // Local first, then remote; a remote hit is kept locally too.
  std::optional<cache::RemoteResults> Remote;
  if (!Tool.NoCache && !Tool.NoReplay && !Tool.RemoteCaches.empty())
    Remote.emplace(Tool.RemoteCaches, remoteCacheBase(Tool),
                   Tool.CacheDir.empty() ? cache::defaultCacheDirectory()
                                         : Tool.CacheDir,
                   [&Progress](const std::string &Line) {
                     Progress.suspend();
                     errs() << Line << "\n";
                     Progress.resume();
                   });
  std::vector<std::string> Keys(Units.size()), RemoteKeys(Units.size());
  std::vector<size_t> Pending;
  for (size_t I = 0; I < Units.size(); ++I) {
    std::vector<std::string> Parts;
    if (Cache || Remote)
      Parts = unitKeyParts(Tool, Setup, Provider, Units[I]);
    if (Cache) {
      std::vector<std::string> Local = {Identity};
      Local.insert(Local.end(), Parts.begin(), Parts.end());
      Keys[I] = cache::ResultCache::key(Local);
    }
    if (Remote)
      RemoteKeys[I] = Remote->key(Parts);
    // A profile needs the checks to run.
    if (Tool.EnableCheckProfile) {
      Pending.push_back(I);
      continue;
    }
    std::optional<TranslationUnitResult> Hit;
    if (Cache)
      Hit = Cache->lookup(Keys[I]);
    if (!Hit && Remote)
      if (std::optional<cache::WorkerResult> FromRemote =
              Remote->lookup(RemoteKeys[I], Units[I])) {
        if (Cache)
          Cache->store(Keys[I], *FromRemote);
        Hit = std::move(FromRemote->Unit);
      }
    if (!Hit) {
      Pending.push_back(I);
      continue;
    }
    Results[I] = std::move(*Hit);
    Done[I] = true;
    Progress.finished(Units[I], Results[I], std::nullopt);
  }
  if (Remote && Remote->rejected()) {
    Progress.suspend();
    errs() << "libtorch-tidy: warning: " << Remote->rejected()
           << " remote cache entries failed their checksum, format or digest "
              "checks and were ignored; those units were analyzed here and "
              "their entries are overwritten\n";
    Progress.resume();
  }
  HandOn();

  WorkerPool Pool;
  Pool.Executable = Executable;
  Pool.Arguments.assign(Argv + 1, Argv + Argc);
  Pool.Jobs =
      Tool.Jobs ? Tool.Jobs : std::max(1u, std::thread::hardware_concurrency());
  Pool.TimeoutSeconds = Tool.UnitTimeout;
  std::vector<std::string> PendingFiles;
  PendingFiles.reserve(Pending.size());
  for (size_t I : Pending)
    PendingFiles.push_back(Units[I]);
  const std::string PreambleDirectory =
      analysisSettings(Tool).PreambleDirectory;
  if (!PreambleDirectory.empty() && PendingFiles.size() > 1) {
    std::vector<bool> Shared = sharedPrefixes(PendingFiles);
    Pool.UnitArguments.resize(PendingFiles.size());
    for (size_t K = 0; K < PendingFiles.size(); ++K)
      if (Shared[K])
        Pool.UnitArguments[K].push_back("--worker-preamble-shared");
  }
  // A run at a terminal is usually followed by an edit and another run:
  // with a core to spare, a prefix wanted for the first time is built for
  // that run, apart (DetachedPrefixBuild.h). Scripts and CI, which analyze
  // once, keep the rule that once is no reason to build.
  if (!PreambleDirectory.empty() && Tool.Preamble == "auto" &&
      Tool.WorkerPrefixRole == preamble::PrefixRole::Analyze &&
      PendingFiles.size() < Pool.Jobs &&
      sys::Process::StandardErrIsDisplayed()) {
    Pool.UnitArguments.resize(PendingFiles.size());
    for (std::vector<std::string> &Arguments : Pool.UnitArguments)
      if (Arguments.empty())
        Arguments.push_back("--worker-preamble=build-detached");
  }
  runWorkers(Pool, PendingFiles, [&](size_t K, const cache::WorkerResult &R) {
    const size_t I = Pending[K];
    if (Cache)
      Cache->store(Keys[I], R);
    if (Remote)
      Remote->store(RemoteKeys[I], R);
    Results[I] = R.Unit;
    Messages[I] = R.Stderr;
    Done[I] = true;
    Progress.finished(Units[I], Results[I], R.Seconds);
    HandOn();
  });
  Progress.end();
  // Workers stored results and prefixes: keep the directory in its bounds.
  if (!PreambleDirectory.empty() && !Pending.empty())
    cache::limitCacheSize(PreambleDirectory, Tool.CacheMaxSize);
  return Results;
}

} // namespace libtorch_tidy::run
