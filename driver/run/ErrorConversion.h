//===--- ErrorConversion.h - clang-tidy errors as findings ------*- C++ -*-===//
//
// Part of libtorch-tidy. SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//
//
// Turns clang-tidy's ClangTidyError values (file paths and byte offsets) into
// model::Finding values with 1-based lines, byte and UTF-16 columns (counted
// as model/TextPosition.h says), end positions and content digests, reading
// each file once.
//
//===----------------------------------------------------------------------===//

#ifndef LIBTORCH_TIDY_DRIVER_RUN_ERRORCONVERSION_H
#define LIBTORCH_TIDY_DRIVER_RUN_ERRORCONVERSION_H

#include "clang-tidy/ClangTidyDiagnosticConsumer.h"
#include "model/Findings.h"
#include "llvm/ADT/StringMap.h"
#include <map>
#include <optional>
#include <string>
#include <vector>

namespace libtorch_tidy::run {

/// The bytes the compiler parsed, per file, keyed by the file's name as the
/// compiler spelled it (relative names resolve against the build directory).
using ParsedContents = std::map<std::string, std::string>;

/// Converts the errors of one unit, with each file's content read once.
class ErrorConverter {
public:
  /// Relative paths in errors resolve against \p BuildDirectory. \p Parsed
  /// holds what the compiler read of the unit's user files: positions and
  /// content digests come from those bytes, never from a later read of the
  /// file, which may have been edited meanwhile.
  explicit ErrorConverter(std::string BuildDirectory,
                          const ParsedContents &Parsed = {});

  /// Fills \p Unit's Findings, CompilerErrors and ContentDigests from
  /// \p Errors (already filtered by clang-tidy: NOLINT, header filter).
  /// A file gets a digest only when its parsed bytes are known, so `--fix`
  /// refuses to edit a file whose parsed content is not known.
  void convert(const std::vector<clang::tidy::ClangTidyError> &Errors,
               model::TranslationUnitResult &Unit);

  /// \p Path made absolute against the build directory, without dots, and
  /// with symbolic links resolved when the file exists.
  std::string absolutePath(llvm::StringRef Path) const;

private:
  const std::string *contents(const std::string &AbsolutePath);
  model::Location
  location(llvm::StringRef File, unsigned Offset,
           llvm::ArrayRef<clang::tooling::FileByteRange> Ranges);
  std::vector<model::Replacement>
  replacements(const llvm::StringMap<clang::tooling::Replacements> &Fix) const;
  std::vector<model::ByteRange>
  ranges(llvm::ArrayRef<clang::tooling::FileByteRange> Ranges);

  std::string BuildDirectory;
  /// Parsed bytes by absolute path (and by real path, where it differs).
  std::map<std::string, std::string> Parsed;
  /// Files read from disk, for positions in files not parsed as user code.
  llvm::StringMap<std::optional<std::string>> Files;
};

} // namespace libtorch_tidy::run

#endif // LIBTORCH_TIDY_DRIVER_RUN_ERRORCONVERSION_H
