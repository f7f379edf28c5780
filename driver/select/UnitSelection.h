//===--- UnitSelection.h - Which inputs to analyze -------------*- C++ -*-===//
//
// Part of libtorch-tidy. SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//
//
// The selection stage of the pipeline in one call: `--exclude` first (the
// units left out, Exclude.h), then `--diff` (the units a change touches), then
// `--shard` (this job's part of them), so that the jobs of a CI matrix split
// the changed, not excluded units between them.
//
//===----------------------------------------------------------------------===//

#ifndef LIBTORCH_TIDY_DRIVER_SELECT_UNITSELECTION_H
#define LIBTORCH_TIDY_DRIVER_SELECT_UNITSELECTION_H

#include "select/DiffFilter.h"
#include "select/Exclude.h"
#include "select/Shard.h"
#include "clang/Tooling/CompilationDatabase.h"
#include "llvm/ADT/ArrayRef.h"
#include "llvm/Support/Error.h"
#include <optional>
#include <string>
#include <vector>

namespace libtorch_tidy::select {

struct UnitSelection {
  /// The units to analyze, in the order given.
  std::vector<std::string> Units;
  /// With `--diff`: the changed lines, to filter the findings by.
  std::optional<ChangedFiles> Changes;
  /// How many units `--exclude` left out.
  unsigned Excluded = 0;
};

/// Selects from \p Units (absolute paths). \p Exclude leaves units out,
/// \p Diff is the value of `--diff` (none: no diff mode), \p Shard that of
/// `--shard`; `git diff` runs for the repository holding the current working
/// directory. Errors are one line (exit code 2).
llvm::Expected<UnitSelection>
selectUnits(llvm::ArrayRef<std::string> Units, const ExcludeFilter &Exclude,
            const std::optional<std::string> &Diff,
            const std::optional<ShardSpec> &Shard,
            const clang::tooling::CompilationDatabase &Compilations);

} // namespace libtorch_tidy::select

#endif // LIBTORCH_TIDY_DRIVER_SELECT_UNITSELECTION_H
