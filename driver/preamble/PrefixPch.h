//===--- PrefixPch.h - Precompile a unit's include prefix -------*- C++ -*-===//
//
// Part of libtorch-tidy. SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//
//
// Builds the PCH of an include prefix (IncludePrefix.h) with the settings
// of the unit that starts with it: the unit's own compiler invocation (its
// language, target, macros and include paths), the input replaced by the
// prefix header, system-header bodies skipped exactly as the unit's parse
// skips them (SkipPolicy.h), and the templates the headers use
// instantiated in the PCH (-fpch-instantiate-templates), so that no unit
// instantiates them again.
//
// A prefix that reads a non-system file is refused: the findings and fixes
// of user code need the bytes the unit parsed (run/AnalysisAction.h), which a
// PCH does not keep.
//
//===----------------------------------------------------------------------===//

#ifndef LIBTORCH_TIDY_DRIVER_PREAMBLE_PREFIXPCH_H
#define LIBTORCH_TIDY_DRIVER_PREAMBLE_PREFIXPCH_H

#include "cache/Dependencies.h"
#include "preamble/SkipPolicy.h"
#include "llvm/ADT/StringRef.h"
#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace clang {
class CompilerInvocation;
class FileManager;
class PCHContainerOperations;
} // namespace clang

namespace libtorch_tidy::preamble {

struct PrefixPchBuild {
  bool Succeeded = false;
  /// Every file the build read, with the hash of its content.
  std::vector<cache::Dependency> Dependencies;
  /// Why it failed, in a few words.
  std::string Problem;
  /// Set when the PCH was built but could not be written (a full disk, a
  /// quota, a read-only or failing cache): the cache's fault, not the
  /// prefix's, so it is not refused for good. One line naming the file.
  std::string WriteError;
  /// The PCH's size, once it was built (written or not).
  std::uint64_t Bytes = 0;
};

/// Builds the PCH of \p HeaderPath into \p OutputPath with the settings of
/// \p Unit; \p SkipBodies says which system-header bodies are skipped
/// (none when empty).
PrefixPchBuild
buildPrefixPch(const clang::CompilerInvocation &Unit,
               llvm::StringRef HeaderPath, llvm::StringRef OutputPath,
               clang::FileManager &Files,
               std::shared_ptr<clang::PCHContainerOperations> PCHContainerOps,
               std::optional<SkipPolicy::Bodies> SkipBodies);

} // namespace libtorch_tidy::preamble

#endif // LIBTORCH_TIDY_DRIVER_PREAMBLE_PREFIXPCH_H
