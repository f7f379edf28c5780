//===--- DependencyRecording.cpp - What a parse read ----------------------===//
//
// Part of libtorch-tidy. SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

#include "cache/DependencyRecording.h"
#include "clang-compat/ClangCompat.h"
#include "clang/Basic/FileManager.h"
#include "clang/Basic/SourceManager.h"
#include "clang/Lex/HeaderSearch.h"
#include "clang/Lex/Preprocessor.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Path.h"

using namespace clang;
using namespace llvm;

namespace libtorch_tidy::cache {

void AbsentHeaderRecorder::HasInclude(SourceLocation Loc, StringRef FileName,
                                      bool IsAngled, OptionalFileEntryRef File,
                                      SrcMgr::CharacteristicKind /*FileType*/) {
  if (File || FileName.empty() || sys::path::is_absolute(FileName))
    return;
  SourceManager &SM = PP.getSourceManager();
  if (!IsAngled)
    if (const OptionalFileEntryRef Includer =
            SM.getFileEntryRefForID(SM.getFileID(SM.getExpansionLoc(Loc))))
      add(Includer->getDir().getName(), FileName);
  for (const DirectoryLookup &Dir : PP.getHeaderSearchInfo().search_dir_range())
    if (OptionalDirectoryEntryRef Entry = Dir.getDirRef())
      add(Entry->getName(), FileName);
}

void AbsentHeaderRecorder::add(StringRef Directory, StringRef FileName) {
  SmallString<256> Path(Directory);
  sys::path::append(Path, FileName);
  PP.getFileManager().makeAbsolutePath(Path);
  sys::path::remove_dots(Path, /*remove_dot_dot=*/true);
  // A candidate that exists was not searched: `__has_include_next` starts
  // after the directory of the header asking (clang 22's own <stdarg.h>
  // asks for the next <stdarg.h>), and a file that is there can only be
  // one the lookup skipped. Recorded as absent, it would fail every check
  // of the entry.
  if (sys::fs::exists(Path))
    return;
  Absent.insert(std::string(Path));
}

std::vector<Dependency> readDependencies(const SourceManager &SM,
                                         const std::set<std::string> &Absent) {
  std::vector<Dependency> Dependencies;
  for (auto It = SM.fileinfo_begin(), End = SM.fileinfo_end(); It != End;
       ++It) {
    std::optional<MemoryBufferRef> Buffer = It->second->getBufferIfLoaded();
    if (!Buffer)
      continue;
    const StringRef Name = clang::compat::fileTableName(It->first);
    Dependencies.emplace_back(Name.str(), fastContentHash(Buffer->getBuffer()));
  }
  // A unit parsed against a precompiled prefix can know a header under a
  // second name that is no path at all (clang 22 reads
  // `/usr/include/.../c++config.h` back from the PCH as
  // `/include/.../c++config.h` too). No check can read such a name: kept,
  // it would fail every lookup of the entry, on this machine and on every
  // other that shares it. The bytes are recorded under the name that exists
  // (the unit's, or its prefix's list, PrecompiledPrefixes).
  llvm::erase_if(Dependencies,
                 [](const Dependency &D) { return !sys::fs::exists(D.first); });
  for (const std::string &Path : Absent)
    Dependencies.emplace_back(Path, AbsentFileHash.str());
  llvm::sort(Dependencies);
  return Dependencies;
}

} // namespace libtorch_tidy::cache
