//===--- ResourceDir.cpp - Find clang's builtin headers -------------------===//
//
// Part of libtorch-tidy. SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

#include "units/ResourceDir.h"
#include "llvm/ADT/SmallString.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Path.h"

namespace libtorch_tidy {

bool isClangResourceDir(llvm::StringRef Dir) {
  llvm::SmallString<256> Header(Dir);
  llvm::sys::path::append(Header, "include", "stddef.h");
  return llvm::sys::fs::is_regular_file(Header);
}

std::vector<std::string> resourceDirCandidates(llvm::StringRef ExecutablePath,
                                               llvm::StringRef BuiltIn,
                                               llvm::StringRef LLVMMajor) {
  std::vector<std::string> Candidates;
  if (!ExecutablePath.empty()) {
    llvm::SmallString<256> Dir(llvm::sys::path::parent_path(
        llvm::sys::path::parent_path(ExecutablePath)));
    llvm::sys::path::append(Dir, "lib", "clang", LLVMMajor);
    Candidates.emplace_back(Dir.str());
  }
  if (!BuiltIn.empty())
    Candidates.emplace_back(BuiltIn.str());
  return Candidates;
}

std::string findResourceDir(llvm::ArrayRef<std::string> Candidates) {
  for (const std::string &Dir : Candidates)
    if (isClangResourceDir(Dir))
      return Dir;
  return "";
}

bool hasResourceDirArgument(llvm::ArrayRef<std::string> CommandLine) {
  for (llvm::StringRef Arg : CommandLine)
    if (Arg == "-resource-dir" || Arg.starts_with("-resource-dir=") ||
        Arg == "--resource-dir" || Arg.starts_with("--resource-dir="))
      return true;
  return false;
}

} // namespace libtorch_tidy
