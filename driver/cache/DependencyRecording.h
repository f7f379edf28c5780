//===--- DependencyRecording.h - What a parse read --------------*- C++ -*-===//
//
// Part of libtorch-tidy. SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//
//
// The files a parse read, each with the hash of the content it parsed, and
// the paths where a `__has_include` found nothing: what the result cache
// (ResultCache.h) and the precompiled prefixes (PreambleStore.h)
// check before they replay or reuse anything. A header created at such a
// path later makes the entry stale (ccache's direct mode does the same).
//
//===----------------------------------------------------------------------===//

#ifndef LIBTORCH_TIDY_DRIVER_CACHE_DEPENDENCYRECORDING_H
#define LIBTORCH_TIDY_DRIVER_CACHE_DEPENDENCYRECORDING_H

#include "cache/Dependencies.h"
#include "clang/Lex/PPCallbacks.h"
#include <set>
#include <string>
#include <vector>

namespace clang {
class Preprocessor;
class SourceManager;
} // namespace clang

namespace libtorch_tidy::cache {

/// Records where a `__has_include` that found nothing looked, into
/// \p Absent (absolute paths).
class AbsentHeaderRecorder : public clang::PPCallbacks {
public:
  AbsentHeaderRecorder(clang::Preprocessor &PP, std::set<std::string> &Absent)
      : PP(PP), Absent(Absent) {}

  void HasInclude(clang::SourceLocation Loc, llvm::StringRef FileName,
                  bool IsAngled, clang::OptionalFileEntryRef File,
                  clang::SrcMgr::CharacteristicKind /*FileType*/) override;

private:
  void add(llvm::StringRef Directory, llvm::StringRef FileName);

  clang::Preprocessor &PP;
  std::set<std::string> &Absent;
};

/// Every file \p SM read, with the hash of the content parsed, and every
/// path of \p Absent as one that must stay absent; sorted.
std::vector<Dependency> readDependencies(const clang::SourceManager &SM,
                                         const std::set<std::string> &Absent);

} // namespace libtorch_tidy::cache

#endif // LIBTORCH_TIDY_DRIVER_CACHE_DEPENDENCYRECORDING_H
