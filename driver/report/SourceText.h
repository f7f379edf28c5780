//===--- SourceText.h - Source files as lines and columns -------*- C++ -*-===//
//
// Part of libtorch-tidy. SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//
//
// The report stage needs the text of reported files after the analysis has
// finished: fingerprints hash the content of the reported line, and SARIF
// counts columns and fix-it offsets in UTF-16 code units where the analysis
// counted bytes, with the rules of model/TextPosition.h. SourceFiles reads
// each file once; tests give it contents.
//
//===----------------------------------------------------------------------===//

#ifndef LIBTORCH_TIDY_DRIVER_REPORT_SOURCETEXT_H
#define LIBTORCH_TIDY_DRIVER_REPORT_SOURCETEXT_H

#include "model/Findings.h"
#include "model/TextPosition.h"

#include "llvm/ADT/StringRef.h"
#include <functional>
#include <map>
#include <memory>
#include <optional>
#include <set>
#include <string>
#include <vector>

namespace libtorch_tidy::report {

/// One file's content with an index of its lines.
class SourceText {
public:
  explicit SourceText(std::string Text);
  SourceText(const SourceText &) = delete;
  SourceText &operator=(const SourceText &) = delete;

  llvm::StringRef content() const { return Content; }
  unsigned lineCount() const { return Lines.lineCount(); }
  /// The 1-based line \p Line without its line break; empty when out of range.
  llvm::StringRef line(unsigned Line) const { return Lines.line(Line); }
  /// Line, byte column and UTF-16 column (all 1-based) of a byte offset.
  /// Offsets past the end clamp to the end.
  model::Position positionOf(unsigned ByteOffset) const {
    return Lines.positionOf(ByteOffset);
  }
  /// The number of UTF-16 code units before \p ByteOffset.
  unsigned utf16Offset(unsigned ByteOffset) const;

private:
  std::string Content;
  /// Over Content, which is never changed or moved after construction.
  model::TextLines Lines;
};

/// The reported files' contents, read on first use.
class SourceFiles {
public:
  using Reader =
      std::function<std::optional<std::string>(llvm::StringRef Path)>;

  /// Reads from the real file system.
  SourceFiles();
  /// Reads through \p Read (tests).
  explicit SourceFiles(Reader Read);

  /// From now on, a file that a unit of \p Run parsed (its ContentDigests)
  /// is given only when it still holds the bytes parsed, and every unit
  /// parsed the same: positions, lines and fix regions are never computed
  /// on other bytes than those the analysis computed its offsets on.
  void onlyAsParsed(const model::RunResult &Run);

  /// The text of \p AbsolutePath, or null when it cannot be read (or is not
  /// what was parsed, onlyAsParsed()).
  const SourceText *get(llvm::StringRef AbsolutePath);

private:
  Reader Read;
  /// The digests the units recorded, by absolute path (onlyAsParsed()).
  std::map<std::string, std::set<std::string>, std::less<>> ParsedDigests;
  std::map<std::string, std::unique_ptr<SourceText>, std::less<>> Cache;
};

} // namespace libtorch_tidy::report

#endif // LIBTORCH_TIDY_DRIVER_REPORT_SOURCETEXT_H
