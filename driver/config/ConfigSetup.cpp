//===--- ConfigSetup.cpp - The check configuration ------------------------===//
//
// Part of libtorch-tidy. SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//
//
// The configuration half of OptionsSetup.h: `--config`, `--config-file` and
// `.clang-tidy` discovery as clang-tidy does them, with the `libtorch`
// default tier, and the checks of discovered configurations
// (OptionsSetup.cpp parses the command line).
//
//===----------------------------------------------------------------------===//

#include "Catalog.h"
#include "clang-compat/ClangCompat.h"
#include "clang-tidy/ClangTidy.h"
#include "config/OptionsSetup.h"
#include "select/Exclude.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/StringSet.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/Process.h"
#include "llvm/Support/SourceMgr.h"
#include "llvm/Support/raw_ostream.h"

using namespace llvm;
using clang::tidy::ClangTidyGlobalOptions;
using clang::tidy::ClangTidyOptions;

namespace libtorch_tidy {
namespace {

/// Parses configuration text; the error names \p Origin and the first place
/// the YAML parser stopped, on one line (instead of letting it print).
Expected<ClangTidyOptions> parseConfigText(StringRef Text, StringRef Origin) {
  std::string Where;
  ErrorOr<ClangTidyOptions> Parsed = clang::tidy::parseConfigurationWithDiags(
      MemoryBufferRef(Text, Origin), [&](const SMDiagnostic &Diag) {
        if (Where.empty())
          Where = "line " + std::to_string(Diag.getLineNo()) + ", column " +
                  std::to_string(Diag.getColumnNo() + 1) + ": " +
                  Diag.getMessage().str();
      });
  if (!Parsed)
    return createStringError(
        inconvertibleErrorCode(),
        "invalid configuration in '%s' (%s); fix the YAML (see "
        "'libtorch-tidy --dump-config' for the format)",
        Origin.str().c_str(),
        Where.empty() ? Parsed.getError().message().c_str() : Where.c_str());
  return std::move(*Parsed);
}

/// The checks clang-tidy enables when nothing else says (its
/// ClangTidyMain.cpp; they differ by major).
const char *const ClangTidyDefaultChecks = clang::compat::DefaultChecks;

/// Our default tier only where nothing names checks: where `--checks`,
/// `--config` or a `.clang-tidy` has `Checks`, the defaults under them are
/// clang-tidy's, so that the globs mean what they mean to clang-tidy
/// (`--checks=bugprone-*` runs clang-tidy's defaults and bugprone).
class DefaultTierProvider : public clang::tidy::ClangTidyOptionsProvider {
public:
  explicit DefaultTierProvider(
      std::unique_ptr<clang::tidy::ClangTidyOptionsProvider> Inner)
      : Inner(std::move(Inner)) {}

  const ClangTidyGlobalOptions &getGlobalOptions() override {
    return Inner->getGlobalOptions();
  }

