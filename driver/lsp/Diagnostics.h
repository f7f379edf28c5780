//===--- Diagnostics.h - Findings as diagnostics ----------------*- C++ -*-===//
//
// Part of libtorch-tidy. SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//
//
// Turns the TranslationUnitResult of one version of a document into what
// `textDocument/publishDiagnostics` sends and what `textDocument/codeAction`
// offers. Every position is computed on the bytes that were analyzed (the
// snapshot), never on a later version: a fix-it is offered only while the
// document is still at that version, and its WorkspaceEdit names it.
//
//===----------------------------------------------------------------------===//

#ifndef LIBTORCH_TIDY_DRIVER_LSP_DIAGNOSTICS_H
#define LIBTORCH_TIDY_DRIVER_LSP_DIAGNOSTICS_H

#include "model/Findings.h"
#include "llvm/ADT/StringRef.h"
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

namespace libtorch_tidy::lsp {

/// One diagnostic of a document and, when the finding has a fix-it whose
/// edits are all in this document, those edits (LSP TextEdits).
struct DocumentDiagnostic {
  nlohmann::json Diagnostic;
  nlohmann::json Edits = nlohmann::json::array();
  /// Byte ranges of the edits in the snapshot, to leave overlapping fix-its
  /// out of "fix all".
  std::vector<std::pair<size_t, size_t>> EditSpans;
  /// The diagnostic's range in the snapshot, as bytes.
  size_t Begin = 0, End = 0;
};

struct DocumentFindings {
  std::vector<DocumentDiagnostic> Diagnostics;
  /// Set when the file did not parse: its diagnostics are then the one that
  /// says so and the findings that the errors cannot have changed, without
  /// quick fixes.
  bool DoesNotParse = false;
};

/// A `file://` URI of an absolute path (percent-encoding what needs it), and
/// back (empty when \p Uri is not a `file:` URI).
std::string uriOfPath(llvm::StringRef Path);
std::string pathOfUri(llvm::StringRef Uri);

/// Where a check's documentation is: the installed docs/checks/<id>.md next
/// to the executable when present, else the published page; empty for a
/// check without a page.
std::string checkDocsHref(llvm::StringRef CheckId, llvm::StringRef DocsDir);

/// The diagnostics of \p Path (absolute) in \p Unit, whose analysis parsed
/// \p Snapshot as that file's content. \p DocsDir: the installed
/// docs/checks directory, or empty.
DocumentFindings documentFindings(const model::TranslationUnitResult &Unit,
                                  llvm::StringRef Path,
                                  llvm::StringRef Snapshot,
                                  llvm::StringRef DocsDir);

} // namespace libtorch_tidy::lsp

#endif // LIBTORCH_TIDY_DRIVER_LSP_DIAGNOSTICS_H
