//===--- WorkerCommand.cpp - The worker process's side of a run -----------===//
//
// Part of libtorch-tidy. SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

#include "tool/WorkerCommand.h"
#include "cache/PreambleStore.h"
#include "cache/ResultCache.h"
#include "cache/remote/RemoteResults.h"
#include "io/FileIO.h"
#include "model/ExitCodes.h"
#include "run/DatabaseSummaries.h"
#include "run/UnitAnalysis.h"
#include "run/UnitKeys.h"
#include "run/WorkerProcess.h"
#include "tool/RunSetup.h"
#include "worker/WorkerProtocol.h"
#include "llvm/ADT/SmallString.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Signals.h"
#include "llvm/Support/raw_ostream.h"
#include <unistd.h>

using namespace clang::tidy;
using namespace llvm;

namespace libtorch_tidy::tool {

using namespace run;

namespace {

/// Hands \p Result to the parent through \p Output; a worker that cannot
/// says why on stderr, which the parent reports with the unit.
int handBack(StringRef Output, const cache::WorkerResult &Result) {
  if (std::optional<std::string> Problem =
          worker::writeWorkerResult(Output, Result)) {
    errs() << "libtorch-tidy: error: cannot hand the unit's result back: "
           << *Problem << "\n";
    return ExitUsageError;
  }
  return ExitNoFindings;
}

} // namespace

int runWorkerCommand(const ToolOptions &Tool,
                     std::unique_ptr<clang::tooling::CompilationDatabase> Fixed,
                     const char *Argv0) {
  // A worker dies with its parent and enforces its own --unit-timeout.
  guardWorker(Tool.Worker.Output, Tool.Worker.SummaryFile, Tool.UnitTimeout);
  // The parent set up the same configuration and database before it started
  // this worker; an error here means they changed in between.
  auto Fail = [](Error E) {
    errs() << "libtorch-tidy: error: " << toString(std::move(E)) << "\n";
    return ExitUsageError;
  };
  Expected<RunConfiguration> Run = configureRun(Tool);
  if (!Run)
    return Fail(Run.takeError());
  Expected<CompilationSetup> Setup = setUpUnits(Tool, std::move(Fixed), Argv0);
  if (!Setup)
    return Fail(Setup.takeError());
  // The CLI refuses a CheckOptions value no check can read before it starts
  // a worker; the language server starts workers itself and hears of it
  // here, as the worker's error.
  if (reportInvalidCheckOptionValues(*Run->Provider, Tool.Worker.Unit, errs()))
    return ExitUsageError;

  // The language server's first analysis of a file opened unchanged: a
  // result another machine stored is shown at once. Never written from
  // here. The overlay it passes maps only buffers equal to the files.
  if (Tool.Worker.RemoteLookup && !Tool.RemoteCaches.empty()) {
    std::vector<cache::RemoteSpec> ReadOnly = Tool.RemoteCaches;
    for (cache::RemoteSpec &Spec : ReadOnly)
      Spec.ReadOnly = true;
    cache::RemoteResults Remote(
        std::move(ReadOnly), remoteCacheBase(Tool),
        Tool.CacheDir.empty() ? cache::defaultCacheDirectory() : Tool.CacheDir,
        sys::fs::getMainExecutable(Argv0,
                                   reinterpret_cast<void *>(&runWorkerCommand)),
        [](const std::string &Line) { errs() << Line << "\n"; });
    std::string Key = Remote.key(
        unitKeyParts(Tool, *Setup, *Run->Provider, Tool.Worker.Unit));
    if (std::optional<cache::WorkerResult> Hit =
            std::move(Remote.lookupAll({{Key, Tool.Worker.Unit}}).front())) {
      // Findings, never edits: the editor's quick fixes come from the
      // analysis here, after the first edit (docs/ci/shared-cache.md).
      model::dropEdits(Hit->Unit);
      return handBack(Tool.Worker.Output, *Hit);
    }
  }

  // The language server's worker reads what the functions of the
  // database's other units do, as far as the local cache knows
  // (run/DatabaseSummaries.h), from a file of its own.
  std::string SummaryFile = Tool.Worker.SummaryFile;
  SmallString<128> OwnSummaries;
  if (Tool.Worker.DatabaseSummaries && SummaryFile.empty()) {
    const std::string Text = cachedDatabaseSummaries(
        Tool, *Setup, *Run->Provider, Tool.Worker.Unit,
        sys::fs::getMainExecutable(
            Argv0, reinterpret_cast<void *>(&runWorkerCommand)));
    if (!Text.empty() && !sys::fs::createTemporaryFile(
                             "libtorch-tidy-summaries", "json", OwnSummaries)) {
      sys::RemoveFileOnSignal(OwnSummaries);
      ToolOptions WithSummaries = Tool;
      WithSummaries.Worker.SummaryFile = std::string(OwnSummaries);
      Expected<RunConfiguration> Again = configureRun(WithSummaries);
      if (!io::writeFile(std::string(OwnSummaries), Text,
                         io::FileMode::Owned) &&
          Again) {
        Run = std::move(Again);
        SummaryFile = std::string(OwnSummaries);
      } else if (!Again) {
        consumeError(Again.takeError());
      }
    }
  }

  cache::WorkerResult Result;
  const AnalysisSettings Settings = analysisSettings(Tool);
  const bool Builder = Settings.Prefix == worker::PrefixRole::BuildOnly;
  // A detached builder has no parent to stop it (run/DetachedPrefixBuild.h).
  if (Builder && Tool.UnitTimeout > 0)
    alarm(Tool.UnitTimeout + 1);
  Result.Unit =
      analyzeUnit(std::move(Run->Provider), *Setup->Compilations,
                  Tool.Worker.Unit, Run->Files, Settings, &Result.Dependencies);
  // The parent checks what the summaries it wrote for this round answered
  // (run/DatabaseSummaries.h); the file itself is a new one each round.
  if (!SummaryFile.empty())
    llvm::erase_if(Result.Dependencies, [&](const cache::Dependency &D) {
      return D.first == SummaryFile;
    });
  if (!OwnSummaries.empty()) {
    sys::fs::remove(OwnSummaries);
    sys::DontRemoveFileOnSignal(OwnSummaries);
  }
  // A new precompiled prefix: keep the cache in its bounds now, since a
  // worker the language server started has no parent run to do it.
  if (Result.Unit.Preamble == "built" || Result.Unit.Preamble == "rebuilt")
    cache::limitCacheSize(Settings.PreambleDirectory, Tool.CacheMaxSize);
  // A builder's findings are none: it parsed nothing past its prefix.
  if (Builder && Tool.Worker.Output.empty())
    return ExitNoFindings;
  return handBack(Tool.Worker.Output, Result);
}

} // namespace libtorch_tidy::tool
