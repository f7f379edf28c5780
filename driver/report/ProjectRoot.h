//===--- ProjectRoot.h - Paths relative to the project root -----*- C++ -*-===//
//
// Part of libtorch-tidy. SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//
//
// Fingerprints and SARIF locations name files relative to the project root
// (the git top-level by default), so that two checkouts of the same commit at
// different paths report the same identities and GitHub code scanning can map
// results onto the repository.
//
//===----------------------------------------------------------------------===//

#ifndef LIBTORCH_TIDY_DRIVER_REPORT_PROJECTROOT_H
#define LIBTORCH_TIDY_DRIVER_REPORT_PROJECTROOT_H

#include "llvm/ADT/StringRef.h"
#include <optional>
#include <string>

namespace libtorch_tidy::report {

/// The nearest directory at or above \p Directory that contains `.git` (a
/// directory, or a file in a worktree or submodule); \p Directory itself when
/// there is none.
std::string findProjectRoot(llvm::StringRef Directory);

/// \p Path made absolute, with `.`/`..` removed and symbolic links resolved
/// when it exists (GitHub maps only resolved paths onto the repository).
std::string canonicalPath(llvm::StringRef Path);

/// \p AbsoluteFile relative to \p Root with `/` separators, or nothing when it
/// is not inside \p Root. Both are canonicalized first.
std::optional<std::string> relativeToRoot(llvm::StringRef AbsoluteFile,
                                          llvm::StringRef Root);

/// The path that stands for \p AbsoluteFile in fingerprints: relative to
/// \p Root when inside it, else the canonical absolute path.
std::string projectPath(llvm::StringRef AbsoluteFile, llvm::StringRef Root);

/// \p Path percent-encoded as the path of a URI reference (RFC 3986): letters,
/// digits, `-._~/` and the sub-delimiters stay, everything else is `%XX`.
std::string encodeUriPath(llvm::StringRef Path);

/// A `file://` URI for an absolute path; \p Directory adds a trailing `/`.
std::string fileUri(llvm::StringRef AbsolutePath, bool Directory = false);

} // namespace libtorch_tidy::report

#endif // LIBTORCH_TIDY_DRIVER_REPORT_PROJECTROOT_H
