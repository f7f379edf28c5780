//===--- IncludeScan.h - Which project files a unit includes ----*- C++ -*-===//
//
// Part of libtorch-tidy. SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//
//
// A quick, conservative scan of `#include` lines, without preprocessing:
// every include is followed whatever #if surrounds it, resolved the way the
// compiler would (the including file's directory for "", then -iquote, -I,
// -isystem, -idirafter of the unit's compile command, and its -include
// files). Only files inside the unit's project (its git top-level, or any
// directory but the -isystem ones when it has none) are read: a changed file
// is always a project file, and LibTorch's thousands of headers stay unread.
//
//===----------------------------------------------------------------------===//

#ifndef LIBTORCH_TIDY_DRIVER_SELECT_INCLUDESCAN_H
#define LIBTORCH_TIDY_DRIVER_SELECT_INCLUDESCAN_H

#include "clang/Tooling/CompilationDatabase.h"
#include "llvm/ADT/StringMap.h"
#include "llvm/ADT/StringRef.h"
#include <set>
#include <string>
#include <vector>

namespace libtorch_tidy::select {

/// One `#include` line.
struct IncludeDirective {
  std::string Spelling;
  bool Angled = false;
  /// `#include MACRO`: cannot be resolved without preprocessing.
  bool Computed = false;
};

/// The include directives of \p Source text, in order.
std::vector<IncludeDirective> scanIncludeDirectives(llvm::StringRef Source);

/// What one unit reaches.
struct UnitIncludes {
  /// Absolute paths of the project files reached, the unit itself included.
  std::set<std::string> Files;
  /// True when some reached file has an include the scan cannot resolve.
  bool HasComputedInclude = false;
};

/// Scans units, sharing the directives read from each file between them.
class IncludeScanner {
public:
  UnitIncludes scan(const clang::tooling::CompileCommand &Command,
                    llvm::StringRef AbsoluteUnit);

private:
  const std::vector<IncludeDirective> &directivesOf(llvm::StringRef File);
  llvm::StringMap<std::vector<IncludeDirective>> Directives;
};

} // namespace libtorch_tidy::select

#endif // LIBTORCH_TIDY_DRIVER_SELECT_INCLUDESCAN_H
