//===--- ProjectRoot.cpp - Paths relative to the project root -------------===//
//
// Part of libtorch-tidy. SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

#include "ProjectRoot.h"

#include "llvm/ADT/SmallString.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Path.h"

namespace libtorch_tidy::report {

namespace fs = llvm::sys::fs;
namespace path = llvm::sys::path;

std::string canonicalPath(llvm::StringRef Path) {
  llvm::SmallString<256> Absolute(Path);
  fs::make_absolute(Absolute);
  path::remove_dots(Absolute, /*remove_dot_dot=*/true);
  llvm::SmallString<256> Real;
  if (!fs::real_path(Absolute, Real))
    return std::string(Real);
  return std::string(Absolute);
}

std::string findProjectRoot(llvm::StringRef Directory) {
  std::string Start = canonicalPath(Directory);
  for (llvm::StringRef Dir = Start; !Dir.empty();
       Dir = path::parent_path(Dir)) {
    llvm::SmallString<256> Git(Dir);
    path::append(Git, ".git");
    if (fs::exists(Git))
      return Dir.str();
  }
  return Start;
}

std::optional<std::string> relativeToRoot(llvm::StringRef AbsoluteFile,
                                          llvm::StringRef Root) {
  std::string File = canonicalPath(AbsoluteFile);
  std::string Base = canonicalPath(Root);
  while (Base.size() > 1 && Base.back() == '/')
    Base.pop_back();
  llvm::StringRef Rest(File);
  if (!Rest.consume_front(Base))
    return std::nullopt;
  if (Base != "/" && !Rest.consume_front("/"))
    return std::nullopt; // "/src/ab" is not inside "/src/a"
  if (Rest.empty())
    return std::nullopt;
  return path::convert_to_slash(Rest);
}

std::string projectPath(llvm::StringRef AbsoluteFile, llvm::StringRef Root) {
  if (std::optional<std::string> Relative = relativeToRoot(AbsoluteFile, Root))
    return *Relative;
  return path::convert_to_slash(canonicalPath(AbsoluteFile));
}

std::string encodeUriPath(llvm::StringRef Path) {
  static const char Hex[] = "0123456789ABCDEF";
  std::string Encoded;
  for (const char C : Path) {
    if (llvm::isAlnum(C) || llvm::StringRef("-._~/!$&'()*+,;=:@").contains(C)) {
      Encoded += C;
      continue;
    }
    const auto Byte = static_cast<unsigned char>(C);
    Encoded += '%';
    Encoded += Hex[Byte >> 4];
    Encoded += Hex[Byte & 15];
  }
  return Encoded;
}

std::string fileUri(llvm::StringRef AbsolutePath, bool Directory) {
  std::string Uri =
      "file://" + encodeUriPath(path::convert_to_slash(AbsolutePath));
  if (Directory && (Uri.empty() || Uri.back() != '/'))
    Uri += '/';
  return Uri;
}

} // namespace libtorch_tidy::report
