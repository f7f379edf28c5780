//===--- Exclude.h - --exclude: paths left out of the run -------*- C++ -*-===//
//
// Part of libtorch-tidy. SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//
//
// `--exclude=<glob>` (repeatable) and the `libtorch-tidy.Exclude` key of a
// `.clang-tidy`'s CheckOptions name paths the run leaves out: a unit whose
// file matches is not analyzed, and a finding located in a matching file (a
// header of third-party or generated code) is dropped and counted like
// clang-tidy's findings in non-user code.
//
// A glob is matched against whole path components: `*`, `?` and `[...]` stay
// within one component, `**` spans any number of them (none included). A
// glob that matches a directory matches everything below it, so
// `third_party`, `third_party/` and `third_party/**` mean the same. Relative
// globs are anchored at a base directory: for `--exclude`, the working
// directory (as a path typed on the command line would be); for the
// CheckOptions key, the directory of the `.clang-tidy` that holds it (of the
// `--config-file`; the working directory for `--config`). An absolute glob is
// matched against absolute paths. A path is tried as it is spelled and with
// its symbolic links resolved.
//
// Which `.clang-tidy` applies is clang-tidy's rule: the configuration of the
// unit's main file, for the unit and for every header it reports on. The key
// holds globs separated by `;` or `,` (or newlines).
//
//===----------------------------------------------------------------------===//

#ifndef LIBTORCH_TIDY_DRIVER_SELECT_EXCLUDE_H
#define LIBTORCH_TIDY_DRIVER_SELECT_EXCLUDE_H

#include "clang-tidy/ClangTidyOptions.h"
#include "model/Findings.h"
#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/StringRef.h"
#include <map>
#include <string>
#include <vector>

namespace libtorch_tidy::select {

/// The CheckOptions key of a `.clang-tidy` that holds exclusion globs.
inline constexpr llvm::StringLiteral ExcludeOptionKey = "libtorch-tidy.Exclude";

/// One exclusion glob, made absolute.
class ExcludeGlob {
public:
  /// \p Glob, anchored at \p BaseDir (absolute) when it is relative.
  ExcludeGlob(llvm::StringRef Glob, llvm::StringRef BaseDir);

  /// Whether the glob matches \p AbsolutePath or a directory that holds it,
  /// as spelled or with symbolic links resolved.
  bool matches(llvm::StringRef AbsolutePath) const;

private:
  /// The glob's components below `/`, once anchored at the base as given and
  /// once at the base with its symbolic links resolved (when that differs).
  std::vector<std::vector<std::string>> Anchored;
};

/// The exclusions of a run, per unit (the unit's own configuration decides).
class ExcludeFilter {
public:
  /// Compiles \p CommandLineGlobs (anchored at \p WorkingDir) and the
  /// `libtorch-tidy.Exclude` globs that \p Provider gives each of \p Units.
  /// \p ConfigFile is `--config-file` (empty if none): the base of the globs
  /// its configuration holds.
  static ExcludeFilter create(llvm::ArrayRef<std::string> CommandLineGlobs,
                              llvm::StringRef WorkingDir,
                              llvm::StringRef ConfigFile,
                              clang::tidy::ClangTidyOptionsProvider &Provider,
                              llvm::ArrayRef<std::string> Units);

  /// Whether the configuration of \p Unit (one given to create()) excludes
  /// \p File (absolute); \p File == \p Unit asks about the unit itself.
  bool excludes(llvm::StringRef Unit, llvm::StringRef File) const;

  /// Whether any glob applies at all.
  bool empty() const;

private:
  std::vector<ExcludeGlob> CommandLine;
  std::map<std::string, std::vector<ExcludeGlob>, std::less<>> PerUnit;
};

/// Splits the value of the CheckOptions key into globs.
std::vector<std::string> splitExcludeList(llvm::StringRef Value);

/// Removes from \p Units those \p Filter excludes, and returns how many.
unsigned removeExcludedUnits(std::vector<std::string> &Units,
                             const ExcludeFilter &Filter);

/// Removes from \p Unit the findings located in files that \p Filter
/// excludes for it, counting each in the unit's non-user-code suppressions.
/// Compiler errors are kept. Returns how many findings were removed. Per
/// unit, so that the text output can stream with exclusions too.
unsigned dropExcludedFindings(model::TranslationUnitResult &Unit,
                              const ExcludeFilter &Filter);

} // namespace libtorch_tidy::select

#endif // LIBTORCH_TIDY_DRIVER_SELECT_EXCLUDE_H
