//===--- SarifRules.h - SARIF rule descriptors for checks -------*- C++ -*-===//
//
// Part of libtorch-tidy. SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//
//
// A SARIF `reportingDescriptor` (a rule) for every check a run enabled or
// reported: ours from checks/Catalog.def and the check's docs page, other
// clang-tidy checks and compiler diagnostics with a link to its LLVM release's
// documentation of them.
//
//===----------------------------------------------------------------------===//

#ifndef LIBTORCH_TIDY_DRIVER_REPORT_SARIFRULES_H
#define LIBTORCH_TIDY_DRIVER_REPORT_SARIFRULES_H

#include "llvm/ADT/StringRef.h"
#include <nlohmann/json.hpp>
#include <string>

namespace libtorch_tidy::report {

/// The rule for \p CheckId.
nlohmann::json sarifRule(llvm::StringRef CheckId);

/// The description of a check from its docs page: the first paragraph after
/// the title and the tier line and, when that paragraph does not end a
/// sentence ("Finds ...:"), the list or example it introduces, as one line
/// of plain text (emphasis markers removed) that ends a sentence; at most
/// \p MaxLength bytes, cut after a sentence (GitHub's limit for descriptions
/// is 1024 characters).
std::string docDescription(llvm::StringRef Markdown, size_t MaxLength = 1024);

/// The documentation page (of the LLVM release the CLI is built against) of a
/// clang-tidy check or a compiler diagnostic (`clang-diagnostic-<flag>`; errors
/// get the diagnostics reference, an id without a module the list of checks).
std::string llvmDocsUrl(llvm::StringRef CheckId);

/// The docs page of one of our checks: `<LIBTORCH_TIDY_CHECK_DOCS_URI>/<id>.md`
/// (driver/CMakeLists.txt; by default docs/checks/ of the release's tag).
std::string checkDocsUrl(llvm::StringRef CheckId);

/// A rule's `name`: the id in CamelCase, a word starting at every letter or
/// digit after a character that is neither (`libtorch-host-sync-in-loop` ->
/// `LibtorchHostSyncInLoop`).
std::string ruleName(llvm::StringRef CheckId);

} // namespace libtorch_tidy::report

#endif // LIBTORCH_TIDY_DRIVER_REPORT_SARIFRULES_H
