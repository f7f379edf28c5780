//===--- CommandLineFlags.h - The flags the tool takes ----------*- C++ -*-===//
//
// Part of libtorch-tidy. SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//
//
// The option objects of the command line, one set per process: defined in
// CommandLineFlags.cpp with their help texts, read by parseCommandLine
// (OptionsSetup.cpp) into ToolOptions. Nothing else reads them.
//
//===----------------------------------------------------------------------===//

#ifndef LIBTORCH_TIDY_DRIVER_CONFIG_COMMANDLINEFLAGS_H
#define LIBTORCH_TIDY_DRIVER_CONFIG_COMMANDLINEFLAGS_H

#include "llvm/Support/CommandLine.h"
#include <string>
#include <vector>

namespace libtorch_tidy {
namespace flags {

/// The category of the tool's flags: the ones --help shows.
extern llvm::cl::OptionCategory Category;

/// `--color=auto|always|never`, created on the first call (before the
/// command line is parsed): LLVM registers a `--color` of its own, whose
/// name this one takes away.
llvm::cl::opt<std::string> &colorOption();

/// The plugins `--load` loaded while the command line was parsed.
std::vector<std::string> loadedPlugins();

// What to analyze and how, as clang-tidy names it.
extern llvm::cl::opt<std::string> BuildPath;
extern llvm::cl::list<std::string> SourcePaths;
extern llvm::cl::opt<std::string> Checks;
extern llvm::cl::opt<std::string> WarningsAsErrors;
extern llvm::cl::opt<std::string> HeaderFilter;
extern llvm::cl::opt<bool> SystemHeaders;
extern llvm::cl::opt<bool> UseColor;
extern llvm::cl::opt<std::string> Config;
extern llvm::cl::opt<std::string> ConfigFile;
extern llvm::cl::opt<bool> Fix;
extern llvm::cl::opt<bool> FixErrors;
extern llvm::cl::opt<bool> FixNotes;
extern llvm::cl::opt<std::string> FormatStyle;
extern llvm::cl::opt<std::string> ExportFixes;
extern llvm::cl::opt<std::string> ExportSummaries;
extern llvm::cl::opt<std::string> Summaries;
extern llvm::cl::opt<std::string> ExcludeHeaderFilter;
extern llvm::cl::list<std::string> RemovedArgs;
extern llvm::cl::opt<bool> AllowNoChecks;
extern llvm::cl::opt<bool> EnableModuleHeadersParsing;
extern llvm::cl::opt<bool> ExperimentalCustomChecks;
extern llvm::cl::list<std::string> ExtraArgs;
extern llvm::cl::list<std::string> ExtraArgsBefore;
extern llvm::cl::opt<bool> Quiet;
extern llvm::cl::opt<bool> ListChecks;
extern llvm::cl::opt<bool> DumpConfig;
extern llvm::cl::opt<bool> EnableCheckProfile;
extern llvm::cl::opt<bool> PrintCheckTable;

// The report.
extern llvm::cl::opt<std::string> Format;
extern llvm::cl::opt<std::string> Output;
extern llvm::cl::opt<std::string> SarifRoot;
extern llvm::cl::opt<std::string> Baseline;

// Which units, how many at once, and the result cache.
extern llvm::cl::opt<std::string> Shard;
extern llvm::cl::opt<std::string> Diff;
extern llvm::cl::opt<unsigned> Jobs;
extern llvm::cl::opt<std::string> Progress;
extern llvm::cl::opt<std::string> FailOn;
extern llvm::cl::opt<std::string> CacheDir;
extern llvm::cl::opt<bool> NoCache;
extern llvm::cl::opt<std::string> RemoteCache;
extern llvm::cl::opt<std::string> CacheBaseDir;
extern llvm::cl::opt<std::string> CacheMaxSize;
extern llvm::cl::opt<std::string> Preamble;
extern llvm::cl::opt<bool> NoPreamble;
extern llvm::cl::opt<unsigned> UnitTimeout;

// Paths left out (driver/select/Exclude.h).
extern llvm::cl::list<std::string> Exclude;
extern llvm::cl::opt<bool> SkipSystemBodies;

// clang-tidy's flags, with its semantics.
extern llvm::cl::opt<std::string> LineFilter;
extern llvm::cl::opt<bool> VerifyConfig;
extern llvm::cl::opt<bool> ExplainConfig;
extern llvm::cl::opt<std::string> StoreCheckProfile;
extern llvm::cl::opt<std::string> VfsOverlay;

} // namespace flags
} // namespace libtorch_tidy

#endif // LIBTORCH_TIDY_DRIVER_CONFIG_COMMANDLINEFLAGS_H
