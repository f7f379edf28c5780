//===--- ResourceDir.h - Find clang's builtin headers -----------*- C++ -*-===//
//
// Part of libtorch-tidy. SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//
//
// A LibTooling program compiles with clang's builtin headers (<stddef.h>,
// <stdarg.h>, ...) from a "resource directory" that clang looks up relative
// to its own executable. An installed libtorch-tidy does not sit next to
// clang, so we look for one that has the headers and pass it explicitly.
//
//===----------------------------------------------------------------------===//

#ifndef LIBTORCH_TIDY_DRIVER_UNITS_RESOURCEDIR_H
#define LIBTORCH_TIDY_DRIVER_UNITS_RESOURCEDIR_H

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/StringRef.h"
#include <string>
#include <vector>

namespace libtorch_tidy {

/// True when \p Dir holds clang's builtin headers (include/stddef.h).
bool isClangResourceDir(llvm::StringRef Dir);

/// The places to look, in order: next to the executable the way clang
/// itself looks (<bin>/../lib/clang/<major>), then \p BuiltIn, the resource
/// dir of the clang the tool was built against.
std::vector<std::string> resourceDirCandidates(llvm::StringRef ExecutablePath,
                                               llvm::StringRef BuiltIn,
                                               llvm::StringRef LLVMMajor);

/// The first candidate that holds the builtin headers, or "" if none does.
std::string findResourceDir(llvm::ArrayRef<std::string> Candidates);

/// True when a compile command already chooses its resource dir.
bool hasResourceDirArgument(llvm::ArrayRef<std::string> CommandLine);

} // namespace libtorch_tidy

#endif // LIBTORCH_TIDY_DRIVER_UNITS_RESOURCEDIR_H
