//===--- OptionsSetup.h - Command line and check configuration --*- C++ -*-===//
//
// Part of libtorch-tidy. SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//
//
// The first stage of the pipeline, in two files: OptionsSetup.cpp parses the
// command line into ToolOptions; ConfigSetup.cpp builds the check
// configuration from them (`--config`, `--config-file`, `.clang-tidy`
// discovery) and checks the configurations discovery finds.
//
//===----------------------------------------------------------------------===//

#ifndef LIBTORCH_TIDY_DRIVER_CONFIG_OPTIONSSETUP_H
#define LIBTORCH_TIDY_DRIVER_CONFIG_OPTIONSSETUP_H

#include "cache/remote/RemoteSpec.h"
#include "clang-tidy/ClangTidyOptions.h"
#include "preamble/PrefixRole.h"
#include "select/Shard.h"
#include "clang/Tooling/CompilationDatabase.h"
#include "llvm/Support/Error.h"
#include "llvm/Support/VirtualFileSystem.h"
#include "llvm/Support/raw_ostream.h"
#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace libtorch_tidy {

/// Everything the command line said, as plain values.
struct ToolOptions {
  std::string BuildPath;
  std::vector<std::string> Sources;
  std::optional<std::string> Checks;
  std::optional<std::string> WarningsAsErrors;
  std::optional<std::string> HeaderFilter;
  std::optional<std::string> ExcludeHeaderFilter;
  std::vector<std::string> RemovedArgs;
  bool AllowNoChecks = false;
  /// clang-tidy's experimental `--enable-module-headers-parsing` and
  /// `--experimental-custom-checks`.
  bool EnableModuleHeadersParsing = false;
  bool ExperimentalCustomChecks = false;
  std::optional<bool> SystemHeaders;
  std::optional<bool> UseColor;
  std::string Config;
  std::string ConfigFile;
  std::string FormatStyle = "none";
  std::string ExportFixes;
  std::string ExportSummaries;
  /// `--summaries`: "cached", "current" or "off" (run/DatabaseSummaries.h).
  std::string Summaries = "cached";
  std::vector<std::string> ExtraArgs;
  std::vector<std::string> ExtraArgsBefore;
  bool Fix = false;
  bool FixErrors = false;
  bool FixNotes = false;
  bool Quiet = false;
  bool ListChecks = false;
  bool DumpConfig = false;
  bool EnableCheckProfile = false;
  bool PrintCheckTable = false;
  /// `--format`: text, json or sarif (validated by parseCommandLine).
  std::string Format = "text";
  /// `--output`: the report's file; empty for standard output.
  std::string Output;
  /// `--sarif-root`: empty for the git top-level of the current directory.
  std::string SarifRoot;
  /// `--baseline`: an earlier JSON report or SARIF log; empty for none.
  std::string Baseline;
  /// `--shard=K/N`: analyze only that part of the units.
  std::optional<select::ShardSpec> Shard;
  /// `--diff=<git-ref>` or `--diff=-`: analyze and report what changed.
  std::optional<std::string> Diff;
  /// `--color`: colours in the text output; unset means when a terminal.
  std::optional<bool> Color;
  /// `-j`: units analyzed at once; 0 means one per core.
  unsigned Jobs = 0;
  /// `--progress`: auto, bar, plain or none (validated by parseCommandLine).
  std::string Progress = "auto";
  /// `--fail-on`: which findings make the exit code 1: "all" (default: any
  /// finding of an enabled check), a tier ("default", "opt-in") or "none".
  std::string FailOn = "all";
  /// `--cache-dir`; empty means the default location. `--no-cache`.
  std::string CacheDir;
  bool NoCache = false;
  /// `--remote-cache` (else LIBTORCH_TIDY_REMOTE_CACHE): the servers shared
  /// with other machines, tried in order (driver/cache/remote/).
  std::vector<cache::RemoteSpec> RemoteCaches;
  /// `--cache-base-dir`: the directory whose paths the remote cache's keys
  /// and entries hold relative to it; empty for the project root.
  std::string CacheBaseDir;
  /// The result cache is neither read nor written, for a reason of the
  /// command line's (--line-filter, --vfsoverlay, --load); the precompiled
  /// prefixes in the same directory are still used.
  bool NoReplay = false;
  /// `--cache-max-size` in bytes; 0 for no limit.
  std::uint64_t CacheMaxSize = 5ull << 30;
  /// `--preamble`: auto, always or never (`--no-preamble`).
  std::string Preamble = "auto";
  /// `--unit-timeout`: seconds a unit may take before it counts as failed.
  unsigned UnitTimeout = 600;
  // --- Paths left out (driver/select/Exclude.h). ---
  /// `--exclude=<glob>`, repeatable: units and header findings left out,
  /// relative globs anchored at the working directory.
  std::vector<std::string> Exclude;
  // --- End of paths left out. ---
  /// Hidden: skip bodies of system-header functions (on by default).
  bool SkipSystemBodies = true;
  /// Hidden, set by the parent for a worker process: analyze only this unit
  /// and write its TranslationUnitResult as JSON to WorkerOutput.
  std::string WorkerUnit;
  std::string WorkerOutput;
  /// Hidden, set by the parent for a worker: another unit of the run starts
  /// with the same includes (AnalysisSettings::PreambleShared).
  bool WorkerPreambleShared = false;
  /// `--worker-preamble-notice`, from the language server: the file that
  /// gets a line when the unit's prefix starts building
  /// (AnalysisSettings::PreambleNotice).
  std::string WorkerPreambleNotice;
  /// `--worker-preamble=`, set by the parent or the language server for a
  /// worker: who builds a missing prefix (AnalysisSettings::Prefix).
  preamble::PrefixRole WorkerPrefixRole = preamble::PrefixRole::Analyze;
  /// `--worker-remote-lookup`, from the language server for a file whose
  /// open buffers all equal the files on disk: look the unit up in the
  /// remote cache (read only) before analyzing it.
  bool WorkerRemoteLookup = false;
  /// `--worker-summary-file`, set by the parent for a worker: the summaries
  /// of the database's other units that it wrote for this round
  /// (run/DatabaseSummaries.h), given to the checks as
  /// `libtorch-tidy.SummaryFile` and left out of the unit's dependencies.
  std::string WorkerSummaryFile;
  /// `--worker-database-summaries`, from the language server: read the
  /// summaries of the database's other units that the local result cache
  /// holds (run/DatabaseSummaries.h, cachedDatabaseSummaries).
  bool WorkerDatabaseSummaries = false;

