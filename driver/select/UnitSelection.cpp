//===--- UnitSelection.cpp - Which inputs to analyze ----------------------===//
//
// Part of libtorch-tidy. SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

#include "select/UnitSelection.h"
#include "llvm/ADT/SmallString.h"
#include "llvm/Support/FileSystem.h"

using namespace llvm;

namespace libtorch_tidy::select {

Expected<UnitSelection>
selectUnits(ArrayRef<std::string> Units, const ExcludeFilter &Exclude,
            const std::optional<std::string> &Diff,
            const std::optional<ShardSpec> &Shard,
            const clang::tooling::CompilationDatabase &Compilations) {
  UnitSelection Selection;
  Selection.Units.assign(Units.begin(), Units.end());
  Selection.Excluded = removeExcludedUnits(Selection.Units, Exclude);
  if (Diff) {
    SmallString<256> WorkingDir;
    if (std::error_code EC = sys::fs::current_path(WorkingDir))
      return createStringError(EC,
                               "--diff: cannot read the working directory "
                               "(%s); run from your checkout",
                               EC.message().c_str());
    Expected<ChangedFiles> Changes = readChanges(*Diff, WorkingDir);
    if (!Changes)
      return Changes.takeError();
    Selection.Units =
        selectChangedUnits(Selection.Units, *Changes, Compilations);
    Selection.Changes = std::move(*Changes);
  }
  if (Shard)
    Selection.Units = selectShard(Selection.Units, *Shard);
  return Selection;
}

} // namespace libtorch_tidy::select
