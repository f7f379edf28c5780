//===--- UnitContexts.cpp - The clang-tidy contexts of a unit -------------===//
//
// Part of libtorch-tidy. SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

#include "run/UnitContexts.h"
#include "clang-compat/ClangCompat.h"
#include "preamble/SkipPolicy.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/SmallString.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/MemoryBuffer.h"
#include <nlohmann/json.hpp>

using namespace clang;
using namespace clang::tidy;
using namespace clang::tooling;
using namespace llvm;

namespace libtorch_tidy::run {
namespace {

/// \p Inner's options with \p Checks added after every source: the checks
/// of one of a unit's two contexts (SkippingConsumer).
class ChecksRestriction : public ClangTidyOptionsProvider {
public:
  ChecksRestriction(std::shared_ptr<ClangTidyOptionsProvider> Inner,
                    std::string Checks)
      : Inner(std::move(Inner)), Checks(std::move(Checks)) {}
  const ClangTidyGlobalOptions &getGlobalOptions() override {
    return Inner->getGlobalOptions();
  }
  std::vector<OptionsSource> getRawOptions(StringRef FileName) override {
    std::vector<OptionsSource> Raw = Inner->getRawOptions(FileName);
    if (!Checks.empty()) {
      ClangTidyOptions Restriction;
      Restriction.Checks = Checks;
      Raw.emplace_back(std::move(Restriction), "libtorch-tidy");
    }
    return Raw;
  }

private:
  std::shared_ptr<ClangTidyOptionsProvider> Inner;
  std::string Checks;
};

} // namespace

SmallVector<ClangTidyContext *, 2> UnitContexts::all() const {
  SmallVector<ClangTidyContext *, 2> All{Main.get()};
  if (WholeUnit)
    All.push_back(WholeUnit.get());
  return All;
}

UnitContexts
unitContexts(const std::shared_ptr<ClangTidyOptionsProvider> &Shared,
             StringRef File, const AnalysisSettings &Settings) {
  UnitContexts Contexts;
  // The checks that need the whole unit match in a context of their own
  // when other checks run too (SkippingConsumer).
  const ClangTidyOptions ForFile = Shared->getOptions(File);
  Contexts.Enabled = clang::compat::enabledCheckNames(
      ForFile, Settings.ExperimentalCustomChecks);
  std::string WholeUnitChecks, OtherChecks;
  size_t WholeUnitCount = 0;
  if (Settings.SkipSystemBodies && !ForFile.SystemHeaders.value_or(false))
    for (const std::string &Check : Contexts.Enabled)
      if (preamble::needsWholeUnit(Check)) {
        WholeUnitChecks += "," + Check;
        OtherChecks += ",-" + Check;
        ++WholeUnitCount;
      }
  const bool Split =
      WholeUnitCount > 0 && WholeUnitCount < Contexts.Enabled.size();
  const clang::compat::TidyContextFlags Flags{
      Settings.EnableModuleHeadersParsing, Settings.ExperimentalCustomChecks};
  Contexts.Main = clang::compat::newTidyContext(
      std::make_unique<ChecksRestriction>(Shared, Split ? OtherChecks : ""),
      Flags);
  if (Split)
    Contexts.WholeUnit = clang::compat::newTidyContext(
        std::make_unique<ChecksRestriction>(Shared, "-*" + WholeUnitChecks),
        Flags);
  return Contexts;
}

ArgumentsAdjuster clangTidyArgumentsAdjuster(ClangTidyContext &Context) {
  return [&Context](const CommandLineArguments &Args, StringRef Filename) {
    ClangTidyOptions Opts = Context.getOptionsForFile(Filename);
    CommandLineArguments Adjusted = Args;
    // --removed-arg first, as clang-tidy: what --extra-arg adds stays.
    if (const std::vector<std::string> *Removed =
            clang::compat::removedArgsOf(Opts))
      llvm::erase_if(Adjusted, [&](const std::string &Arg) {
        return llvm::is_contained(*Removed, Arg);
      });
    if (Opts.ExtraArgsBefore) {
      auto I = Adjusted.begin();
      if (I != Adjusted.end() && !StringRef(*I).starts_with("-"))
        ++I; // Skip compiler binary name, if it is there.
      Adjusted.insert(I, Opts.ExtraArgsBefore->begin(),
                      Opts.ExtraArgsBefore->end());
    }
    if (Opts.ExtraArgs)
      Adjusted.insert(Adjusted.end(), Opts.ExtraArgs->begin(),
                      Opts.ExtraArgs->end());
    return Adjusted;
  };
}

std::string enableProfiling(const UnitContexts &Contexts,
                            const AnalysisSettings &Settings) {
  if (!Settings.EnableCheckProfile)
    return {};
  SmallString<128> ProfileDir;
  std::string Prefix = Settings.StoreCheckProfile;
  if (Prefix.empty() &&
      !sys::fs::createUniqueDirectory("libtorch-tidy-profile", ProfileDir))
    Prefix = std::string(ProfileDir);
  for (ClangTidyContext *C : Contexts.all()) {
    if (!Prefix.empty())
      C->setProfileStoragePrefix(Prefix);
    C->setEnableProfiling(true);
  }
  return std::string(ProfileDir);
}

void collectProfile(StringRef Dir, std::map<std::string, double> &Profile) {
  std::error_code EC;
  for (sys::fs::directory_iterator It(Dir, EC), End; !EC && It != End;
       It.increment(EC)) {
    ErrorOr<std::unique_ptr<MemoryBuffer>> Text =
        MemoryBuffer::getFile(It->path());
    if (Text) {
      nlohmann::json J = nlohmann::json::parse((*Text)->getBuffer().begin(),
                                               (*Text)->getBuffer().end(),
                                               nullptr, /*exceptions=*/false);
      if (J.is_object() && J.contains("profile") && J["profile"].is_object())
        for (const auto &[Key, Value] : J["profile"].items()) {
          // "time.clang-tidy.<check>.wall"
          StringRef Name(Key);
          if (!Name.consume_front("time.clang-tidy.") ||
              !Name.consume_back(".wall") || !Value.is_number())
            continue;
          Profile[Name.str()] += Value.get<double>();
        }
    }
    sys::fs::remove(It->path());
  }
  sys::fs::remove(Dir);
}

void addSuppressedCounts(const UnitContexts &Contexts,
                         model::TranslationUnitResult &Unit) {
  for (ClangTidyContext *C : Contexts.all()) {
    const ClangTidyStats &Stats = C->getStats();
    Unit.Suppressed.NoLint += Stats.ErrorsIgnoredNOLINT;
    Unit.Suppressed.NonUserCode += Stats.ErrorsIgnoredNonUserCode;
    Unit.Suppressed.LineFilter += Stats.ErrorsIgnoredLineFilter;
    Unit.Suppressed.CheckFilter += Stats.ErrorsIgnoredCheckFilter;
  }
}

} // namespace libtorch_tidy::run
