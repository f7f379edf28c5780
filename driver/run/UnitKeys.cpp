//===--- UnitKeys.cpp - What every process of a run agrees on -------------===//
//
// Part of libtorch-tidy. SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

#include "run/UnitKeys.h"
#include "cache/PreambleStore.h"
#include "cache/ResultCache.h"
#include "clang-tidy/ClangTidyOptions.h"
#include "report/ProjectRoot.h"
#include "llvm/ADT/SmallString.h"
#include "llvm/Support/FileSystem.h"

using namespace clang::tidy;
using namespace llvm;

namespace libtorch_tidy::run {

AnalysisSettings analysisSettings(const SchedulerOptions &Tool) {
  AnalysisSettings Settings;
  Settings.SkipSystemBodies = Tool.SkipSystemBodies;
  Settings.FixNotes = Tool.FixNotes;
  Settings.EnableModuleHeadersParsing = Tool.EnableModuleHeadersParsing;
  Settings.ExperimentalCustomChecks = Tool.ExperimentalCustomChecks;
  Settings.EnableCheckProfile = Tool.EnableCheckProfile;
  Settings.StoreCheckProfile = Tool.StoreCheckProfile;
  if (!Tool.NoCache && Tool.Preamble != "never") {
    std::string Dir =
        Tool.CacheDir.empty() ? cache::defaultCacheDirectory() : Tool.CacheDir;
    // A prefix no one can write would be waited for until the unit's
    // time-out (the scheduler says so once).
    if (!Dir.empty() && !cache::unusablePreambleDirectory(Dir))
      Settings.PreambleDirectory = Dir;
  }
  Settings.PreambleAlways = Tool.Preamble == "always";
  Settings.PreambleMaxBytes = Tool.CacheMaxSize;
  Settings.PreambleShared = Tool.Worker.PreambleShared;
  Settings.PreambleOverlay = !Tool.VfsOverlay.empty();
  Settings.PreambleNotice = Tool.Worker.PreambleNotice;
  Settings.Prefix = Tool.Worker.Prefix;
  Settings.DatabaseSummaries = Tool.Summaries != "off";
  return Settings;
}

std::string remoteCacheBase(const SchedulerOptions &Tool) {
  if (!Tool.CacheBaseDir.empty())
    return Tool.CacheBaseDir;
  SmallString<256> Current;
  sys::fs::current_path(Current);
  return report::findProjectRoot(Current);
}

std::vector<std::string> unitKeyParts(const SchedulerOptions &Tool,
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

} // namespace libtorch_tidy::run
