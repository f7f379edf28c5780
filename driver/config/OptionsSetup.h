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

#include "clang-tidy/ClangTidyOptions.h"
#include "run/SchedulerOptions.h"
#include "select/Shard.h"
#include "clang/Tooling/CompilationDatabase.h"
#include "llvm/Support/Error.h"
#include "llvm/Support/VirtualFileSystem.h"
#include "llvm/Support/raw_ostream.h"
#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace libtorch_tidy {

/// Everything the command line said, as plain values: what the stages
/// below own (the units', the analysis's), and what only the run's own
/// stages read (tool/CheckRun.h).
struct ToolOptions : run::SchedulerOptions {
  std::optional<std::string> Checks;
  std::optional<std::string> WarningsAsErrors;
  std::optional<std::string> HeaderFilter;
  std::optional<std::string> ExcludeHeaderFilter;
  std::vector<std::string> RemovedArgs;
  bool AllowNoChecks = false;
  std::optional<bool> SystemHeaders;
  std::optional<bool> UseColor;
  std::string Config;
  std::string ConfigFile;
  std::string FormatStyle = "none";
  std::string ExportSummaries;
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
  /// `--fail-on`: which findings make the exit code 1: "all" (default: any
  /// finding of an enabled check), a tier ("default", "opt-in") or "none".
  std::string FailOn = "all";
  // --- Paths left out (driver/select/Exclude.h). ---
  /// `--exclude=<glob>`, repeatable: units and header findings left out,
  /// relative globs anchored at the working directory.
  std::vector<std::string> Exclude;
  // --- End of paths left out. ---

  // --- clang-tidy's flags the CLI takes as clang-tidy does. ---
  /// `--line-filter`: clang-tidy's JSON list of files and line ranges
  /// (validated by parseCommandLine).
  std::string LineFilter;
  /// `--verify-config`, `--explain-config`: report on the configuration and
  /// exit (runConfigQuery).
  bool VerifyConfig = false;
  bool ExplainConfig = false;
  /// `--load`: the plugins loaded (LLVM's PluginLoader loads them while the
  /// command line is parsed, as in clang-tidy).
  std::vector<std::string> LoadedPlugins;
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
