//===--- ConfigQueries.cpp - --explain-config, --verify-config ------------===//
//
// Part of libtorch-tidy. SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

#include "config/ConfigQueries.h"
#include "clang-compat/ClangCompat.h"
#include "clang-tidy/ClangTidy.h"
#include "clang-tidy/GlobList.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/SmallString.h"
#include "llvm/ADT/StringSet.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Regex.h"
#include "llvm/Support/WithColor.h"
#include "llvm/Support/raw_ostream.h"

using namespace llvm;
using clang::tidy::ClangTidyOptions;
using clang::tidy::ClangTidyOptionsProvider;

namespace libtorch_tidy {
namespace {

/// What --verify-config appends to each of its warnings, as clang-tidy.
constexpr llvm::StringLiteral VerifyConfigWarningEnd = " [-verify-config]\n";

/// The known name nearest to \p Value (fewer than 5 edits, case ignored),
/// or empty: clang-tidy's "did you mean".
StringRef closest(StringRef Value, const StringSet<> &Allowed) {
  unsigned MaxEdit = 5U;
  StringRef Closest;
  for (StringRef Item : Allowed.keys()) {
    unsigned Distance = Value.edit_distance_insensitive(Item, true, MaxEdit);
    if (Distance < MaxEdit) {
      Closest = Item;
      MaxEdit = Distance;
    }
  }
  return Closest;
}

/// A check glob as clang-tidy matches it: '*' is any text, the rest literal.
Regex globRegex(StringRef Glob) {
  SmallString<128> Text("^");
  const StringRef MetaChars("()^$|*+?.[]\\{}");
  for (char C : Glob) {
    if (C == '*')
      Text.push_back('.');
    else if (MetaChars.contains(C))
      Text.push_back('\\');
    Text.push_back(C);
  }
  Text.push_back('$');
  return Regex(Text);
}

/// Warns about each item of \p CheckGlob that names no known check: a glob
/// that matches none, or a name with the nearest known one. Compiler
/// diagnostics (clang-diagnostic-*) are not checks and are not verified.
bool verifyChecks(const StringSet<> &AllChecks, StringRef CheckGlob,
                  StringRef Source) {
  bool AnyInvalid = false;
  SmallVector<StringRef, 16> Items;
  CheckGlob.split(Items, ',');
  for (StringRef Item : Items) {
    Item = Item.trim();
    if (Item.empty())
      continue;
    Item.consume_front("-");
    if (Item.starts_with("clang-diagnostic"))
      continue;
    if (Item.contains('*')) {
      Regex Glob = globRegex(Item);
      if (llvm::none_of(AllChecks.keys(),
                        [&](StringRef Check) { return Glob.match(Check); })) {
        AnyInvalid = true;
        WithColor::warning(errs(), Source)
            << "check glob '" << Item << "' doesn't match any known check"
            << VerifyConfigWarningEnd;
      }
      continue;
    }
    if (AllChecks.contains(Item))
      continue;
    AnyInvalid = true;
    raw_ostream &Output = WithColor::warning(errs(), Source)
                          << "unknown check '" << Item << '\'';
    StringRef Closest = closest(Item, AllChecks);
    if (!Closest.empty())
      Output << "; did you mean '" << Closest << '\'';
    Output << VerifyConfigWarningEnd;
  }
  return AnyInvalid;
}

/// Warns about each CheckOptions key that no check reads.
bool verifyOptions(const StringSet<> &AllOptions,
                   const ClangTidyOptions::OptionMap &Options,
                   StringRef Source) {
  bool AnyInvalid = false;
  for (StringRef Key : Options.keys()) {
    if (AllOptions.contains(Key))
      continue;
    AnyInvalid = true;
    raw_ostream &Output = WithColor::warning(errs(), Source)
                          << "unknown check option '" << Key << '\'';
    StringRef Closest = closest(Key, AllOptions);
    if (!Closest.empty())
      Output << "; did you mean '" << Closest << '\'';
    Output << VerifyConfigWarningEnd;
  }
  return AnyInvalid;
}

} // namespace

std::optional<int> runConfigQuery(const ToolOptions &Options,
                                  ClangTidyOptionsProvider &Provider) {
  if (!Options.ExplainConfig && !Options.VerifyConfig)
    return std::nullopt;
  // As clang-tidy: the configuration of the first input, else of a file
  // "dummy" in the working directory.
  StringRef FileName = Options.Sources.empty() ? StringRef("dummy")
                                               : StringRef(Options.Sources[0]);
  SmallString<256> FilePath(FileName);
  sys::fs::make_absolute(FilePath);

  if (Options.ExplainConfig) {
    std::vector<ClangTidyOptionsProvider::OptionsSource> RawOptions =
        Provider.getRawOptions(FilePath);
    std::vector<std::string> Enabled =
        clang::compat::enabledCheckNames(Provider.getOptions(FilePath));
    for (const std::string &Check : Enabled) {
      for (const auto &[Opts, Source] : llvm::reverse(RawOptions)) {
        if (Opts.Checks &&
            clang::tidy::GlobList(*Opts.Checks).contains(Check)) {
          outs() << "'" << Check << "' is enabled in the " << Source << ".\n";
          break;
        }
      }
    }
    return 0;
  }

  std::vector<ClangTidyOptionsProvider::OptionsSource> RawOptions =
      Provider.getRawOptions(FileName);
  const clang::compat::ChecksAndOptionKeys Valid =
      clang::compat::allChecksAndOptionKeys();
  bool AnyInvalid = false;
  for (const auto &[Opts, Source] : RawOptions) {
    if (Opts.Checks)
      AnyInvalid |= verifyChecks(Valid.Checks, *Opts.Checks, Source);
    AnyInvalid |= verifyOptions(Valid.Options, Opts.CheckOptions, Source);
  }
  if (AnyInvalid)
    return 1;
  outs() << "No config errors detected.\n";
  return 0;
}

Error applyVfsOverlay(const ToolOptions &Options,
                      vfs::OverlayFileSystem &BaseFS) {
  if (Options.VfsOverlay.empty())
    return Error::success();
  ErrorOr<std::unique_ptr<MemoryBuffer>> Buffer =
      BaseFS.getBufferForFile(Options.VfsOverlay);
  if (!Buffer)
    return createStringError(
        inconvertibleErrorCode(),
        "can't load virtual filesystem overlay file '%s': %s; pass an "
        "existing --vfsoverlay file",
        Options.VfsOverlay.c_str(), Buffer.getError().message().c_str());
  // The YAML parser's own messages would come on several lines: the error
  // below says which file is wrong.
  IntrusiveRefCntPtr<vfs::FileSystem> Overlay = vfs::getVFSFromYAML(
      std::move(*Buffer), [](const SMDiagnostic &, void *) {},
      Options.VfsOverlay);
  if (!Overlay)
    return createStringError(
        inconvertibleErrorCode(),
        "invalid virtual filesystem overlay file '%s'; it must be the YAML "
        "of clang's -ivfsoverlay",
        Options.VfsOverlay.c_str());
  BaseFS.pushOverlay(std::move(Overlay));
  return Error::success();
}

} // namespace libtorch_tidy
