//===--- UnitScheduler.cpp - Analyze units: cache, then workers -----------===//
//
// Part of libtorch-tidy. SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

#include "run/UnitScheduler.h"

#include "ExitCodes.h"
#include "run/ResultCache.h"
#include "run/UnitAnalysis.h"
#include "run/Workers.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Process.h"

#include <algorithm>
#include <optional>
#include <thread>

using namespace clang::tidy;
using namespace llvm;

namespace libtorch_tidy::run {

using report::TranslationUnitResult;

static AnalysisSettings analysisSettings(const ToolOptions &Tool) {
  AnalysisSettings Settings;
  Settings.SkipSystemBodies = Tool.SkipSystemBodies;
  Settings.FixNotes = Tool.FixNotes;
  Settings.EnableCheckProfile = Tool.EnableCheckProfile;
  Settings.StoreCheckProfile = Tool.StoreCheckProfile;
  return Settings;
}

int runWorker(const ToolOptions &Tool, const CompilationSetup &Setup,
              std::unique_ptr<ClangTidyOptionsProvider> Provider,
              IntrusiveRefCntPtr<vfs::OverlayFileSystem> BaseFS) {
  WorkerResult Result;
  Result.Unit =
      analyzeUnit(std::move(Provider), *Setup.Compilations, Tool.WorkerUnit,
                  BaseFS, analysisSettings(Tool), &Result.Dependencies);
  return writeWorkerResult(Tool.WorkerOutput, Result)
             ? libtorch_tidy::ExitNoFindings
             : libtorch_tidy::ExitUsageError;
}

/// The parts of a unit's cache key that are not file contents.
static std::string cacheKey(const ToolOptions &Tool,
                            const CompilationSetup &Setup,
                            ClangTidyOptionsProvider &Provider, StringRef File,
                            StringRef Identity) {
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
  std::string Settings = std::string("skip-system-bodies=") +
                         (Tool.SkipSystemBodies ? "1" : "0") +
                         " fix-notes=" + (Tool.FixNotes ? "1" : "0");
  return ResultCache::key(
      {Identity.str(), File.str(), Command, Config, Settings});
}

std::vector<TranslationUnitResult>
analyzeUnits(const ToolOptions &Tool, const CompilationSetup &Setup,
             ArrayRef<std::string> Units, ClangTidyOptionsProvider &Provider,
             int Argc, const char **Argv) {
  std::string Executable = sys::fs::getMainExecutable(
      Argv[0], reinterpret_cast<void *>(&analysisSettings));

  std::optional<ResultCache> Cache;
  std::string Identity;
  if (!Tool.NoCache) {
    std::string Dir =
        Tool.CacheDir.empty() ? defaultCacheDirectory() : Tool.CacheDir;
    Identity = toolIdentity(Executable);
    if (!Dir.empty() && !Identity.empty())
      Cache.emplace(Dir);
  }

  std::vector<TranslationUnitResult> Results(Units.size());
  std::vector<std::string> Keys(Units.size());
  std::vector<size_t> Pending;
  for (size_t I = 0; I < Units.size(); ++I) {
    if (Cache) {
      Keys[I] = cacheKey(Tool, Setup, Provider, Units[I], Identity);
      // A profile needs the checks to run.
      if (!Tool.EnableCheckProfile)
        if (std::optional<TranslationUnitResult> Hit = Cache->lookup(Keys[I])) {
          Results[I] = std::move(*Hit);
          continue;
        }
    }
    Pending.push_back(I);
  }

  WorkerPool Pool;
  Pool.Executable = Executable;
  Pool.Arguments.assign(Argv + 1, Argv + Argc);
  Pool.Jobs =
      Tool.Jobs ? Tool.Jobs : std::max(1u, std::thread::hardware_concurrency());
  Pool.TimeoutSeconds = Tool.UnitTimeout;
  Pool.Progress = sys::Process::StandardErrIsDisplayed();
  std::vector<std::string> PendingFiles;
  for (size_t I : Pending)
    PendingFiles.push_back(Units[I]);
  std::vector<WorkerResult> Analyzed =
      runWorkers(Pool, PendingFiles, [&](size_t K, const WorkerResult &R) {
        if (Cache)
          Cache->store(Keys[Pending[K]], R);
      });
  // Workers' own messages (e.g. --enable-check-profile of clang), in the
  // order of the units, not the order they finished in.
  for (size_t K = 0; K < Pending.size(); ++K) {
    errs() << Analyzed[K].Stderr;
    Results[Pending[K]] = std::move(Analyzed[K].Unit);
  }
  return Results;
}

} // namespace libtorch_tidy::run
