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

} // namespace

Expected<std::unique_ptr<clang::tooling::CompilationDatabase>>
parseCommandLine(int Argc, const char **Argv, ToolOptions &Options) {
  using namespace flags;
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
  if (Summaries != "cached" && Summaries != "current" && Summaries != "off")
    return createStringError(inconvertibleErrorCode(),
                             "--summaries=%s is not a choice; use cached, "
                             "current or off",
                             Summaries.c_str());
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

  Options.BuildPath = BuildPath;
  Options.Sources.assign(SourcePaths.begin(), SourcePaths.end());
  Options.Checks = ifGiven(Checks);
  Options.WarningsAsErrors = ifGiven(WarningsAsErrors);
  Options.HeaderFilter = ifGiven(HeaderFilter);
  Options.ExcludeHeaderFilter = ifGiven(ExcludeHeaderFilter);
  Options.RemovedArgs.assign(RemovedArgs.begin(), RemovedArgs.end());
  Options.AllowNoChecks = AllowNoChecks;
  Options.EnableModuleHeadersParsing = EnableModuleHeadersParsing;
  Options.ExperimentalCustomChecks = ExperimentalCustomChecks;
  Options.SystemHeaders = ifGiven(SystemHeaders);
  Options.UseColor = ifGiven(UseColor);
  Options.Config = Config;
  Options.ConfigFile = ConfigFile;
  Options.FormatStyle = FormatStyle;
  Options.ExportFixes = ExportFixes;
  Options.ExportSummaries = ExportSummaries;
  Options.Summaries = Summaries;
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
  Options.WorkerSummaryFile = WorkerSummaryFile;
  Options.WorkerDatabaseSummaries = WorkerDatabaseSummaries;
  Options.UnitTimeout = UnitTimeout;
  // --- Paths left out. ---
  Options.Exclude.assign(Exclude.begin(), Exclude.end());
  // --- End of paths left out. ---
  Options.SkipSystemBodies = SkipSystemBodies;
  Options.WorkerUnit = WorkerUnit;
  Options.WorkerOutput = WorkerOutput;

  // --- clang-tidy's flags. ---
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
  Options.LoadedPlugins = flags::loadedPlugins();
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
