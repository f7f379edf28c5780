//===--- OptionsSetup.cpp - The command line ------------------------------===//
//
// Part of libtorch-tidy. SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

#include "config/OptionsSetup.h"
#include "Catalog.h"
#include "cache/PreambleStore.h"
#include "clang-tidy/ClangTidy.h"
#include "report/ReportStage.h"
#include "select/Exclude.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/StringSet.h"
#include "llvm/Config/llvm-config.h"
#include "llvm/Support/CommandLine.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/JSON.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/PluginLoader.h"
#include "llvm/Support/Process.h"
#include "llvm/Support/SourceMgr.h"
#include "llvm/Support/raw_ostream.h"
#include <cstdio>
#include <unistd.h>

using namespace llvm;
using clang::tidy::ClangTidyGlobalOptions;
using clang::tidy::ClangTidyOptions;

namespace libtorch_tidy {
namespace {

/// Standard error redirected to a temporary file while it lives.
class CapturedStderr {
public:
  CapturedStderr() {
    fflush(stderr);
    errs().flush();
    SmallString<128> Path;
    if (sys::fs::createTemporaryFile("libtorch-tidy-args", "txt", File, Path))
      return;
    sys::fs::remove(Path); // the descriptor keeps it until closed
    Saved = ::dup(2);
    if (Saved < 0 || ::dup2(File, 2) < 0) {
      ::close(File);
      File = -1;
    }
  }
  ~CapturedStderr() { restore(); }
  /// Restores standard error and returns what was written to it.
  std::string take() {
    errs().flush();
    std::string Text;
    if (File >= 0) {
      ::lseek(File, 0, SEEK_SET);
      char Buffer[4096];
      ssize_t N;
      while ((N = ::read(File, Buffer, sizeof Buffer)) > 0)
        Text.append(Buffer, N);
    }
    restore();
    return Text;
  }

private:
  void restore() {
    if (File < 0)
      return;
    ::dup2(Saved, 2);
    ::close(Saved);
    ::close(File);
    File = -1;
  }
  int File = -1;
  int Saved = -1;
};

// The option objects of one process; the tool parses its command line once.
cl::OptionCategory Category("libtorch-tidy options");

const char Overview[] = R"(
libtorch-tidy finds code in LibTorch training programs that leaves a GPU
idle. Flags follow clang-tidy where they overlap; without --checks and
without a .clang-tidy that names checks, the default tier runs.

Exit codes: 0 no findings, 1 findings, 2 usage/configuration/I-O error,
3 an input could not be parsed (the others are still analyzed).

Subcommands:
  libtorch-tidy merge <report>... -o <file>
      Join the JSON reports or SARIF logs of a CI matrix's shards into one
      (see docs/output-formats.md).
  libtorch-tidy verify -p <build dir> (--target <target> | --build-cmd <cmd>)
                       [options] -- <run command> [args...]
      Build and run a program as written and with the fix-its applied, with
      a probe inside the process, and show what each finding costs (steps/s,
      host syncs and copies per step, GPU utilization); 'libtorch-tidy
      verify --help' lists its options (see docs/verify.md).
  libtorch-tidy lsp [--compile-commands-dir=<dir>] [--debounce-ms=<n>]
                    [--jobs=<n>] [--analysis-timeout=<seconds>]
      A language server (LSP over standard input and output) to run beside
      clangd: findings as diagnostics, fix-its as code actions (see
      docs/editors/lsp.md).
)";

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
shown (the main file's always are).)"),
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
// --- clang-tidy 16 flags, with its semantics (ConfigQueries.h for the
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
// --- end of the clang-tidy 16 flags.

cl::opt<std::string> WorkerUnit("worker-unit", cl::Hidden, cl::cat(Category));
cl::opt<std::string> WorkerOutput("worker-output", cl::Hidden,
                                  cl::cat(Category));
cl::opt<bool> WorkerPreambleShared("worker-preamble-shared", cl::Hidden,
                                   cl::cat(Category));
cl::opt<preamble::PrefixRole> WorkerPreamble(
    "worker-preamble", cl::Hidden, cl::init(preamble::PrefixRole::Analyze),
    cl::values(clEnumValN(preamble::PrefixRole::Analyze, "analyze", ""),
               clEnumValN(preamble::PrefixRole::ReuseOnly, "reuse-only", ""),
               clEnumValN(preamble::PrefixRole::BuildOnly, "build-only", ""),
               clEnumValN(preamble::PrefixRole::BuildDetached, "build-detached",
                          "")),
    cl::cat(Category));
cl::opt<std::string> WorkerPreambleNotice("worker-preamble-notice", cl::Hidden,
                                          cl::cat(Category));
cl::opt<bool> WorkerRemoteLookup("worker-remote-lookup", cl::Hidden,
                                 cl::cat(Category));

void printVersion(raw_ostream &OS) {
  OS << "libtorch-tidy " LIBTORCH_TIDY_VERSION " (LLVM " LLVM_VERSION_STRING
        ")\n";
}

template <typename T> std::optional<T> ifGiven(const cl::opt<T> &Option) {
  if (Option.getNumOccurrences() == 0)
    return std::nullopt;
  return Option.getValue();
}

} // namespace

Expected<std::unique_ptr<clang::tooling::CompilationDatabase>>
parseCommandLine(int Argc, const char **Argv, ToolOptions &Options) {
  std::string FixedError;
  std::unique_ptr<clang::tooling::CompilationDatabase> Fixed =
      clang::tooling::FixedCompilationDatabase::loadFromCommandLine(Argc, Argv,
                                                                    FixedError);
  if (!Fixed && !FixedError.empty())
    return createStringError(inconvertibleErrorCode(), FixedError);

  cl::opt<std::string> &Color = colorOption();
  // LLVM's `--load`, shown in --help as clang-tidy shows it.
  cl::Option *Load = cl::getRegisteredOptions().lookup("load");
  if (Load)
    Load->addCategory(Category);
  cl::HideUnrelatedOptions(Category);
  cl::SetVersionPrinter(printVersion);
  std::string Message;
  raw_string_ostream MessageStream(Message);
  // LLVM prints a bad option value ("for the -j option: 'x' value invalid")
  // straight to stderr, not to the stream it is given: catch it there too,
  // so that the error is the one line below.
  bool Parsed;
  {
    CapturedStderr Captured;
    Parsed = cl::ParseCommandLineOptions(Argc, Argv, Overview, &MessageStream);
    std::string Printed = Captured.take();
    // On a command line that parses, what LLVM printed is for the user as
    // it is (a --load plugin that could not be opened); else it joins the
    // one-line error.
    if (Parsed)
      errs() << Printed;
    else
      MessageStream << Printed;
  }
  if (!Parsed) {
    // LLVM prints "<tool>: Unknown command line argument '-x'.  Try: ..."
    // and "<tool>: Did you mean '-y'?" on two lines: make them one.
    std::string Program = sys::path::filename(Argv[0]).str() + ": ";
    SmallVector<StringRef, 4> Lines;
    StringRef(MessageStream.str()).trim().split(Lines, '\n');
    std::string Text;
    for (StringRef Line : Lines) {
      Line = Line.trim();
      Line.consume_front(Program);
      Line = Line.split("  Try: ").first.trim();
      if (Line.empty())
        continue;
      Text += (Text.empty() ? "" : " ") + Line.str();
    }
    return createStringError(inconvertibleErrorCode(),
                             "%s; see 'libtorch-tidy --help'", Text.c_str());
  }
  if (Color != "auto" && Color != "always" && Color != "never")
    return createStringError(inconvertibleErrorCode(),
                             "--color=%s is not a choice; use auto, always "
                             "or never",
                             Color.c_str());
  if (Progress != "auto" && Progress != "bar" && Progress != "plain" &&
      Progress != "none")
    return createStringError(inconvertibleErrorCode(),
                             "--progress=%s is not a choice; use auto, bar, "
                             "plain or none",
                             Progress.c_str());
  if (Preamble != "auto" && Preamble != "always" && Preamble != "never")
    return createStringError(inconvertibleErrorCode(),
                             "--preamble=%s is not a choice; use auto, "
                             "always or never",
                             Preamble.c_str());
  std::optional<std::uint64_t> MaxSize = cache::parseSize(CacheMaxSize);
  if (!MaxSize)
    return createStringError(inconvertibleErrorCode(),
                             "--cache-max-size=%s is not a size; use a number "
                             "of bytes or one with K, M, G or T (e.g. 5G)",
                             CacheMaxSize.c_str());
  if (FailOn != "all" && FailOn != "none" && FailOn != "default" &&
      FailOn != "opt-in")
    return createStringError(inconvertibleErrorCode(),
                             "--fail-on=%s is not a choice; use all, "
                             "default, opt-in or none",
                             FailOn.c_str());
  if (!Config.empty() && !ConfigFile.empty())
    return createStringError(inconvertibleErrorCode(),
                             "--config and --config-file are mutually "
                             "exclusive; pass one of them");
  if (Expected<report::OutputFormat> Parsed = report::parseOutputFormat(Format);
      !Parsed)
    return Parsed.takeError();

  Options.BuildPath = BuildPath;
  Options.Sources.assign(SourcePaths.begin(), SourcePaths.end());
  Options.Checks = ifGiven(Checks);
  Options.WarningsAsErrors = ifGiven(WarningsAsErrors);
  Options.HeaderFilter = ifGiven(HeaderFilter);
  Options.SystemHeaders = ifGiven(SystemHeaders);
  Options.UseColor = ifGiven(UseColor);
  Options.Config = Config;
  Options.ConfigFile = ConfigFile;
  Options.FormatStyle = FormatStyle;
  Options.ExportFixes = ExportFixes;
  Options.ExtraArgs.assign(ExtraArgs.begin(), ExtraArgs.end());
  Options.ExtraArgsBefore.assign(ExtraArgsBefore.begin(),
                                 ExtraArgsBefore.end());
  Options.Fix = Fix;
  Options.FixErrors = FixErrors;
  Options.FixNotes = FixNotes;
  Options.Quiet = Quiet;
  Options.ListChecks = ListChecks;
  Options.DumpConfig = DumpConfig;
  Options.EnableCheckProfile = EnableCheckProfile;
  Options.PrintCheckTable = PrintCheckTable;
  Options.Format = Format;
  Options.Output = Output;
  Options.SarifRoot = SarifRoot;
  Options.Baseline = Baseline;
  if (Shard.getNumOccurrences()) {
    Expected<select::ShardSpec> Spec = select::parseShardSpec(Shard);
    if (!Spec)
      return Spec.takeError();
    Options.Shard = *Spec;
  }
  if (Diff.getNumOccurrences()) {
    if (Diff.empty())
      return createStringError(inconvertibleErrorCode(),
                               "invalid --diff=''; pass a git ref (e.g. "
                               "--diff=origin/main) or '-' for a diff on "
                               "standard input");
    Options.Diff = Diff;
  }
  if (Color != "auto")
    Options.Color = Color == "always";
  else if (UseColor.getNumOccurrences())
    Options.Color = UseColor;
  Options.Jobs = Jobs;
  Options.Progress = Progress;
  Options.FailOn = FailOn;
  Options.CacheDir = CacheDir;
  Options.NoCache = NoCache;
  Options.CacheMaxSize = *MaxSize;
  // An empty --remote-cache= turns off the environment's servers.
  std::optional<std::string> Remote =
      RemoteCache.getNumOccurrences()
          ? std::optional<std::string>(RemoteCache.getValue())
          : sys::Process::GetEnv("LIBTORCH_TIDY_REMOTE_CACHE");
  // A worker of the CLI neither reads nor writes the remote cache (the
  // parent does), so it does not read the token again; one of the language
  // server may read it.
  if (Remote && (WorkerUnit.empty() || WorkerRemoteLookup)) {
    Expected<std::vector<cache::RemoteSpec>> Specs =
        cache::parseRemoteSpecs(*Remote);
    if (!Specs && !RemoteCache.getNumOccurrences())
      return createStringError(inconvertibleErrorCode(),
                               "%s (from LIBTORCH_TIDY_REMOTE_CACHE)",
                               toString(Specs.takeError()).c_str());
    if (!Specs)
      return Specs.takeError();
    Options.RemoteCaches = std::move(*Specs);
  }
  Options.CacheBaseDir = CacheBaseDir;
  Options.Preamble = NoPreamble ? std::string("never") : Preamble.getValue();
  Options.WorkerPreambleShared = WorkerPreambleShared;
  Options.WorkerPreambleNotice = WorkerPreambleNotice;
  Options.WorkerPrefixRole = WorkerPreamble;
  Options.WorkerRemoteLookup = WorkerRemoteLookup;
  Options.UnitTimeout = UnitTimeout;
  // --- Paths left out. ---
  Options.Exclude.assign(Exclude.begin(), Exclude.end());
  // --- End of paths left out. ---
  Options.SkipSystemBodies = SkipSystemBodies;
  Options.WorkerUnit = WorkerUnit;
  Options.WorkerOutput = WorkerOutput;

  // --- clang-tidy 16 flags. ---
  if (!LineFilter.empty()) {
    // JSON first: clang-tidy's YAML reader would print its parser's error
    // over several lines.
    std::string Problem;
    if (Expected<json::Value> Json = json::parse(LineFilter); !Json) {
      Problem = toString(Json.takeError());
    } else {
      ClangTidyGlobalOptions Parsed;
      if (std::error_code EC = clang::tidy::parseLineFilter(LineFilter, Parsed))
        Problem = EC.message();
    }
    if (!Problem.empty())
      return createStringError(
          inconvertibleErrorCode(),
          "invalid --line-filter (%s); pass a JSON array such as "
          "'[{\"name\":\"file1.cpp\",\"lines\":[[1,3],[5,7]]}]'",
          Problem.c_str());
  }
  Options.LineFilter = LineFilter;
  Options.VerifyConfig = VerifyConfig;
  Options.ExplainConfig = ExplainConfig;
  if (!StoreCheckProfile.empty()) {
    SmallString<256> Prefix(StoreCheckProfile);
    sys::fs::make_absolute(Prefix);
    Options.StoreCheckProfile = std::string(Prefix);
  }
  for (unsigned I = 0; I < PluginLoader::getNumPlugins(); ++I)
    Options.LoadedPlugins.push_back(PluginLoader::getPlugin(I));
  Options.VfsOverlay = VfsOverlay;
  // The result cache's key holds neither the line filter, nor the plugins'
  // code, nor what an overlay maps: a replay could be stale. The
  // precompiled prefixes stay: they hold no finding, and one that read a
  // file the overlay maps is not used (preamble/PrecompiledPrefixes.h).
  if (!Options.LineFilter.empty() || !Options.VfsOverlay.empty() ||
      (Load && Load->getNumOccurrences()))
    Options.NoReplay = true;
  return Fixed;
}

} // namespace libtorch_tidy
