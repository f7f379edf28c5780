//===--- ServerPrefixBuilds.cpp - `libtorch-tidy lsp`: built prefixes ----===//
//
// Part of libtorch-tidy. SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//
//
// The server's analyses never build a precompiled prefix, nor wait for one
// (`--worker-preamble=reuse-only`): an analysis that finds its prefix missing
// says so and parses without it, so that every edit is published from a
// plain parse while the prefix is made. The server builds the prefix apart,
// in a worker of its own (`--worker-preamble=build-only`) that edits do not
// stop: it runs to the end and serves the next analyses, of this document
// and of every other that starts with the same headers. It runs at the
// analyses' priority: at a lower one a busy machine starves it, and the
// first edit, which it is for, waits for a plain parse. Only a close of
// every document that wants it, or a change of the flags
// (compile_commands.json, .clang-tidy), stops it. Where other programs
// leave no core for both, it pauses while an edit is parsed without it, so
// that the edit's diagnostics come as soon as a plain parse's, and then
// goes on; its own load and the analyses' do not count as others'.
//
//===----------------------------------------------------------------------===//

#include "lsp/Server.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/raw_ostream.h"
#include <algorithm>
#include <chrono>
#include <thread>

using namespace llvm;

namespace libtorch_tidy::lsp {
namespace {

/// A prefix with a library's header (a path with a directory, as
/// <torch/torch.h>) takes seconds to parse: its build pays at once, beside
/// the document's first analysis when a core is idle. One of the standard
/// library's headers (<vector>) pays only when the analysis was slow.
bool libraryPrefix(StringRef Headers) { return Headers.contains('/'); }

/// An analysis this slow without a prefix is worth one.
constexpr double SlowAnalysisSeconds = 1.0;

/// A prefix build takes about this many times a plain analysis of the file
/// (docs/performance.md: 1.3-1.5 with LibTorch's headers); the higher
/// figure, so that an edit waits for a build only when it surely pays.
constexpr double BuildToPlainParse = 1.5;

/// A build pauses for edits for at most this share of the analyses' time
/// limit in all: the builder's own --unit-timeout counts its pauses too.
constexpr double MaxPausedShareOfTimeout = 0.25;

/// One reading of the processes that can run now, the kernel's count in
/// /proc/loadavg. The tests name another file in the
/// LIBTORCH_TIDY_TEST_LOADAVG variable, to be a busy or an idle machine.
std::optional<unsigned> runnableNow() {
  const char *Override = getenv("LIBTORCH_TIDY_TEST_LOADAVG");
  ErrorOr<std::unique_ptr<MemoryBuffer>> Load =
      MemoryBuffer::getFileAsStream(Override ? Override : "/proc/loadavg");
  if (!Load)
    return std::nullopt;
  SmallVector<StringRef, 5> Fields;
  (*Load)->getBuffer().split(Fields, ' ');
  unsigned Runnable = 0;
  if (Fields.size() < 4 ||
      Fields[3].split('/').first.getAsInteger(10, Runnable))
    return std::nullopt;
  return Runnable;
}

/// The processes that can run, less this server, which runs while it reads
/// the count. The fewest of a few readings over 8 ms: a process that runs
/// for an instant (a worker that was just stopped and exits, the client
/// reading our answer) is not load, and counted once it made a busy machine
/// of an idle one, pausing the build for every edit.
std::optional<unsigned> runnableBesideServer() {
  constexpr int Readings = 5;
  std::optional<unsigned> Fewest;
  for (int Reading = 0; Reading < Readings; ++Reading) {
    if (Reading)
      std::this_thread::sleep_for(std::chrono::milliseconds(2));
    std::optional<unsigned> Runnable = runnableNow();
    if (!Runnable)
      return std::nullopt;
    Fewest = std::min(Fewest.value_or(*Runnable), *Runnable);
    if (*Fewest <= 1)
      break;
  }
  return *Fewest - 1;
}

} // namespace

bool Server::coresFor(unsigned Wanted) const {
  std::optional<unsigned> Runnable = runnableBesideServer();
  if (!Runnable)
    return false;
  // The count holds our workers that run at that instant beside others'
  // processes; one of ours that does not run at that instant (just
  // started) still wants its core.
  unsigned Ours = 0;
  for (const auto &[Uri, Doc] : Documents)
    Ours += Doc.Running != nullptr;
  for (const auto &[Key, Build] : PrefixBuilds)
    Ours += !Build.Process->paused();
  const unsigned Cores = std::max(1u, std::thread::hardware_concurrency());
  return std::max(*Runnable, Ours) + Wanted <= Cores;
}

std::string Server::prefixBuildKey(const Document &Doc) {
  return Lookup.lookup(Doc.Path).Directory + '\n' + Doc.MissingPrefix;
}

void Server::considerPrefixBuild(Document &Doc,
                                 std::optional<double> AnalysisSeconds) {
  if (Doc.MissingPrefix.empty() || isHeaderPath(Doc.Path))
    return;
  if (!libraryPrefix(Doc.MissingPrefix) &&
      (!AnalysisSeconds || *AnalysisSeconds < SlowAnalysisSeconds))
    return;
  // Beside the first analysis only on a core nobody uses; else once its
  // diagnostics are out (finished() asks again), or once one analysis's
  // time passed without them (startOverdueBuild()).
  if (!AnalysisSeconds && !coresFor(1))
    return;
  const std::string Key = prefixBuildKey(Doc);
  if (FailedPrefixBuilds.count(Key))
    return;
  // The analysis began before a build of this prefix ended: the next one
  // reuses what that build made.
  if (auto Made = MadePrefixBuilds.find(Key);
      Made != MadePrefixBuilds.end() && Doc.AnalysisStarted <= Made->second)
    return;
  if (auto It = PrefixBuilds.find(Key); It != PrefixBuilds.end()) {
    // Another document's build makes it: this one waits for that.
    It->second.Uris.insert(Doc.Uri);
    Doc.ParsingBesideBuild = Doc.Running != nullptr;
    return;
  }
  CommandLookup Command = Lookup.lookup(Doc.Path);
  if (!Command.HasEntry)
    return;
  // The builder finds the prefix in the editor's text, as the analyses do.
  AnalysisRequest Request =
      workerRequest(Doc, Command, worker::PrefixRole::BuildOnly);
  PrefixBuild &Build = PrefixBuilds[Key];
  Build.Process = std::make_unique<AnalysisProcess>(Request);
  Build.Uris.insert(Doc.Uri);
  const std::string What = "the preamble (" + Doc.MissingPrefix + ")";
  Build.Progress = Progress.create("building " + What);
  Doc.ParsingBesideBuild = Doc.Running != nullptr;
  logMessage("libtorch-tidy: " + sys::path::filename(Doc.Path).str() +
             ": building " + What + " apart, for the next analyses");
}

void Server::startOverdueBuild(Document &Doc) {
  // On a busy machine the build waits for the first diagnostics, so as not
  // to slow them. Once one analysis's time has passed since the document
  // was opened and none came (every analysis was stopped: edits, a reload),
  // waiting on would only hold the preamble back from every later edit: it
  // starts, and pauses while an edit is parsed without it. One analysis's
  // time: the document's last plain parse where known, else the longest
  // that a stopped analysis ran, the least one takes. While the first
  // analysis runs and none was stopped there is no measure: its end starts
  // the build (finished()).
  if (Doc.BuildOverdue || Doc.ResultVersion || Doc.MissingPrefix.empty())
    return;
  const std::optional<double> OneAnalysis =
      Doc.PlainSeconds ? Doc.PlainSeconds : Doc.StoppedSeconds;
  const std::chrono::duration<double> Open = Clock::now() - Doc.Opened;
  if (!OneAnalysis || Open.count() < *OneAnalysis)
    return;
  Doc.BuildOverdue = true;
  const std::string Key = prefixBuildKey(Doc);
  const bool Building = PrefixBuilds.count(Key);
  considerPrefixBuild(Doc, *OneAnalysis);
  if (!Building && PrefixBuilds.count(Key))
    logMessage("libtorch-tidy: " + sys::path::filename(Doc.Path).str() +
               ": no diagnostics in one analysis's time since the document "
               "was opened: the preamble is built without waiting for them");
}

bool Server::waitsForPrefixBuild(const Document &Doc) {
  if (!Doc.PlainSeconds)
    return false;
  for (const auto &[Key, Build] : PrefixBuilds) {
    if (!Build.Uris.count(Doc.Uri))
      continue;
    const double Plain = *Doc.PlainSeconds;
    const double Elapsed = Build.Process->activeSeconds();
    // Expected to end within one plain parse: waiting is sooner, and a
    // parse beside it would only slow it. A build far over its estimate
    // (a loaded machine) is not waited for any longer.
    return Elapsed > (BuildToPlainParse - 1) * Plain &&
           Elapsed < 2 * BuildToPlainParse * Plain;
  }
  return false;
}

void Server::pauseBuildsBeside(const Document &Doc) {
  for (auto &[Key, Build] : PrefixBuilds) {
    // Where each has a core, the two run side by side at no cost to the
    // edit; else they would share the busy cores and both end late (a
    // first edit sent at once took 2.3 x a plain parse at a load of 9.7 on
    // 2 cores, scripts/bench-lsp). The edit's parse runs already.
    if (!Build.Uris.count(Doc.Uri) || Build.Process->paused() ||
        Build.Process->pausedSeconds() >=
            MaxPausedShareOfTimeout * Options.TimeoutSeconds ||
        coresFor(0))
      continue;
    Build.Process->pause();
    logMessage("libtorch-tidy: " + sys::path::filename(Doc.Path).str() +
               ": the preamble build pauses while version " +
               std::to_string(Doc.RunningVersion) + " is parsed without it");
  }
}

void Server::resumePausedBuilds() {
  for (auto &[Key, Build] : PrefixBuilds) {
    if (!Build.Process->paused())
      continue;
    const bool ParseRuns = llvm::any_of(Build.Uris, [&](const std::string &U) {
      auto Doc = Documents.find(U);
      return Doc != Documents.end() && Doc->second.Running;
    });
    if (ParseRuns && Build.Process->pausedSeconds() <
                         MaxPausedShareOfTimeout * Options.TimeoutSeconds)
      continue;
    Build.Process->resume();
    logMessage("libtorch-tidy: the preamble build goes on");
  }
}

void Server::pollPrefixBuilds() {
  resumePausedBuilds();
  for (auto It = PrefixBuilds.begin(); It != PrefixBuilds.end();) {
    PrefixBuild &Build = It->second;
    if (!Build.Process->poll()) {
      ++It;
      continue;
    }
    const AnalysisOutcome &Outcome = Build.Process->outcome();
    const bool Made = Outcome.Unit && !Outcome.Unit->Preamble.empty();
    std::string Message;
    raw_string_ostream OS(Message);
    if (Made)
      OS << "preamble " << Outcome.Unit->Preamble << " in "
         << format("%.2f", Outcome.Seconds) << " s";
    else
      OS << "no preamble"
         << (Outcome.Problem.empty() ? "" : ": " + Outcome.Problem);
    Progress.end(Build.Progress, Message);
    logMessage("libtorch-tidy: " + Message);
    if (!Made)
      // Not again for these headers and flags: every edit would retry.
      FailedPrefixBuilds.insert(It->first);
    else
      MadePrefixBuilds[It->first] = Clock::now();
    for (const std::string &Uri : Build.Uris) {
      auto Doc = Documents.find(Uri);
      if (Doc == Documents.end())
        continue;
      // An analysis that parses without the prefix starts again with it:
      // it ends sooner than the parse it replaces.
      if (Made && Doc->second.Running && Doc->second.ParsingBesideBuild) {
        stopAnalysis(Doc->second);
        Doc->second.Due = Clock::now();
      }
    }
    It = PrefixBuilds.erase(It);
  }
}

void Server::dropPrefixBuilds(const std::string &Uri) {
  if (Uri.empty()) {
    FailedPrefixBuilds.clear();
    MadePrefixBuilds.clear();
  }
  for (auto It = PrefixBuilds.begin(); It != PrefixBuilds.end();) {
    It->second.Uris.erase(Uri);
    if (!Uri.empty() && !It->second.Uris.empty()) {
      ++It;
      continue;
    }
    Progress.end(It->second.Progress, "cancelled");
    It = PrefixBuilds.erase(It);
  }
}

} // namespace libtorch_tidy::lsp
