//===--- SourceText.h - Source files as lines and columns -------*- C++ -*-===//
//
// Part of libtorch-tidy. SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//
//
// The report stage needs the text of reported files after the analysis has
// finished: fingerprints hash the content of the reported line, and SARIF
// counts columns and fix-it offsets in UTF-16 code units where the analysis
// counted bytes. SourceFiles reads each file once; tests give it contents.
//
//===----------------------------------------------------------------------===//

#ifndef LIBTORCH_TIDY_DRIVER_REPORT_SOURCETEXT_H
#define LIBTORCH_TIDY_DRIVER_REPORT_SOURCETEXT_H

#include "model/Findings.h"

#include "llvm/ADT/StringRef.h"
#include <functional>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace libtorch_tidy::report {

/// One file's content with an index of its lines.
class SourceText {
public:
  explicit SourceText(std::string Content);

  llvm::StringRef content() const { return Content; }
  unsigned lineCount() const { return LineStarts.size(); }
  /// The 1-based line \p Line without its line break; empty when out of range.
  llvm::StringRef line(unsigned Line) const;
  /// Line, byte column and UTF-16 column (all 1-based) of a byte offset.
  /// Offsets past the end clamp to the end.
  model::Position positionOf(unsigned ByteOffset) const;
  /// The number of UTF-16 code units before \p ByteOffset.
  unsigned utf16Offset(unsigned ByteOffset) const;

private:
  std::string Content;
  std::vector<unsigned> LineStarts;
};

/// UTF-16 code units in \p Utf8Text: one per code point, two for code points
/// beyond the Basic Multilingual Plane. Bytes that are not valid UTF-8 count
/// one each.
unsigned utf16Length(llvm::StringRef Utf8Text);

/// The reported files' contents, read on first use.
class SourceFiles {
public:
  using Reader =
      std::function<std::optional<std::string>(llvm::StringRef Path)>;

  /// Reads from the real file system.
  SourceFiles();
  /// Reads through \p Read (tests).
  explicit SourceFiles(Reader Read);

  /// The text of \p AbsolutePath, or null when it cannot be read.
  const SourceText *get(llvm::StringRef AbsolutePath);

private:
  Reader Read;
  std::map<std::string, std::unique_ptr<SourceText>, std::less<>> Cache;
};

} // namespace libtorch_tidy::report

#endif // LIBTORCH_TIDY_DRIVER_REPORT_SOURCETEXT_H
