//===--- TextDocument.h - Open documents and LSP positions ------*- C++ -*-===//
//
// Part of libtorch-tidy. SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//
//
// LSP counts a position's `character` in UTF-16 code units of its line; the
// analysis counts bytes. These functions convert between the two on the exact
// text of one version of a document, with the line breaks and UTF-8 rules of
// model/TextPosition.h, and apply `didChange` edits (full or incremental).
//
//===----------------------------------------------------------------------===//

#ifndef LIBTORCH_TIDY_DRIVER_LSP_TEXTDOCUMENT_H
#define LIBTORCH_TIDY_DRIVER_LSP_TEXTDOCUMENT_H

#include "llvm/ADT/StringRef.h"
#include <nlohmann/json.hpp>
#include <optional>
#include <string>

namespace libtorch_tidy::lsp {

/// An LSP position: 0-based line, UTF-16 code units into the line.
struct LspPosition {
  unsigned Line = 0;
  unsigned Character = 0;
};

/// The byte offset of \p P in \p Text. A character past the end of its line
/// means the end of the line, a line past the end the end of the text (as
/// LSP asks); a position inside a surrogate pair rounds down to the pair.
size_t offsetAt(llvm::StringRef Text, LspPosition P);

/// The LSP position of byte \p Offset (clamped to the text) of \p Text.
LspPosition positionAt(llvm::StringRef Text, size_t Offset);

/// The byte offset of the 1-based \p Line and 1-based byte \p Column (as
/// compilers report them) in \p Text, clamped to the text.
size_t offsetOfLineColumn(llvm::StringRef Text, unsigned Line, unsigned Column);

/// {"line": .., "character": ..}
nlohmann::json toJson(LspPosition P);
/// {"start": .., "end": ..} of the bytes [Begin, End) of \p Text.
nlohmann::json rangeJson(llvm::StringRef Text, size_t Begin, size_t End);

/// Applies one entry of `didChange`'s `contentChanges` to \p Text: with a
/// `range`, replaces it; without, replaces everything. Returns an error
/// message (the text unchanged) for a change that is not well formed.
std::optional<std::string> applyContentChange(std::string &Text,
                                              const nlohmann::json &Change);

} // namespace libtorch_tidy::lsp

#endif // LIBTORCH_TIDY_DRIVER_LSP_TEXTDOCUMENT_H
