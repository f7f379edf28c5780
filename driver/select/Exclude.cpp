//===--- Exclude.cpp - --exclude: paths left out of the run ---------------===//
//
// Part of libtorch-tidy. SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

#include "select/Exclude.h"
#include "clang-compat/ClangCompat.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/SmallString.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Path.h"

#include <fnmatch.h>

using namespace llvm;

namespace libtorch_tidy::select {
namespace {

/// The components of an absolute path below `/`.
std::vector<std::string> componentsOf(StringRef AbsolutePath) {
  std::vector<std::string> Parts;
  for (auto It = sys::path::begin(AbsolutePath, sys::path::Style::posix),
            End = sys::path::end(AbsolutePath);
       It != End; ++It)
    if (*It != "/")
      Parts.push_back(It->str());
  return Parts;
}

/// \p Glob (components of an absolute glob) matches \p Path, or a directory
/// above it: the glob may end before the path does.
bool matchComponents(ArrayRef<std::string> Glob, ArrayRef<std::string> Path) {
  if (Glob.empty())
    return true;
  if (Glob.front() == "**") {
    for (size_t Skip = 0; Skip <= Path.size(); ++Skip)
      if (matchComponents(Glob.drop_front(), Path.drop_front(Skip)))
        return true;
    return false;
  }
  if (Path.empty())
    return false;
  // Within one component `*` and `?` cannot cross a `/`: there is none.
  if (fnmatch(Glob.front().c_str(), Path.front().c_str(), 0) != 0)
    return false;
  return matchComponents(Glob.drop_front(), Path.drop_front());
}

std::string posixNormalized(StringRef Path) {
  SmallString<256> Result(Path);
  sys::path::remove_dots(Result, /*remove_dot_dot=*/true,
                         sys::path::Style::posix);
  return std::string(Result);
}

/// The directory that relative globs of \p Source (a configuration's origin
/// as clang-tidy names it) are anchored at.
std::string baseOfSource(StringRef Source, StringRef WorkingDir,
                         StringRef ConfigFile) {
  // A discovered `.clang-tidy` is named by its absolute path; `--config` and
  // our `--config-file` (read as `--config` text) by a description.
  if (sys::path::is_absolute(Source) && sys::fs::is_regular_file(Source))
    return sys::path::parent_path(Source).str();
  if (Source == clang::tidy::ClangTidyOptionsProvider::
                    OptionsSourceTypeConfigCommandLineOption &&
      !ConfigFile.empty()) {
    SmallString<256> Absolute(ConfigFile);
    clang::compat::makeAbsolute(WorkingDir, Absolute);
    return posixNormalized(sys::path::parent_path(Absolute));
  }
  return WorkingDir.str();
}

} // namespace

ExcludeGlob::ExcludeGlob(StringRef Glob, StringRef BaseDir) {
  Glob = Glob.trim();
  while (Glob.consume_front("./"))
    ;
  std::vector<std::string> Bases;
  if (sys::path::is_absolute(Glob)) {
    Bases.push_back("/");
  } else {
    Bases.push_back(BaseDir.str());
    SmallString<256> Real;
    if (!sys::fs::real_path(BaseDir, Real) && Real != BaseDir)
      Bases.push_back(std::string(Real));
  }
  for (const std::string &Base : Bases) {
    SmallString<256> Absolute(Base);
    if (!sys::path::is_absolute(Glob))
      sys::path::append(Absolute, sys::path::Style::posix, Glob);
    else
      Absolute = Glob;
    Anchored.push_back(componentsOf(posixNormalized(Absolute)));
  }
}

bool ExcludeGlob::matches(StringRef AbsolutePath) const {
  std::vector<std::string> Spelled =
      componentsOf(posixNormalized(AbsolutePath));
  for (const std::vector<std::string> &Glob : Anchored)
    if (matchComponents(Glob, Spelled))
      return true;
  SmallString<256> Real;
  if (sys::fs::real_path(AbsolutePath, Real) || Real == AbsolutePath)
    return false;
  std::vector<std::string> Resolved = componentsOf(Real);
  for (const std::vector<std::string> &Glob : Anchored)
    if (matchComponents(Glob, Resolved))
      return true;
  return false;
}

std::vector<std::string> splitExcludeList(StringRef Value) {
  SmallVector<StringRef, 8> Parts;
  Value.split(Parts, ';');
  std::vector<std::string> Globs;
  for (StringRef Part : Parts) {
    SmallVector<StringRef, 8> Pieces;
    Part.split(Pieces, ',');
    for (StringRef Piece : Pieces) {
      SmallVector<StringRef, 8> Lines;
      Piece.split(Lines, '\n');
      for (StringRef Line : Lines)
        if (!Line.trim().empty())
          Globs.push_back(Line.trim().str());
    }
  }
  return Globs;
}

ExcludeFilter
ExcludeFilter::create(ArrayRef<std::string> CommandLineGlobs,
                      StringRef WorkingDir, StringRef ConfigFile,
                      clang::tidy::ClangTidyOptionsProvider &Provider,
                      ArrayRef<std::string> Units) {
  ExcludeFilter Filter;
  for (const std::string &Glob : CommandLineGlobs)
    if (!StringRef(Glob).trim().empty())
      Filter.CommandLine.emplace_back(Glob, WorkingDir);
  for (const std::string &Unit : Units) {
    if (Filter.PerUnit.count(Unit))
      continue;
    std::vector<ExcludeGlob> &Globs = Filter.PerUnit[Unit];
    // As CheckOptions merge: the last configuration that sets the key (the
    // nearest `.clang-tidy`, or the command line's) gives its value.
    std::vector<clang::tidy::ClangTidyOptionsProvider::OptionsSource> Sources =
        Provider.getRawOptions(Unit);
    for (auto It = Sources.rbegin(); It != Sources.rend(); ++It) {
      auto Value = It->first.CheckOptions.find(ExcludeOptionKey);
      if (Value == It->first.CheckOptions.end())
        continue;
      std::string Base = baseOfSource(It->second, WorkingDir, ConfigFile);
      for (const std::string &Glob : splitExcludeList(Value->second.Value))
        Globs.emplace_back(Glob, Base);
      break;
    }
  }
  return Filter;
}

bool ExcludeFilter::excludes(StringRef Unit, StringRef File) const {
  for (const ExcludeGlob &Glob : CommandLine)
    if (Glob.matches(File))
      return true;
  auto Globs = PerUnit.find(Unit);
  if (Globs == PerUnit.end())
    return false;
  return llvm::any_of(Globs->second, [&](const ExcludeGlob &Glob) {
    return Glob.matches(File);
  });
}

bool ExcludeFilter::empty() const {
  return CommandLine.empty() && llvm::all_of(PerUnit, [](const auto &Entry) {
           return Entry.second.empty();
         });
}

unsigned removeExcludedUnits(std::vector<std::string> &Units,
                             const ExcludeFilter &Filter) {
  const size_t Before = Units.size();
  llvm::erase_if(Units, [&](const std::string &Unit) {
    return Filter.excludes(Unit, Unit);
  });
  return Before - Units.size();
}

unsigned dropExcludedFindings(model::TranslationUnitResult &Unit,
                              const ExcludeFilter &Filter) {
  if (Filter.empty())
    return 0;
  const size_t Before = Unit.Findings.size();
  llvm::erase_if(Unit.Findings, [&](const model::Finding &F) {
    StringRef File =
        F.Where.AbsoluteFile.empty() ? F.Where.File : F.Where.AbsoluteFile;
    return !File.empty() && sys::path::is_absolute(File) &&
           Filter.excludes(Unit.MainFile, File);
  });
  const unsigned Removed = Before - Unit.Findings.size();
  Unit.Suppressed.NonUserCode += Removed;
  return Removed;
}

} // namespace libtorch_tidy::select
