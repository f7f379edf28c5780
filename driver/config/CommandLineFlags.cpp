//===--- CommandLineFlags.cpp - The flags the tool takes ------------------===//
//
// Part of libtorch-tidy. SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

#include "config/CommandLineFlags.h"
#include "llvm/Support/PluginLoader.h"

using namespace llvm;

namespace libtorch_tidy {
namespace flags {

// The option objects of one process; the tool parses its command line once.
cl::OptionCategory Category("libtorch-tidy options");

cl::opt<std::string>
    BuildPath("p", cl::desc("Build directory holding compile_commands.json"),
              cl::value_desc("build-path"), cl::cat(Category));
cl::list<std::string>
    SourcePaths(cl::Positional,
                cl::desc("[<source> ...] [-- <compiler arguments>]"),
                cl::cat(Category));
cl::opt<std::string>
    Checks("checks",
           cl::desc(R"(Comma-separated globs of checks to run, appended to
the Checks of .clang-tidy (default: the default tier).)"),
           cl::cat(Category));
cl::opt<std::string>
    WarningsAsErrors("warnings-as-errors",
                     cl::desc("Globs of checks whose findings are errors"),
                     cl::cat(Category));
cl::opt<std::string>
    HeaderFilter("header-filter",
                 cl::desc(R"(Regular expression of headers whose findings are
shown (the main file's always are). The default is the clang-tidy's of the
same LLVM: '.*', every non-system header, on 22; none on 19.)"),
                 cl::cat(Category));
cl::opt<bool> SystemHeaders("system-headers",
                            cl::desc("Show findings in system headers"),
                            cl::cat(Category));
cl::opt<bool>
    UseColor("use-color",
             cl::desc("Colour the diagnostics (default: when a terminal)"),
             cl::cat(Category));
cl::opt<std::string>
    Config("config",
           cl::desc("Configuration in YAML/JSON, as a .clang-tidy holds it"),
           cl::cat(Category));
cl::opt<std::string>
    ConfigFile("config-file", cl::desc("Read the configuration from this file"),
               cl::value_desc("filename"), cl::cat(Category));
cl::opt<bool> Fix("fix", cl::desc("Apply the suggested fixes"),
                  cl::cat(Category));
cl::opt<bool>
    FixErrors("fix-errors",
              cl::desc("Apply fixes even if the code has compile errors"),
              cl::cat(Category));
cl::opt<bool>
    FixNotes("fix-notes",
             cl::desc("Also apply fixes attached to notes (implies --fix)"),
             cl::cat(Category));
cl::opt<std::string> FormatStyle(
    "format-style",
    cl::desc("Style used to format fixed code (none, file, llvm, ...)"),
    cl::init("none"), cl::cat(Category));
cl::opt<std::string> ExportFixes("export-fixes",
                                 cl::desc(R"(Write the fixes as YAML for
clang-apply-replacements)"),
                                 cl::value_desc("filename"), cl::cat(Category));
cl::opt<std::string> Summaries(
    "summaries",
    cl::desc(R"(What the checks know of functions defined in the compile
database's other units: cached (default: their summaries as the result cache
holds them, for the units unchanged since they were analyzed), current (the
units changed since are analyzed in this run too) or off (only a
libtorch-tidy.SummaryFile, if one is configured))"),
    cl::value_desc("cached|current|off"), cl::init("cached"),
    cl::cat(Category));
cl::opt<std::string> ExportSummaries(
    "export-summaries",
    cl::desc(R"(Write what the functions of the analyzed units do, for
the checks of other units (libtorch-tidy.SummaryFile);
the entries of units not analyzed now are kept)"),
    cl::value_desc("filename"), cl::cat(Category));
cl::opt<std::string> ExcludeHeaderFilter(
    "exclude-header-filter",
    cl::desc(R"(Regular expression of headers whose findings are not shown,
among those --header-filter shows (the main file's always are).)"),
    cl::cat(Category));
cl::list<std::string> RemovedArgs(
    "removed-arg",
    cl::desc(R"(Remove this argument, wherever it is exactly, from the compile
command, before --extra-arg and --extra-arg-before are added.)"),
    cl::cat(Category));
cl::opt<bool> AllowNoChecks(
    "allow-no-checks",
    cl::desc("Exit 0 without a word of error when no check is enabled"),
    cl::cat(Category));
cl::opt<bool> EnableModuleHeadersParsing(
    "enable-module-headers-parsing",
    cl::desc(R"(Parse module headers at preprocessor level in C++20 and
later, as clang-tidy's option of that name (experimental).)"),
    cl::cat(Category));
cl::opt<bool> ExperimentalCustomChecks(
    "experimental-custom-checks",
    cl::desc(R"(Enable the clang-query based CustomChecks of .clang-tidy, as
clang-tidy's option of that name (experimental).)"),
    cl::cat(Category));
cl::list<std::string>
    ExtraArgs("extra-arg",
              cl::desc("Append an argument to the compile command"),
              cl::cat(Category));
cl::list<std::string>
    ExtraArgsBefore("extra-arg-before",
                    cl::desc("Prepend an argument to the compile command"),
                    cl::cat(Category));
cl::opt<bool> Quiet("quiet", cl::desc("Print only the findings"),
                    cl::cat(Category));
cl::opt<bool> ListChecks("list-checks",
                         cl::desc("List the enabled checks and exit"),
                         cl::cat(Category));
cl::opt<bool> DumpConfig("dump-config",
                         cl::desc("Print the effective configuration and exit"),
                         cl::cat(Category));
cl::opt<bool> EnableCheckProfile("enable-check-profile",
                                 cl::desc("Print the time each check took"),
                                 cl::cat(Category));
cl::opt<bool>
    PrintCheckTable("check-table",
                    cl::desc(R"(Print the Markdown table of all checks (the
README's) and exit)"),
                    cl::cat(Category));

cl::opt<std::string> Format(
    "format",
    cl::desc(R"(Output format: text (default), json or sarif (SARIF 2.1.0 for
GitHub code scanning); see docs/output-formats.md)"),
    cl::value_desc("text|json|sarif"), cl::init("text"), cl::cat(Category));
cl::opt<std::string> Output(
    "output",
    cl::desc(R"(Write the report to this file (atomically: complete or not at
all) instead of standard output)"),
    cl::value_desc("filename"), cl::cat(Category));
cl::opt<std::string> SarifRoot(
    "sarif-root",
    cl::desc(R"(Directory that SARIF locations and fingerprints are relative to
(default: the git top-level of the current directory, else it))"),
    cl::value_desc("dir"), cl::cat(Category));
cl::opt<std::string> Baseline(
    "baseline",
    cl::desc(R"(Report only findings that this earlier --format=json report or
SARIF log does not hold)"),
    cl::value_desc("report"), cl::cat(Category));

cl::opt<std::string> Shard("shard", cl::desc(R"(Analyze only part K of N of the
translation units, the same part on every machine (a CI matrix of N jobs))"),
                           cl::value_desc("K/N"), cl::cat(Category));
cl::opt<std::string> Diff("diff",
                          cl::desc(R"(Analyze the units a change touches and
report findings on its changed lines only: the change from a git ref to the
working tree, or a unified diff on standard input with '-')"),
                          cl::value_desc("git-ref|-"), cl::cat(Category));
/// `--color=auto|always|never`. LLVM registers its own boolean `--color`
/// (WithColor) on first use of the option registry, so ours is created after
/// taking that one's name away.
cl::opt<std::string> &colorOption() {
  if (cl::Option *LLVMColor = cl::getRegisteredOptions().lookup("color"))
    LLVMColor->removeArgument();
  static cl::opt<std::string> Color(
      "color",
      cl::desc("Colour the text output: auto (when a terminal), always, never"),
      cl::value_desc("auto|always|never"), cl::init("auto"), cl::cat(Category));
  return Color;
}
// cl::Prefix: `-j2` as make and ninja take it (without it LLVM reads `-j2`
// as a group of one-letter options), `-j 2` and `-j=2` as well.
cl::opt<unsigned> Jobs("j",
                       cl::desc("Translation units analyzed at once, each in "
                                "its own process (default: one per core)"),
                       cl::value_desc("N"), cl::init(0), cl::Prefix,
                       cl::cat(Category));
cl::opt<std::string> Progress(
    "progress",
    cl::desc(R"(Progress on standard error: bar (one line redrawn, for a
terminal), plain (one line per finished unit), none, or auto (default: bar
when standard error is a terminal, plain otherwise; none with --quiet))"),
    cl::value_desc("auto|bar|plain|none"), cl::init("auto"), cl::cat(Category));
cl::opt<std::string>
    FailOn("fail-on",
           cl::desc(R"(Findings that make the exit code 1: all (default),
a tier (default, opt-in), or none. Findings of --warnings-as-errors checks
always count.)"),
           cl::value_desc("all|default|opt-in|none"), cl::init("all"),
           cl::cat(Category));
cl::opt<std::string>
    CacheDir("cache-dir", cl::desc(R"(Directory of the result cache (default:
$XDG_CACHE_HOME/libtorch-tidy, else ~/.cache/libtorch-tidy))"),
             cl::value_desc("dir"), cl::cat(Category));
cl::opt<bool> NoCache("no-cache",
                      cl::desc("Neither read nor write the result cache"),
                      cl::cat(Category));
cl::opt<std::string> RemoteCache(
    "remote-cache",
    cl::desc(R"(Servers of a result cache shared with other machines, tried in
order, separated by spaces, in ccache's remote-storage syntax:
http(s)://host/prefix[|layout=subdirs|flat|bazel][|bearer-token-env=VAR],
redis://[[user]:password@]host[:port][/db], redis+unix:/path, each with
optional |read-only; default: LIBTORCH_TIDY_REMOTE_CACHE; see
docs/ci/shared-cache.md)"),
    cl::value_desc("urls"), cl::cat(Category));
cl::opt<std::string> CacheBaseDir(
    "cache-base-dir",
    cl::desc(R"(Directory whose paths the remote cache holds relative to it, so
checkouts at different paths share entries (default: the git top-level of
the current directory, else it))"),
    cl::value_desc("dir"), cl::cat(Category));
cl::opt<std::string> CacheMaxSize(
    "cache-max-size",
    cl::desc(R"(Largest size of the cache directory, e.g. 500M or 5G (default:
5G, as ccache; 0: no limit); the least recently used entries and
precompiled prefixes go first)"),
    cl::value_desc("size"), cl::init("5G"), cl::cat(Category));
cl::opt<std::string>
    Preamble("preamble",
             cl::desc(R"(Parse units against a precompiled header of the system
includes they start with, kept in the cache: auto (default: built when two
units of a run start the same way, or a unit is analyzed again), always, or
never. The findings are the same either way)"),
             cl::value_desc("auto|always|never"), cl::init("auto"),
             cl::cat(Category));
cl::opt<bool> NoPreamble("no-preamble",
                         cl::desc("The same as --preamble=never"),
                         cl::cat(Category));
cl::opt<unsigned>
    UnitTimeout("unit-timeout",
                cl::desc("Seconds one translation unit may take before it is "
                         "stopped and reported as failed (0: no limit)"),
                cl::value_desc("seconds"), cl::init(600), cl::cat(Category));
// --- Paths left out (driver/select/Exclude.h). ---
cl::list<std::string> Exclude(
    "exclude",
    cl::desc(R"(Leave out the units, and the findings in headers, whose path
matches this glob (repeatable; '**' spans directories; relative to the
working directory; .clang-tidy: CheckOptions 'libtorch-tidy.Exclude'))"),
    cl::value_desc("glob"), cl::cat(Category));
// --- End of paths left out. ---
cl::opt<bool> SkipSystemBodies(
    "skip-system-bodies",
    cl::desc("Skip what the checks never look at: parsing function bodies "
             "in system headers, and matching inside system headers unless "
             "--system-headers is given"),
    cl::init(true), cl::Hidden, cl::cat(Category));
// --- clang-tidy's flags, with its semantics (ConfigQueries.h for the
// --- configuration queries). `--load` is LLVM's PluginLoader option, as in
// --- clang-tidy.
cl::opt<std::string> LineFilter("line-filter", cl::desc(R"(
List of files with line ranges to filter the
warnings. Can be used together with
-header-filter. The format of the list is a
JSON array of objects:
  [
    {"name":"file1.cpp","lines":[[1,3],[5,7]]},
    {"name":"file2.h"}
  ]
)"),
                                cl::init(""), cl::cat(Category));
cl::opt<bool> VerifyConfig("verify-config", cl::desc(R"(
Check the config files to ensure each check and
option is recognized.
)"),
                           cl::init(false), cl::cat(Category));
cl::opt<bool> ExplainConfig("explain-config", cl::desc(R"(
For each enabled check explains, where it is
enabled, i.e. in the default tier, command
line or a specific configuration file.
)"),
                            cl::init(false), cl::cat(Category));
cl::opt<std::string> StoreCheckProfile("store-check-profile", cl::desc(R"(
By default reports are printed in tabulated
format to stderr. When this option is passed,
these per-TU profiles are instead stored as JSON.
)"),
                                       cl::value_desc("prefix"),
                                       cl::cat(Category));
cl::opt<std::string> VfsOverlay("vfsoverlay", cl::desc(R"(
Overlay the virtual filesystem described by file
over the real file system.
)"),
                                cl::value_desc("filename"), cl::cat(Category));
// --- end of clang-tidy's flags.

std::vector<std::string> loadedPlugins() {
  std::vector<std::string> Plugins;
  for (unsigned I = 0; I < PluginLoader::getNumPlugins(); ++I)
    Plugins.push_back(PluginLoader::getPlugin(I));
  return Plugins;
}

} // namespace flags
} // namespace libtorch_tidy
