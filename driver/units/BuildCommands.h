//===--- BuildCommands.h - Compile commands of real builds ------*- C++ -*-===//
//
// Part of libtorch-tidy. SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//
//
// The compile_commands.json of a real build holds commands that clang 16
// cannot run as they are. Each is turned into the command clang would need
// to see the same code:
// - response files (`@file.rsp`) are expanded, relative to the command's
//   directory (clang's expandResponseFiles);
// - a compiler launcher in front of the compiler (`ccache g++ ...`,
//   `sccache`, `distcc`, `icecc`, `buildcache`) is dropped;
// - nvcc commands of host files become host compiler commands
//   (CudaCommands.h);
// - precompiled headers: `-include <x>` with a `<x>.gch` or `<x>.pch` beside
//   it (CMake's target_precompile_headers with GCC) would make clang load
//   that PCH, which is GCC's or another clang's, and fail; every `-include`
//   of such a command becomes `-Xclang -include -Xclang <x>`, which includes
//   the header's text (same order, and clang's driver no longer looks for a
//   PCH). `-include-pch <x>.pch` (also behind -Xclang) becomes the same
//   include of `<x>`, or is dropped when no header text is beside it;
// - arguments clang's driver does not know (g++-only ones such as
//   `-fconcepts`, `-fno-gnu-unique`), which it would reject as errors, are
//   dropped;
// - a `-std=` spelling the clang in use does not know (g++ writes
//   `c++23`, clang 16 knows it as `c++2b`, and nothing past it) becomes the
//   newest standard of the same dialect it knows that is not newer, as
//   clangd does.
//
//===----------------------------------------------------------------------===//

#ifndef LIBTORCH_TIDY_DRIVER_UNITS_BUILDCOMMANDS_H
#define LIBTORCH_TIDY_DRIVER_UNITS_BUILDCOMMANDS_H

#include "clang/Tooling/CompilationDatabase.h"
#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/StringRef.h"
#include <memory>
#include <string>
#include <vector>

namespace libtorch_tidy {

/// What adjustBuildCommand changed, for the notices.
struct BuildCommandChanges {
  /// The precompiled headers replaced by their header's text.
  std::vector<std::string> PrecompiledHeaders;
  /// `-include-pch` files dropped for want of a header beside them.
  std::vector<std::string> DroppedPch;
  /// Arguments clang's driver does not know, dropped.
  std::vector<std::string> UnknownArguments;
  /// The `-std=` value clang does not know, and the one that replaced it.
  std::string StandardAsked, StandardUsed;
};

/// \p CommandLine (argv[0] first) of a command run in \p Directory, adjusted
/// as the file comment says (response files are expanded before).
std::vector<std::string>
adjustBuildCommand(llvm::ArrayRef<std::string> CommandLine,
                   llvm::StringRef Directory,
                   BuildCommandChanges *Changes = nullptr);

/// \p Base (with response files already expanded) with every command
/// adjusted by adjustBuildCommand.
std::unique_ptr<clang::tooling::CompilationDatabase>
adjustBuildCommands(std::unique_ptr<clang::tooling::CompilationDatabase> Base);

/// The notices for what adjustBuildCommand changes in the commands of
/// \p Files in \p Base (unadjusted, response files expanded): one line
/// ("libtorch-tidy: note: ...") per dropped argument and one
/// for the precompiled headers, each naming the first file it concerns.
std::vector<std::string>
buildCommandNotices(const clang::tooling::CompilationDatabase &Base,
                    llvm::ArrayRef<std::string> Files);

} // namespace libtorch_tidy

#endif // LIBTORCH_TIDY_DRIVER_UNITS_BUILDCOMMANDS_H