  std::vector<OptionsSource> getRawOptions(StringRef FileName) override {
    std::vector<OptionsSource> Raw = Inner->getRawOptions(FileName);
    // The first source is the defaults ("clang-tidy binary").
    if (Raw.empty() || Raw.front().second != OptionsSourceTypeDefaultBinary)
      return Raw;
    const bool Named =
        llvm::any_of(llvm::drop_begin(Raw), [](const OptionsSource &Source) {
          return Source.first.Checks.has_value();
        });
    if (Named)
      Raw.front().first.Checks = ClangTidyDefaultChecks;
    else
      Raw.front().second = "libtorch-tidy default tier";
    return Raw;
  }

private:
  std::unique_ptr<clang::tidy::ClangTidyOptionsProvider> Inner;
};

} // namespace

Expected<std::unique_ptr<clang::tidy::ClangTidyOptionsProvider>>
createOptionsProvider(const ToolOptions &Options,
                      IntrusiveRefCntPtr<vfs::FileSystem> FS) {
  ClangTidyGlobalOptions GlobalOptions;
  // Validated by parseCommandLine.
  if (!Options.LineFilter.empty())
    (void)clang::tidy::parseLineFilter(Options.LineFilter, GlobalOptions);
  ClangTidyOptions DefaultOptions;
  DefaultOptions.Checks = clang::tidy::libtorch::defaultTierChecksGlob();
  DefaultOptions.WarningsAsErrors = "";
  // The default of the clang-tidy built with: every non-system header on
  // 22, the main file only on 19.
  DefaultOptions.HeaderFilterRegex = clang::compat::DefaultHeaderFilterRegex;
  DefaultOptions.SystemHeaders = false;
  DefaultOptions.FormatStyle = Options.FormatStyle;
  DefaultOptions.User = sys::Process::GetEnv("USER");

  ClangTidyOptions OverrideOptions;
  OverrideOptions.Checks = Options.Checks;
  OverrideOptions.WarningsAsErrors = Options.WarningsAsErrors;
  OverrideOptions.HeaderFilterRegex = Options.HeaderFilter;
  OverrideOptions.ExcludeHeaderFilterRegex = Options.ExcludeHeaderFilter;
  if (!Options.RemovedArgs.empty())
    clang::compat::setRemovedArgs(OverrideOptions, Options.RemovedArgs);
  OverrideOptions.SystemHeaders = Options.SystemHeaders;
  OverrideOptions.UseColor = Options.UseColor;
  if (!Options.ExtraArgs.empty())
    OverrideOptions.ExtraArgs = Options.ExtraArgs;
  if (!Options.ExtraArgsBefore.empty())
    OverrideOptions.ExtraArgsBefore = Options.ExtraArgsBefore;
  if (!Options.Worker.SummaryFile.empty())
    OverrideOptions.CheckOptions[clang::tidy::libtorch::SummaryFileOption] =
        ClangTidyOptions::ClangTidyValue(Options.Worker.SummaryFile);

  auto FromText = [&](StringRef Text, StringRef Origin)
      -> Expected<std::unique_ptr<clang::tidy::ClangTidyOptionsProvider>> {
    Expected<ClangTidyOptions> Parsed = parseConfigText(Text, Origin);
    if (!Parsed)
      return Parsed.takeError();
    return std::make_unique<DefaultTierProvider>(
        std::make_unique<clang::tidy::ConfigOptionsProvider>(
            std::move(GlobalOptions),
            ClangTidyOptions::getDefaults().merge(DefaultOptions, 0),
            std::move(*Parsed), std::move(OverrideOptions), std::move(FS)));
  };

  if (!Options.Config.empty())
    return FromText(Options.Config, "--config");
  if (!Options.ConfigFile.empty()) {
    ErrorOr<std::unique_ptr<MemoryBuffer>> Text =
        MemoryBuffer::getFile(Options.ConfigFile);
    if (!Text)
      return createStringError(inconvertibleErrorCode(),
                               "cannot read --config-file '%s': %s; pass an "
                               "existing .clang-tidy file",
                               Options.ConfigFile.c_str(),
                               Text.getError().message().c_str());
    // Keep the buffer alive while parsing: the text is copied out by then.
    std::string Contents = (*Text)->getBuffer().str();
    return FromText(Contents, Options.ConfigFile);
  }
  return std::make_unique<DefaultTierProvider>(
      std::make_unique<clang::tidy::FileOptionsProvider>(
          std::move(GlobalOptions), std::move(DefaultOptions),
          std::move(OverrideOptions), std::move(FS)));
}

namespace {

/// Calls \p Visit with the path and the parsed content of every
/// `.clang-tidy` that discovery would use for \p Files, each once; stops at
/// the first malformed one and returns its error.
Error forEachDiscoveredConfig(
    ArrayRef<std::string> Files,
    function_ref<void(StringRef, const ClangTidyOptions &)> Visit) {
  StringSet<> Seen;
  for (const std::string &File : Files) {
    for (StringRef Dir = sys::path::parent_path(File); !Dir.empty();
         Dir = sys::path::parent_path(Dir)) {
      SmallString<256> Config(Dir);
      sys::path::append(Config, ".clang-tidy");
      if (!Seen.insert(Config).second)
        break; // this directory and its parents were read already
      ErrorOr<std::unique_ptr<MemoryBuffer>> Text = MemoryBuffer::getFile(
          Config, /*IsText=*/true, /*RequiresNullTerminator=*/false);
      // One that is there but cannot be read would be skipped by
      // clang-tidy with a "Can't read" line per lookup, and the run would
      // go on with another configuration than the project's.
      if (!Text && Text.getError() != std::errc::no_such_file_or_directory &&
          Text.getError() != std::errc::not_a_directory)
        return createStringError(Text.getError(),
                                 "'%s' cannot be read (%s); make it readable, "
                                 "or pass --config-file",
                                 Config.c_str(),
                                 Text.getError().message().c_str());
      if (!Text)
        continue;
      Expected<ClangTidyOptions> Parsed =
          parseConfigText((*Text)->getBuffer(), Config);
      if (!Parsed)
        return Parsed.takeError();
      Visit(Config, *Parsed);
    }
  }
  return Error::success();
}

/// clang-tidy's choice of a "did you mean" (ClangTidyMain.cpp's `closest`):
/// the nearest by case-insensitive edit distance, if under 5 edits.
StringRef closestKey(StringRef Key, const StringSet<> &Valid) {
  unsigned MaxEdit = 5;
  StringRef Closest;
  for (const auto &Item : Valid.keys()) {
    unsigned Distance = Key.edit_distance_insensitive(
        Item, /*AllowReplacements=*/true, MaxEdit);
    if (Distance < MaxEdit) {
      Closest = Item;
      MaxEdit = Distance;
    }
  }
  return Closest;
}

} // namespace

Error checkDiscoveredConfigs(const ToolOptions &Options,
                             ArrayRef<std::string> Files) {
  // --config and --config-file replace discovery.
  if (!Options.Config.empty() || !Options.ConfigFile.empty())
    return Error::success();
  return forEachDiscoveredConfig(Files,
                                 [](StringRef, const ClangTidyOptions &) {});
}

unsigned warnUnknownCheckOptions(const ToolOptions &Options,
                                 ArrayRef<std::string> Files,
                                 raw_ostream &Errs) {
  // Only the options of our own checks: other modules' keys and global
  // options are clang-tidy's to judge (its --verify-config).
  const StringRef OurPrefix = "libtorch-";
  std::vector<std::pair<std::string, std::string>> Unchecked; // key, origin
  StringSet<> Listed;
  auto Collect = [&](StringRef Origin, const ClangTidyOptions &Config) {
    for (const auto &Entry : Config.CheckOptions) {
      StringRef Key = Entry.getKey();
      if (Key.starts_with(OurPrefix) && Key != select::ExcludeOptionKey &&
          Listed.insert(Key).second)
        Unchecked.emplace_back(Key.str(), Origin.str());
    }
  };
  if (!Options.Config.empty()) {
    if (Expected<ClangTidyOptions> Parsed =
            parseConfigText(Options.Config, "--config"))
      Collect("--config", *Parsed);
    else
      consumeError(Parsed.takeError()); // reported by createOptionsProvider
  } else if (!Options.ConfigFile.empty()) {
    if (ErrorOr<std::unique_ptr<MemoryBuffer>> Text =
            MemoryBuffer::getFile(Options.ConfigFile, /*IsText=*/true)) {
      if (Expected<ClangTidyOptions> Parsed =
              parseConfigText((*Text)->getBuffer(), Options.ConfigFile))
        Collect(Options.ConfigFile, *Parsed);
      else
        consumeError(Parsed.takeError());
    }
  } else if (Error E = forEachDiscoveredConfig(Files, Collect)) {
    consumeError(std::move(E)); // reported by checkDiscoveredConfigs
  }
  if (Unchecked.empty())
    return 0;

  // The options each check reads, as --verify-config lists them (kept in a
  // variable: a range-for over a member of a temporary would dangle).
  const clang::compat::ChecksAndOptionKeys All =
      clang::compat::allChecksAndOptionKeys();
  StringSet<> Valid;
  for (const auto &Entry : All.Options.keys())
    if (Entry.starts_with(OurPrefix))
      Valid.insert(Entry);
  Valid.insert(select::ExcludeOptionKey);
  unsigned Warned = 0;
  for (const auto &[Key, Origin] : Unchecked) {
    if (Valid.contains(Key))
      continue;
    Errs << "libtorch-tidy: warning: unknown check option '" << Key << "' in '"
         << Origin << "'";
    StringRef Closest = closestKey(Key, Valid);
    if (!Closest.empty())
      Errs << "; did you mean '" << Closest << "'?";
    else
      Errs << "; it is ignored (see the check's page in docs/checks/)";
    Errs << "\n";
    ++Warned;
  }
  return Warned;
}

} // namespace libtorch_tidy
