//===--- SourceLines.h - Lines of a source file -----------------*- C++ -*-===//
//
// Part of libtorch-tidy. SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//
//
// What a fix that inserts or removes whole statements needs to know about
// the lines around them: their indentation, their line break, and the range
// that removes a statement with its line. Read from the bytes the
// SourceManager parsed, never from the file again.
//
//===----------------------------------------------------------------------===//

#ifndef LIBTORCH_TIDY_CHECKS_UTILS_SOURCELINES_H
#define LIBTORCH_TIDY_CHECKS_UTILS_SOURCELINES_H

#include "clang/Basic/SourceManager.h"
#include "llvm/ADT/StringRef.h"
#include <optional>
#include <string>

namespace clang::tidy::libtorch::utils {

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

/// The range that removes the text from \p Begin to \p End (file
/// locations in one file) with its line: from the line break before it to
/// the line break after it (exclusive), so that the next line keeps its
/// indentation. None unless only characters of \p Blanks stand before it
/// on its first line and after it on its last, and when it is on the first
/// line of the file.
std::optional<CharSourceRange> wholeLines(SourceLocation Begin,
                                          SourceLocation End,
                                          const SourceManager &SM,
                                          llvm::StringRef Blanks = " \t");

} // namespace clang::tidy::libtorch::utils

#endif // LIBTORCH_TIDY_CHECKS_UTILS_SOURCELINES_H
