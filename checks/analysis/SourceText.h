//===--- SourceText.h - How expressions are spelled -------------*- C++ -*-===//
//
// Part of libtorch-tidy. SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

#ifndef LIBTORCH_TIDY_CHECKS_ANALYSIS_SOURCETEXT_H
#define LIBTORCH_TIDY_CHECKS_ANALYSIS_SOURCETEXT_H

#include "clang/AST/Expr.h"
#include "clang/Basic/LangOptions.h"
#include "clang/Basic/SourceManager.h"
#include <optional>
#include <string>

namespace clang::tidy::libtorch::analysis {

/// The text of \p E for a message: as written in the file, or, inside a
/// macro expansion, as spelled in the macro. Empty if neither is readable.
std::string spelledText(const Expr *E, const SourceManager &SM,
                        const LangOptions &LangOpts);

/// The whitespace that starts the line of \p Loc (a file location).
std::string indentationOf(SourceLocation Loc, const SourceManager &SM);

/// The whitespace before \p Loc (a file location) on its line, if only
/// whitespace precedes it there: where a statement inserted before it goes.
std::optional<std::string> indentationIfFirstOnLine(SourceLocation Loc,
                                                    const SourceManager &SM);

/// The line break that ends the line of \p Loc (a file location): "\r\n" in
/// a file written with CRLF line endings, else "\n". Inserted lines use it,
/// so a fix never mixes line endings in a file. A last line without a break
/// takes the break of the line before it.
std::string lineBreakAt(SourceLocation Loc, const SourceManager &SM);

/// True when \p Range is written in a file, outside any macro expansion:
/// the only places we rewrite.
inline bool isRewritable(SourceRange Range) {
  return Range.isValid() && Range.getBegin().isFileID() &&
         Range.getEnd().isFileID();
}

} // namespace clang::tidy::libtorch::analysis

#endif // LIBTORCH_TIDY_CHECKS_ANALYSIS_SOURCETEXT_H
