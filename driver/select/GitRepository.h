//===--- GitRepository.h - Where a file's git repository starts -*- C++ -*-===//
//
// Part of libtorch-tidy. SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

#ifndef LIBTORCH_TIDY_DRIVER_SELECT_GITREPOSITORY_H
#define LIBTORCH_TIDY_DRIVER_SELECT_GITREPOSITORY_H

#include "llvm/ADT/StringRef.h"
#include <string>

namespace libtorch_tidy::select {

/// The nearest directory at or above \p Path (absolute; a file or a
/// directory) that holds a `.git` entry (a directory, or the file a worktree
/// or submodule has), or "" when there is none. Found on the file system
/// alone, without running git.
std::string findGitTopLevel(llvm::StringRef Path);

/// \p AbsoluteFile relative to \p Root with `/` separators, or "" when it
/// is not inside \p Root.
std::string relativeToRoot(llvm::StringRef AbsoluteFile, llvm::StringRef Root);

} // namespace libtorch_tidy::select

#endif // LIBTORCH_TIDY_DRIVER_SELECT_GITREPOSITORY_H
