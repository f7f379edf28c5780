//===--- Workspace.h - Variants of the program under test -------*- C++ -*-===//
//
// Part of libtorch-tidy. SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//
//
// The original build directory and its scratch twin: which sources make the
// target, a copy of the source tree, a compilation database pointing into the
// copy (for applying the fix-its there), and a CMake configuration of the
// copy with the original's cache settings.
//
//===----------------------------------------------------------------------===//

#ifndef LIBTORCH_TIDY_RUNTIME_VERIFY_HARNESS_WORKSPACE_H
#define LIBTORCH_TIDY_RUNTIME_VERIFY_HARNESS_WORKSPACE_H

#include <string>
#include <vector>

namespace libtorch_tidy::verify {

struct CMakeCache {
  std::string HomeDirectory; ///< CMAKE_HOME_DIRECTORY
  std::string Generator;     ///< CMAKE_GENERATOR
  std::string TorchDir;      ///< Torch_DIR: the LibTorch the build links
  std::string BuildType;     ///< CMAKE_BUILD_TYPE
  /// `set(... CACHE ...)` lines for the user-settable entries, for `cmake -C`.
  std::string InitialCacheScript;
};

/// Reads <BuildDir>/CMakeCache.txt; false with Error when it is missing.
bool readCMakeCache(const std::string &BuildDir, CMakeCache &Out,
                    std::string &Error);

/// The source files of the compilation database in BuildDir that belong to
/// Target (CMake's CMakeFiles/<target>.dir/ object path), or, with an empty
/// Target, every file under SourceRoot.
bool targetSources(const std::string &BuildDir, const std::string &Target,
                   const std::string &SourceRoot, std::vector<std::string> &Out,
                   std::string &Error);

/// Copies SourceRoot to Dest, leaving out BuildDir (when inside) and .git.
/// Paths are taken as spelled, never through links, so everything lands
/// under Dest. A symbolic link that stays inside the tree is copied as a
/// link; one that leaves it is copied as what it points at when that is a
/// file (the fix-its applied to the copy must never write through it to
/// the user's file), and as a link when a directory (an include directory
/// elsewhere); a dangling one is left out.
bool copySourceTree(const std::string &SourceRoot, const std::string &BuildDir,
                    const std::string &Dest, std::string &Error);

/// Writes DestDir/compile_commands.json: BuildDir's, restricted to Files,
/// with every path under BuildDir moved to NewBuildDir and every path under
/// SourceRoot moved to NewSourceRoot.
bool writeMovedCompileCommands(const std::string &BuildDir,
                               const std::vector<std::string> &Files,
                               const std::string &SourceRoot,
                               const std::string &NewSourceRoot,
                               const std::string &NewBuildDir,
                               const std::string &DestDir, std::string &Error);

/// Replaces a leading From directory in Path by To (whole path components).
std::string movePath(const std::string &Path, const std::string &From,
                     const std::string &To);

} // namespace libtorch_tidy::verify

#endif
