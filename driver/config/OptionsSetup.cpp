//===--- OptionsSetup.cpp - The command line ------------------------------===//
//
// Part of libtorch-tidy. SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

#include "config/OptionsSetup.h"
#include "Catalog.h"
#include "cache/PreambleStore.h"
#include "clang-compat/ClangCompat.h"
#include "clang-tidy/ClangTidy.h"
#include "config/CommandLineFlags.h"
#include "report/ReportStage.h"
#include "select/Exclude.h"
#include "worker/WorkerProtocol.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/StringSet.h"
#include "llvm/Config/llvm-config.h"
#include "llvm/Support/CommandLine.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/JSON.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"
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
  libtorch-tidy remote-cache-keygen <file> | --verify-key <file>
      Write a new key that signs the remote cache's entries to <file> (a new
      file, readable by its owner only) and print the verify key readers
      name; with --verify-key, print that of an existing key (see
      docs/ci/shared-cache.md).
  libtorch-tidy lsp [--compile-commands-dir=<dir>] [--debounce-ms=<n>]
                    [--jobs=<n>] [--analysis-timeout=<seconds>]
      A language server (LSP over standard input and output) to run beside
      clangd: findings as diagnostics, fix-its as code actions (see
      docs/editors/lsp.md).
)";

void printVersion(raw_ostream &OS) {
  OS << "libtorch-tidy " LIBTORCH_TIDY_VERSION " (LLVM " LLVM_VERSION_STRING
        ")\n";
}

template <typename T> std::optional<T> ifGiven(const cl::opt<T> &Option) {
  if (Option.getNumOccurrences() == 0)
    return std::nullopt;
  return Option.getValue();
}

/// Parses \p Arguments (argv, without the worker's flags) into the flags;
/// on bad usage, LLVM's message made one line.
Error parseFlags(std::vector<const char *> Arguments) {
  using namespace flags;
  // Ours takes the name `--color` from LLVM's own, before the parse.
  colorOption();
  // LLVM's `--load`, shown in --help as clang-tidy shows it.
  if (cl::Option *Load = cl::getRegisteredOptions().lookup("load"))
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
    Parsed =
        cl::ParseCommandLineOptions(static_cast<int>(Arguments.size()),
                                    Arguments.data(), Overview, &MessageStream);
    std::string Printed = Captured.take();
    // On a command line that parses, what LLVM printed is for the user as
    // it is (a --load plugin that could not be opened); else it joins the
    // one-line error.
    if (Parsed)
      errs() << Printed;
    else
      MessageStream << Printed;
  }
  if (Parsed)
    return Error::success();
  // LLVM prints "<tool>: Unknown command line argument '-x'.  Try: ..."
  // and "<tool>: Did you mean '-y'?" on two lines: make them one.
  std::string Program = sys::path::filename(Arguments.front()).str() + ": ";
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

Error notAChoice(StringRef Flag, StringRef Value, StringRef Choices) {
  return createStringError(
      inconvertibleErrorCode(), "--%s=%s is not a choice; use %s",
      Flag.str().c_str(), Value.str().c_str(), Choices.str().c_str());
}

/// The flags whose values are checked before any is used.
Error checkChoices() {
  using namespace flags;
  const cl::opt<std::string> &Color = colorOption();
  if (Color != "auto" && Color != "always" && Color != "never")
    return notAChoice("color", Color, "auto, always or never");
  if (Progress != "auto" && Progress != "bar" && Progress != "plain" &&
      Progress != "none")
    return notAChoice("progress", Progress, "auto, bar, plain or none");
  if (Summaries != "cached" && Summaries != "current" && Summaries != "off")
    return notAChoice("summaries", Summaries, "cached, current or off");
  if (Preamble != "auto" && Preamble != "always" && Preamble != "never")
    return notAChoice("preamble", Preamble, "auto, always or never");
  if (FailOn != "all" && FailOn != "none" && FailOn != "default" &&
      FailOn != "opt-in")
    return notAChoice("fail-on", FailOn, "all, default, opt-in or none");
  if (!RemovedArgs.empty() && !clang::compat::HasRemovedArgs)
    return createStringError(inconvertibleErrorCode(),
                             "--removed-arg is clang-tidy 22's; this "
                             "libtorch-tidy is built against an older LLVM");
  if (!Config.empty() && !ConfigFile.empty())
    return createStringError(inconvertibleErrorCode(),
                             "--config and --config-file are mutually "
                             "exclusive; pass one of them");
  if (Expected<report::OutputFormat> Parsed = report::parseOutputFormat(Format);
      !Parsed)
    return Parsed.takeError();
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
  return Error::success();
}

/// What the units stage is told (units/UnitOptions.h).
void fillUnitOptions(UnitOptions &Options) {
  using namespace flags;
  Options.BuildPath = BuildPath;
  Options.Sources.assign(SourcePaths.begin(), SourcePaths.end());
  Options.ExtraArgs.assign(ExtraArgs.begin(), ExtraArgs.end());
  Options.ExtraArgsBefore.assign(ExtraArgsBefore.begin(),
                                 ExtraArgsBefore.end());
  Options.Quiet = Quiet;
  Options.ListChecks = ListChecks;
  Options.DumpConfig = DumpConfig;
}