  // --- clang-tidy's flags the CLI takes as clang-tidy does. ---
  /// `--line-filter`: clang-tidy's JSON list of files and line ranges
  /// (validated by parseCommandLine).
  std::string LineFilter;
  /// `--verify-config`, `--explain-config`: report on the configuration and
  /// exit (runConfigQuery).
  bool VerifyConfig = false;
  bool ExplainConfig = false;
  /// `--store-check-profile`: with --enable-check-profile, the directory
  /// (absolute) that gets clang-tidy's JSON profile of each unit instead of
  /// the table on standard error.
  std::string StoreCheckProfile;
  /// `--load`: the plugins loaded (LLVM's PluginLoader loads them while the
  /// command line is parsed, as in clang-tidy).
  std::vector<std::string> LoadedPlugins;
  /// `--vfsoverlay`: a virtual file system (YAML) laid over the real one.
  std::string VfsOverlay;
};

/// Parses clang-tidy-compatible flags into \p Options. Returns the fixed
/// compilation database given after `--`, or null when there was none; an
/// error for bad usage (the message says what to do).
llvm::Expected<std::unique_ptr<clang::tooling::CompilationDatabase>>
parseCommandLine(int Argc, const char **Argv, ToolOptions &Options);

/// The `.clang-tidy` discovery of clang-tidy, with the `libtorch` default
/// tier as the checks enabled when nothing else says otherwise.
llvm::Expected<std::unique_ptr<clang::tidy::ClangTidyOptionsProvider>>
createOptionsProvider(const ToolOptions &Options,
                      llvm::IntrusiveRefCntPtr<llvm::vfs::FileSystem> FS);

/// Reads every `.clang-tidy` that discovery would use for \p Files and fails
/// on the first malformed one, naming it: clang-tidy would print an error and
/// silently run with its defaults instead.
llvm::Error checkDiscoveredConfigs(const ToolOptions &Options,
                                   llvm::ArrayRef<std::string> Files);

/// Warns on \p Errs, once per key, about each CheckOptions key of a
/// `libtorch-*` check that no such check has (a misspelled option is
/// otherwise ignored silently), naming the configuration that holds it and
/// the closest valid key, as clang-tidy's `--verify-config` does. Reads the
/// same configurations as checkDiscoveredConfigs(); returns how many keys it
/// warned about.
unsigned warnUnknownCheckOptions(const ToolOptions &Options,
                                 llvm::ArrayRef<std::string> Files,
                                 llvm::raw_ostream &Errs);

} // namespace libtorch_tidy

#endif // LIBTORCH_TIDY_DRIVER_CONFIG_OPTIONSSETUP_H
