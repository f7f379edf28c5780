//===--- Bundle.h - verify's prepared bundles -------------------*- C++ -*-===//
//
// Part of libtorch-tidy. SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//
//
// `verify --prepare=<dir>` analyzes and fixes on a machine that has the
// analyzer and writes everything a machine without it needs to build and
// measure both variants (`--run-prepared=<dir>`):
//
//   <dir>/bundle.json   the recipe: target or build command, the run command
//                       (paths as {build}/... and {source}/...), the findings
//   <dir>/original/     the source tree as written
//   <dir>/fixed/        the same tree with the fix-its applied
//   <dir>/tools/        the harness's and the probe's sources, the file I/O
//                       library they use, and the fmt and nlohmann/json
//                       headers with their licenses: a standalone CMake
//                       project (cmake -S <dir>/tools/runtime-verify)
//
// Paths of the preparing machine appear nowhere in it.
//
//===----------------------------------------------------------------------===//

#ifndef LIBTORCH_TIDY_RUNTIME_VERIFY_HARNESS_BUNDLE_H
#define LIBTORCH_TIDY_RUNTIME_VERIFY_HARNESS_BUNDLE_H

#include "Findings.h"

#include <cstdint>
#include <string>
#include <vector>

namespace libtorch_tidy::verify {

/// What bundle.json says.
struct BundleRecipe {
  std::string Target;   ///< CMake target; empty with BuildCmd
  std::string BuildCmd; ///< other build systems: run in the source root
  /// The CMake source directory relative to the source root ("" = the root).
  std::string CMakeSubdir;
  /// With BuildCmd: the build directory relative to the source root.
  std::string BuildSubdir;
  std::string BuildType; ///< the original build's CMAKE_BUILD_TYPE
  /// The run command; arguments naming a file of the build directory or of
  /// the source tree start with {build} or {source}.
  std::vector<std::string> Command;
  /// File paths relative to the source root.
  std::vector<Finding> Findings;
  std::string PreparedWithLibTorch; ///< version the analysis saw, if known
};

/// Where the sources that go into <dir>/tools come from.
struct KitSources {
  std::string Root;        ///< holds runtime-verify/ and support/io/
  std::string FmtInclude;  ///< holds fmt/format.h
  std::string JsonInclude; ///< holds nlohmann/json.hpp
};

/// "{build}/train" for an argument under BuildDir, "{source}/x" under
/// SourceRoot, else the argument as given.
std::string toPlaceholder(const std::string &Arg, const std::string &BuildDir,
                          const std::string &SourceRoot);
/// The inverse, for one variant's directories.
std::string fromPlaceholder(const std::string &Arg, const std::string &BuildDir,
                            const std::string &SourceRoot);

/// Writes the bundle into Dir, which must not exist yet: it is assembled in
/// a sibling temporary directory and renamed, so a failure or a signal
/// leaves no partial bundle. False with a one-line Error naming the path.
bool writeBundle(const std::string &Dir, const BundleRecipe &Recipe,
                 const std::string &OriginalRoot, const std::string &FixedRoot,
                 const std::string &BuildDir, const KitSources &Kit,
                 std::string &Error);

/// Reads <Dir>/bundle.json and checks that both trees and the tools are
/// there. False with a one-line Error naming the file.
bool readBundle(const std::string &Dir, BundleRecipe &Out, std::string &Error);

/// The bytes of every regular file under Dir.
uint64_t directorySize(const std::string &Dir);

/// The format bundle.json declares; readBundle refuses others.
constexpr int BundleFormat = 1;

} // namespace libtorch_tidy::verify

#endif
