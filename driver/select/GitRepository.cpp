//===--- GitRepository.cpp - Where a file's git repository starts ---------===//
//
// Part of libtorch-tidy. SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

#include "select/GitRepository.h"
#include "llvm/ADT/SmallString.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Path.h"

using namespace llvm;

namespace libtorch_tidy::select {

std::string findGitTopLevel(StringRef Path) {
  SmallString<256> Dir(Path);
  sys::path::remove_dots(Dir, /*remove_dot_dot=*/true);
  if (!sys::fs::is_directory(Dir))
    sys::path::remove_filename(Dir);
  for (StringRef Current = Dir; !Current.empty();
       Current = sys::path::parent_path(Current)) {
    SmallString<256> Marker(Current);
    sys::path::append(Marker, ".git");
    if (sys::fs::exists(Marker))
      return Current.str();
  }
  return "";
}

std::string relativeToRoot(StringRef AbsoluteFile, StringRef Root) {
  if (Root.empty())
    return "";
  SmallString<256> File(AbsoluteFile), Base(Root);
  sys::path::remove_dots(File, /*remove_dot_dot=*/true);
  sys::path::remove_dots(Base, /*remove_dot_dot=*/true);
  StringRef Rest = File;
  if (!Rest.consume_front(Base))
    return "";
  if (Rest.empty() || !sys::path::is_separator(Rest.front()))
    return "";
  Rest = Rest.drop_front();
  return sys::path::convert_to_slash(Rest);
}

} // namespace libtorch_tidy::select
