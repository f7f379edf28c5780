//===--- TextPosition.h - Byte offsets as lines and columns -----*- C++ -*-===//
//
// Part of libtorch-tidy. SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//
//
// The one place where a byte offset into a file becomes a line and a column
// and back. Every report (text, JSON, SARIF), the language server and the
// fix step's messages count with these rules, so that they name the place
// clang names:
//
// - Line breaks: LF, CRLF and a lone CR are one break each, as clang's
//   SourceManager counts them (and GitHub, and LSP). `\n\r` is two.
// - Byte columns count bytes from the start of the line, as clang does,
//   whatever the bytes are.
// - UTF-16 columns (LSP, SARIF) count each UTF-8 sequence as one code unit,
//   two for a 4-byte sequence (beyond the Basic Multilingual Plane). A
//   sequence is taken as UTF-8 when its lead byte announces a length and
//   that many continuation bytes follow; every other byte (a stray
//   continuation byte, a truncated sequence, a byte that leads nothing)
//   counts as one code unit of its own, as an editor that shows it as U+FFFD
//   does. Source files that are not UTF-8 thus still get columns that only
//   grow.
//
//===----------------------------------------------------------------------===//

#ifndef LIBTORCH_TIDY_DRIVER_MODEL_TEXTPOSITION_H
#define LIBTORCH_TIDY_DRIVER_MODEL_TEXTPOSITION_H

#include "model/Findings.h"
#include "llvm/ADT/StringRef.h"
#include <cstddef>
#include <vector>

namespace libtorch_tidy::model {

/// The length of the line break at byte \p I of \p Text: 2 for CRLF, 1 for
/// LF or a lone CR, 0 when no line break starts there.
unsigned lineBreakLength(llvm::StringRef Text, size_t I);

/// One character of a UTF-8 text under the rule of the file comment.
struct CodePoint {
  /// Bytes it takes (1 to 4).
  unsigned Bytes = 1;
  /// UTF-16 code units it counts for (1 or 2).
  unsigned Utf16Units = 1;
};

/// The character that starts at byte \p I (< size) of \p Text.
CodePoint codePointAt(llvm::StringRef Text, size_t I);

/// The UTF-16 code units \p Text counts for.
unsigned utf16Length(llvm::StringRef Text);

/// 1-based line, byte column and UTF-16 column of byte \p Offset of
/// \p Text; an offset past the end is the end. An offset inside a line
/// break is on the line the break ends.
Position positionAt(llvm::StringRef Text, size_t Offset);

/// The lines of one text, indexed once for many look-ups. Holds a reference
/// to the text, which must outlive it.
class TextLines {
public:
  explicit TextLines(llvm::StringRef Text);

  llvm::StringRef text() const { return Text; }
  /// The number of lines; a line break at the very end starts no further
  /// line here (as editors number them), though positionOf() puts the end
  /// of the text on the line after it (as clang does).
  unsigned lineCount() const;
  /// The byte offset where 1-based \p Line starts; the end of the text for a
  /// line past the last.
  size_t lineStart(unsigned Line) const;
  /// The byte offset of the line break that ends 1-based \p Line, or of the
  /// end of the text.
  size_t lineEnd(unsigned Line) const;
  /// 1-based \p Line without its line break; empty when out of range.
  llvm::StringRef line(unsigned Line) const;

  /// positionAt() of \p Offset.
  Position positionOf(size_t Offset) const;
  /// The byte offset of 1-based \p Line and 1-based byte \p Column, clamped
  /// to the line's text (a column past it is the line's end, a line past
  /// the last the end of the text).
  size_t offsetOf(unsigned Line, unsigned Column) const;
  /// The byte offset of 1-based \p Line and 1-based UTF-16 \p Column,
  /// clamped as offsetOf() does; a column inside a character (between the
  /// two units of a surrogate pair) is that character's start.
  size_t offsetOfUtf16(unsigned Line, unsigned Column) const;

private:
  llvm::StringRef Text;
  /// Where each line starts, the first at 0; after a line break at the very
  /// end, the end of the text.
  std::vector<size_t> Starts;
};

} // namespace libtorch_tidy::model

#endif // LIBTORCH_TIDY_DRIVER_MODEL_TEXTPOSITION_H
