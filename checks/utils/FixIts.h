//===--- FixIts.h - Edits a fix-it may make ---------------------*- C++ -*-===//
//
// Part of libtorch-tidy. SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//
//
// The edits the checks' fix-its share, about source text and nothing of
// LibTorch: which ranges may be rewritten, and an insertion right after
// something written there. One copy, so that every check rewrites the same
// places and no other.
//
//===----------------------------------------------------------------------===//

#ifndef LIBTORCH_TIDY_CHECKS_UTILS_FIXITS_H
#define LIBTORCH_TIDY_CHECKS_UTILS_FIXITS_H

#include "clang/AST/Stmt.h"
#include "clang/Basic/Diagnostic.h"
#include "clang/Basic/LangOptions.h"
#include "clang/Basic/SourceManager.h"
#include "llvm/ADT/StringRef.h"
#include <optional>
#include <utility>

namespace clang::tidy::libtorch::utils {

/// True when \p Range is written in a file, outside any macro expansion:
/// the only places we rewrite.
inline bool isRewritable(SourceRange Range) {
  return Range.isValid() && Range.getBegin().isFileID() &&
         Range.getEnd().isFileID();
}

/// An insertion of \p Text right after the last token of \p Written (a
/// range, or the location of one token); none when \p Written is not
/// rewritable, since an edit inside a macro would change its other uses.
std::optional<FixItHint> insertionAfter(SourceRange Written, StringRef Text,
                                        const SourceManager &SM,
                                        const LangOptions &LangOpts);

/// The same, right after the last token of the statement or expression
/// \p Written.
inline std::optional<FixItHint> insertionAfter(const Stmt &Written,
                                               StringRef Text,
                                               const SourceManager &SM,
                                               const LangOptions &LangOpts) {
  return insertionAfter(Written.getSourceRange(), Text, SM, LangOpts);
}

/// The two edits that move statement \p Moved to right after statement
/// \p After, on a line of its own indented like \p After: the removal of
/// \p Moved (with its line when it stands alone on it) and the insertion.
/// None when the `;` that ends either cannot be found, \p Moved has no
/// text to copy, or \p After does not start its line (no indentation to
/// copy). Whether both are rewritable is the caller's to test.
std::optional<std::pair<FixItHint, FixItHint>>
statementMove(const Stmt &Moved, const Stmt &After, const SourceManager &SM,
              const LangOptions &LangOpts);

} // namespace clang::tidy::libtorch::utils

#endif // LIBTORCH_TIDY_CHECKS_UTILS_FIXITS_H