/// The servers of the remote cache, from `--remote-cache` or else the
/// environment; none for a worker of the CLI, which neither reads nor
/// writes the remote cache (its parent does) and so does not read the token
/// again. A worker of the language server may look a unit up.
Expected<std::vector<cache::RemoteSpec>>
remoteCaches(const worker::WorkerRequest &Worker) {
  using namespace flags;
  // An empty --remote-cache= turns off the environment's servers.
  std::optional<std::string> Remote =
      RemoteCache.getNumOccurrences()
          ? std::optional<std::string>(RemoteCache.getValue())
          : sys::Process::GetEnv("LIBTORCH_TIDY_REMOTE_CACHE");
  if (!Remote || (Worker.isWorker() && !Worker.RemoteLookup))
    return std::vector<cache::RemoteSpec>();
  Expected<std::vector<cache::RemoteSpec>> Specs =
      cache::parseRemoteSpecs(*Remote);
  if (!Specs && !RemoteCache.getNumOccurrences())
    return createStringError(inconvertibleErrorCode(),
                             "%s (from LIBTORCH_TIDY_REMOTE_CACHE)",
                             toString(Specs.takeError()).c_str());
  return Specs;
}

/// What the analysis stage is told (run/SchedulerOptions.h), the worker's
/// request already in \p Options.
Error fillSchedulerOptions(run::SchedulerOptions &Options) {
  using namespace flags;
  std::optional<std::uint64_t> MaxSize = cache::parseSize(CacheMaxSize);
  if (!MaxSize)
    return createStringError(inconvertibleErrorCode(),
                             "--cache-max-size=%s is not a size; use a number "
                             "of bytes or one with K, M, G or T (e.g. 5G)",
                             CacheMaxSize.c_str());
  Expected<std::vector<cache::RemoteSpec>> Remote =
      remoteCaches(Options.Worker);
  if (!Remote)
    return Remote.takeError();
  Options.RemoteCaches = std::move(*Remote);
  Options.CacheMaxSize = *MaxSize;
  Options.Jobs = Jobs;
  Options.Progress = Progress;
  Options.UnitTimeout = UnitTimeout;
  Options.Summaries = Summaries;
  Options.Fix = Fix;
  Options.FixErrors = FixErrors;
  Options.FixNotes = FixNotes;
  Options.ExportFixes = ExportFixes;
  Options.EnableCheckProfile = EnableCheckProfile;
  if (!StoreCheckProfile.empty()) {
    SmallString<256> Prefix(StoreCheckProfile);
    sys::fs::make_absolute(Prefix);
    Options.StoreCheckProfile = std::string(Prefix);
  }
  Options.EnableModuleHeadersParsing = EnableModuleHeadersParsing;
  Options.ExperimentalCustomChecks = ExperimentalCustomChecks;
  Options.VfsOverlay = VfsOverlay;
  Options.SkipSystemBodies = SkipSystemBodies;
  Options.CacheDir = CacheDir;
  Options.NoCache = NoCache;
  Options.CacheBaseDir = CacheBaseDir;
  Options.Preamble = NoPreamble ? std::string("never") : Preamble.getValue();
  // The result cache's key holds neither the line filter, nor the plugins'
  // code, nor what an overlay maps: a replay could be stale. The
  // precompiled prefixes stay: they hold no finding, and one that read a
  // file the overlay maps is not used (preamble/PrecompiledPrefixes.h).
  const cl::Option *Load = cl::getRegisteredOptions().lookup("load");
  Options.NoReplay = !LineFilter.empty() || !VfsOverlay.empty() ||
                     (Load && Load->getNumOccurrences());
  return Error::success();
}

/// What only the run's own stages read: the configuration, the selection
/// of units, the report (tool/CheckRun.h).
Error fillToolOptions(ToolOptions &Options) {
  using namespace flags;
  Options.Checks = ifGiven(Checks);
  Options.WarningsAsErrors = ifGiven(WarningsAsErrors);
  Options.HeaderFilter = ifGiven(HeaderFilter);
  Options.ExcludeHeaderFilter = ifGiven(ExcludeHeaderFilter);
  Options.RemovedArgs.assign(RemovedArgs.begin(), RemovedArgs.end());
  Options.AllowNoChecks = AllowNoChecks;
  Options.SystemHeaders = ifGiven(SystemHeaders);
  Options.UseColor = ifGiven(UseColor);
  Options.Config = Config;
  Options.ConfigFile = ConfigFile;
  Options.FormatStyle = FormatStyle;
  Options.ExportSummaries = ExportSummaries;
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
  const cl::opt<std::string> &Color = colorOption();
  if (Color != "auto")
    Options.Color = Color == "always";
  else if (UseColor.getNumOccurrences())
    Options.Color = UseColor;
  Options.FailOn = FailOn;
  // --- Paths left out. ---
  Options.Exclude.assign(Exclude.begin(), Exclude.end());
  // --- End of paths left out. ---
  Options.LineFilter = LineFilter;
  Options.VerifyConfig = VerifyConfig;
  Options.ExplainConfig = ExplainConfig;
  Options.LoadedPlugins = flags::loadedPlugins();
  return Error::success();
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
  // A worker's request is the protocol's (worker/WorkerProtocol.h): its
  // flags are taken out before the parser sees the tool's own.
  std::vector<std::string> Arguments(Argv + 1, Argv + Argc);
  Expected<worker::WorkerRequest> Request =
      worker::takeWorkerRequest(Arguments);
  if (!Request)
    return Request.takeError();
  std::vector<const char *> ToolArgv = {Argv[0]};
  for (const std::string &Argument : Arguments)
    ToolArgv.push_back(Argument.c_str());
  if (Error E = parseFlags(std::move(ToolArgv)))
    return std::move(E);
  if (Error E = checkChoices())
    return std::move(E);

  fillUnitOptions(Options);
  Options.Worker = std::move(*Request);
  Options.NoticesPrinted = Options.Worker.isWorker();
  if (Error E = fillSchedulerOptions(Options))
    return std::move(E);
  if (Error E = fillToolOptions(Options))
    return std::move(E);
  return Fixed;
}
} // namespace libtorch_tidy
