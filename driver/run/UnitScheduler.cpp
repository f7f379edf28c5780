//===--- UnitScheduler.cpp - Analyze units: cache, then workers -----------===//
//
// Part of libtorch-tidy. SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

#include "run/UnitScheduler.h"

#include "cache/PreambleStore.h"
#include "cache/ResultCache.h"
#include "cache/remote/RemoteResults.h"
#include "model/ExitCodes.h"
#include "report/ProjectRoot.h"
#include "report/Wording.h"
#include "run/DatabaseSummaries.h"
#include "run/Progress.h"
#include "run/RunCaches.h"
#include "run/UnitAnalysis.h"
#include "run/UnitKeys.h"
#include "run/Workers.h"
#include "llvm/ADT/SmallString.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Process.h"

#include <algorithm>
#include <map>
#include <optional>
#include <set>
#include <thread>

using namespace clang::tidy;
using namespace llvm;

namespace libtorch_tidy::run {

using model::TranslationUnitResult;

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
    if (Line.starts_with(Start)) {
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

namespace {

/// Analyzes the units of a run: replays what the result caches hold, then
/// runs workers in up to two rounds (the second for the units whose
/// answers from other units' summaries the first round changed), and hands
/// each unit on, in order, as soon as it and the units before it are done.
class UnitScheduler {
public:
  UnitScheduler(const SchedulerOptions &Tool, const CompilationSetup &Setup,
                ArrayRef<std::string> Units, const SummaryScope &Scope,
                ClangTidyOptionsProvider &Provider, int Argc, const char **Argv,
                const UnitReady &Ready);

  std::vector<TranslationUnitResult> run();

private:
  using Finished = std::function<void(size_t, cache::WorkerResult &)>;

  void computeKeys();
  void lookUpCachedResults();
  void warnAboutRemoteEntries();
  void announceOtherUnits();
  void setUpWorkers();
  void runRound(const std::vector<size_t> &Round, const Finished &OnFinished);
  void analyzeRoundOne();
  void analyzeRoundTwo();
  /// \p I, a unit asked for, is done: its progress, and what can be handed on.
  void finish(size_t I, std::optional<double> Seconds);
  /// Hands on the units done, in order, up to the first not done.
  void handOn();
  /// Prints \p Line on its own line, with the progress bar out of the way.
  void warn(const std::string &Line);

  const SchedulerOptions &Tool;
  const CompilationSetup &Setup;
  ArrayRef<std::string> Units;
  const SummaryScope &Scope;
  ClangTidyOptionsProvider &Provider;
  const int Argc;
  const char **const Argv;
  const UnitReady &Ready;

  std::string Executable;
  std::string Identity;
  std::optional<cache::ResultCache> Cache;
  /// Local first, then remote; a remote hit is kept locally too.
  std::optional<cache::RemoteResults> Remote;
  ProgressReporter Progress;

  std::vector<TranslationUnitResult> Results;
  /// Workers' own messages (e.g. --enable-check-profile of clang), printed
  /// in the order of the units, not the order they finished in.
  std::vector<std::string> Messages;
  std::set<std::string> CachePrinted;
  std::vector<bool> Done;
  size_t NextReady = 0;

  /// The units asked for, then the database's others whose summaries they
  /// may read (DatabaseSummaries.h): those are never handed on.
  std::vector<std::string> All;
  size_t Selected = 0;
  DatabaseSummaries Summaries;
  std::vector<std::string> Keys, RemoteKeys;
  /// Units to analyze: asked for, and others whose summaries are not cached.
  std::vector<size_t> Pending, Others;
  /// Units asked for whose findings wait for the summaries of this run's
  /// analyses (they call functions defined elsewhere).
  std::vector<size_t> Unconfirmed;
  /// Seconds of the analyses of units not yet confirmed, for the progress.
  std::map<size_t, double> Seconds;

  WorkerPool Pool;
  std::string PreambleDirectory;
  bool RoundOneRan = false;
};

ProgressStyle styleOf(const SchedulerOptions &Tool) {
  return progressStyle(Tool.Progress, Tool.Quiet,
                       sys::Process::StandardErrIsDisplayed());
}

UnitScheduler::UnitScheduler(const SchedulerOptions &Tool,
                             const CompilationSetup &Setup,
                             ArrayRef<std::string> Units,
                             const SummaryScope &Scope,
                             ClangTidyOptionsProvider &Provider, int Argc,
                             const char **Argv, const UnitReady &Ready)
    : Tool(Tool), Setup(Setup), Units(Units), Scope(Scope), Provider(Provider),
      Argc(Argc), Argv(Argv), Ready(Ready),
      Executable(sys::fs::getMainExecutable(
          Argv[0], reinterpret_cast<void *>(&analysisSettings))),
      Progress(errs(), styleOf(Tool), Units.size(),
               styleOf(Tool) == ProgressStyle::Bar
                   ? sys::Process::StandardErrColumns()
                   : 0),
      Results(Units.size()), Messages(Units.size()), Done(Units.size()),
      All(Units.begin(), Units.end()), Selected(Units.size()) {
  Cache = openResultCache(Tool, Executable, Identity);
  // Without a cache, the other units' summaries would cost an analysis of
  // each on every run: the units asked for read each other's only.
  if (Scope.Enabled && Cache)
    All.insert(All.end(), Scope.OtherUnits.begin(), Scope.OtherUnits.end());
  if (!Tool.NoCache && !Tool.NoReplay && !Tool.RemoteCaches.empty())
    Remote.emplace(Tool.RemoteCaches, remoteCacheBase(Tool),
                   Tool.CacheDir.empty() ? cache::defaultCacheDirectory()
                                         : Tool.CacheDir,
                   Executable, [this](const std::string &Line) { warn(Line); });
}

std::vector<TranslationUnitResult> UnitScheduler::run() {
  computeKeys();
  lookUpCachedResults();
  warnAboutRemoteEntries();
  handOn();
  announceOtherUnits();
  setUpWorkers();
  analyzeRoundOne();
  analyzeRoundTwo();
  Progress.end();
  // What the servers have not stored yet, within a budget.
  if (Remote)
    Remote->finishStores();
  // Workers stored results and prefixes: keep the directory in its bounds.
  if (!PreambleDirectory.empty() && RoundOneRan)
    cache::limitCacheSize(PreambleDirectory, Tool.CacheMaxSize);
  return std::move(Results);
}

void UnitScheduler::warn(const std::string &Line) {
  Progress.suspend();
  errs() << Line << "\n";
  Progress.resume();
}

void UnitScheduler::handOn() {
  if (NextReady >= Units.size() || !Done[NextReady])
    return;
  Progress.suspend();
  for (; NextReady < Units.size() && Done[NextReady]; ++NextReady) {
    errs() << onceARun(Messages[NextReady], CachePrinted);
    if (Ready)
      Ready(NextReady, Results[NextReady]);
  }
  Progress.resume();
}

void UnitScheduler::finish(size_t I, std::optional<double> Took) {
  Done[I] = true;
  Progress.finished(Units[I], Results[I], Took);
}

void UnitScheduler::computeKeys() {
  Keys.assign(All.size(), "");
  RemoteKeys.assign(All.size(), "");
  if (!Cache && !Remote)
    return;
  for (size_t I = 0; I < All.size(); ++I) {
    std::vector<std::string> Parts =
        unitKeyParts(Tool, Setup, Provider, All[I]);
    if (Cache) {
      std::vector<std::string> Local = {Identity};
      Local.insert(Local.end(), Parts.begin(), Parts.end());
      Keys[I] = cache::ResultCache::key(Local);
    }
    if (Remote)
      RemoteKeys[I] = Remote->key(Parts);
  }
}

void UnitScheduler::lookUpCachedResults() {
  // The fix-its this run writes (--fix, --export-fixes) come from analyses
  // on this machine: a remote entry is network data, and so is its copy in
  // the local cache. It may give findings, never edits.
  const bool WritesEdits =
      Tool.Fix || Tool.FixErrors || Tool.FixNotes || !Tool.ExportFixes.empty();
  // Each unit's local entry; the local misses are then looked up remotely
  // all at once.
  std::vector<std::optional<TranslationUnitResult>> Hits(All.size());
  std::vector<size_t> AskRemote;
  std::vector<cache::RemoteResults::Lookup> RemoteLookups;
  for (size_t I = 0; I < All.size(); ++I) {
    // A profile needs the checks to run.
    if (Tool.EnableCheckProfile && I < Selected)
      continue;
    const bool LocalOnly = WritesEdits && I < Selected;
    if (Cache)
      Hits[I] = Cache->lookup(
          Keys[I], LocalOnly ? std::optional(cache::ResultCache::Origin::Local)
                             : std::nullopt);
    if (!Hits[I] && Remote && !LocalOnly) {
      AskRemote.push_back(I);
      RemoteLookups.push_back({RemoteKeys[I], All[I]});
    }
  }
  if (Remote) {
    std::vector<std::optional<cache::WorkerResult>> FromRemote =
        Remote->lookupAll(RemoteLookups);
    for (size_t K = 0; K < AskRemote.size(); ++K) {
      if (!FromRemote[K])
        continue;
      const size_t I = AskRemote[K];
      if (Cache)
        Cache->store(Keys[I], *FromRemote[K],
                     cache::ResultCache::Origin::Remote);
      Hits[I] = std::move(FromRemote[K]->Unit);
    }
  }
  for (size_t I = 0; I < All.size(); ++I) {
    std::optional<TranslationUnitResult> &Hit = Hits[I];
    if (!Hit) {
      (I < Selected ? Pending : Others).push_back(I);
      continue;
    }
    if (Scope.Enabled)
      Summaries.set(All[I], Hit->FunctionSummaries);
    if (I >= Selected)
      continue;
    Results[I] = std::move(*Hit);
    if (Scope.Enabled && !Results[I].CalledElsewhere.empty()) {
      Unconfirmed.push_back(I);
      continue;
    }
    finish(I, std::nullopt);
  }
}

void UnitScheduler::warnAboutRemoteEntries() {
  if (!Remote)
    return;
  if (Remote->rejected())
    warn("libtorch-tidy: warning: " + std::to_string(Remote->rejected()) +
         " remote cache entries failed their checksum, format, digest or "
         "size checks and were ignored; those units were analyzed here and "
         "their entries are overwritten");
  if (Remote->unverified())
    warn("libtorch-tidy: warning: " + std::to_string(Remote->unverified()) +
         " remote cache entries were not signed by a key their server "
         "trusts (verify-key) and were ignored; those units were analyzed "
         "here");
}

void UnitScheduler::announceOtherUnits() {
  // Other units matter only to units that may read their summaries.
  if (Pending.empty() && Unconfirmed.empty())
    Others.clear();
  if (!Others.empty() && !Tool.Quiet) {
    const std::string Count =
        report::countOf(Others.size(), "other unit", "other units");
    const bool One = Others.size() == 1;
    if (Scope.AnalyzeStale)
      warn("libtorch-tidy: analyzing " + Count +
           " of the compilation database to summarize " +
           (One ? "its" : "their") + " functions (--summaries=current)");
    else
      warn("libtorch-tidy: " + Count +
           " of the compilation database changed since " +
           (One ? "it was" : "they were") + " last analyzed, or never were: " +
           "what " + (One ? "its" : "their") +
           " functions do is not known to this run (a run over the whole "
           "database brings the cache up to date; --summaries=current "
           "analyzes them now)");
  }
  if (!Scope.AnalyzeStale)
    Others.clear();
}

void UnitScheduler::setUpWorkers() {
  Pool.Executable = Executable;
  Pool.Arguments.assign(Argv + 1, Argv + Argc);
  Pool.Jobs =
      Tool.Jobs ? Tool.Jobs : std::max(1u, std::thread::hardware_concurrency());
  Pool.TimeoutSeconds = Tool.UnitTimeout;
  PreambleDirectory = analysisSettings(Tool).PreambleDirectory;
}

/// Analyzes the units \p Round of All, with the summaries as they are now.
void UnitScheduler::runRound(const std::vector<size_t> &Round,
                             const Finished &OnFinished) {
  if (Round.empty())
    return;
  std::vector<std::string> Files;
  Files.reserve(Round.size());
  for (size_t I : Round)
    Files.push_back(All[I]);
  Pool.UnitRequests = prefixRequests(Tool, Files, Pool.Jobs, PreambleDirectory);
  // What the round's workers read, for the digest of their answers.
  std::optional<DatabaseSummaries> Read;
  Pool.SummaryText.clear();
  if (Scope.Enabled) {
    Read.emplace(Summaries.snapshot());
    // An empty table makes no findings: no file to write.
    if (!Summaries.empty())
      Pool.SummaryText = Summaries.fileText();
  }
  runWorkers(Pool, Files, [&](size_t K, const cache::WorkerResult &R) {
    const size_t I = Round[K];
    cache::WorkerResult Result = R;
    if (Read)
      Result.Unit.SummaryAnswers =
          Read->answersDigest(Result.Unit.CalledElsewhere);
    if (Cache)
      Cache->store(Keys[I], Result);
    if (Remote)
      Remote->store(RemoteKeys[I], Result);
    OnFinished(I, Result);
  });
}

/// The units asked for and the others' stale summaries.
void UnitScheduler::analyzeRoundOne() {
  std::vector<size_t> Round = Pending;
  Round.insert(Round.end(), Others.begin(), Others.end());
  RoundOneRan = !Round.empty();
  runRound(Round, [&](size_t I, cache::WorkerResult &R) {
    // The round read the summaries written before it (runRound).
    if (Scope.Enabled)
      Summaries.set(All[I], R.Unit.FunctionSummaries);
    if (I >= Selected)
      return;
    Results[I] = std::move(R.Unit);
    Messages[I] = std::move(R.Stderr);
    if (Scope.Enabled && !Results[I].CalledElsewhere.empty()) {
      Unconfirmed.push_back(I);
      Seconds[I] = R.Seconds;
      return;
    }
    finish(I, R.Seconds);
    handOn();
  });
}

/// The units whose answers the summaries of round one changed; the others
/// waiting for them are confirmed.
void UnitScheduler::analyzeRoundTwo() {
  if (!Scope.Enabled)
    return;
  std::vector<size_t> Round;
  llvm::sort(Unconfirmed);
  for (size_t I : Unconfirmed) {
    if (Summaries.answersDigest(Results[I].CalledElsewhere) !=
        Results[I].SummaryAnswers) {
      Round.push_back(I);
      continue;
    }
    auto Took = Seconds.find(I);
    finish(I, Took == Seconds.end() ? std::optional<double>() : Took->second);
  }
  handOn();
  if (!Round.empty() && !Tool.Quiet)
    warn("libtorch-tidy: analyzing " +
         report::countOf(Round.size(), "unit", "units") +
         " again with the summaries of the units " +
         (Round.size() == 1 ? "it calls" : "they call") + " into");
  runRound(Round, [&](size_t I, cache::WorkerResult &R) {
    Results[I] = std::move(R.Unit);
    Messages[I] = std::move(R.Stderr);
    finish(I, R.Seconds);
    handOn();
  });
}

} // namespace

std::vector<TranslationUnitResult>
analyzeUnits(const SchedulerOptions &Tool, const CompilationSetup &Setup,
             ArrayRef<std::string> Units, const SummaryScope &Scope,
             ClangTidyOptionsProvider &Provider, int Argc, const char **Argv,
             const UnitReady &Ready) {
  return UnitScheduler(Tool, Setup, Units, Scope, Provider, Argc, Argv, Ready)
      .run();
}

} // namespace libtorch_tidy::run
