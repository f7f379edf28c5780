//===--- CodeActions.h - What an editor offers on a finding -----*- C++ -*-===//
//
// Part of libtorch-tidy. SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//
//
// The code actions of a document's findings, as users of linters with
// language servers expect them (clangd, ruff server, Fixit's `fixit lsp`):
// on a finding, its fix-it, "fix all of this check in the file", "silence
// this finding here" (a NOLINT comment that the next analysis honours) and
// "explain" (the check's page); for the file, every fix-it at once
// (`source.fixAll.libtorch-tidy`). Also the hover text of a finding.
//
//===----------------------------------------------------------------------===//

#ifndef LIBTORCH_TIDY_DRIVER_LSP_CODEACTIONS_H
#define LIBTORCH_TIDY_DRIVER_LSP_CODEACTIONS_H

#include "lsp/Diagnostics.h"
#include "llvm/ADT/StringRef.h"
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <vector>

namespace libtorch_tidy::lsp {

/// The command that explains a check: arguments `[checkId]`.
constexpr const char *ExplainCommand = "libtorch-tidy.explain";

/// The code actions of \p Findings (of the snapshot \p Text, version
/// \p Version of \p Uri) for the byte range [\p Begin, \p End], of the kinds
/// in \p Only (all when empty). \p DocumentChanges: the client takes
/// versioned edits.
nlohmann::json codeActions(const DocumentFindings &Findings,
                           llvm::StringRef Text, llvm::StringRef Uri,
                           long long Version, size_t Begin, size_t End,
                           const std::vector<std::string> &Only,
                           bool DocumentChanges);

/// The edit that silences the finding of \p CheckId on the line of byte
/// \p Offset: `// NOLINT(<check>)` at the end of the line, or
/// `// NOLINTNEXTLINE(<check>)` above it when the line already has a
/// comment or would grow past 100 columns (the check added to the list of
/// a `NOLINTNEXTLINE(...)` already there); at the end of a line that starts
/// inside a raw string literal, above one that ends inside one; nothing
/// where neither would be read as a comment of that line (a line continued
/// with a backslash, one that starts and ends inside raw strings).
std::optional<nlohmann::json> silenceEdit(llvm::StringRef Text, size_t Offset,
                                          llvm::StringRef CheckId);

/// What the editor shows on hovering byte \p Offset: the findings there,
/// each with its check's one-paragraph explanation and page; null when
/// there is none.
nlohmann::json hoverAt(const DocumentFindings &Findings, llvm::StringRef Text,
                       size_t Offset, llvm::StringRef DocsDir);

/// The explanation of \p CheckId as Markdown: its page's first paragraph
/// and a link to it; empty for a check without a page.
std::string checkExplanation(llvm::StringRef CheckId, llvm::StringRef DocsDir);

} // namespace libtorch_tidy::lsp

#endif // LIBTORCH_TIDY_DRIVER_LSP_CODEACTIONS_H
