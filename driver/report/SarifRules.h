//===--- SarifRules.h - SARIF rule descriptors for checks -------*- C++ -*-===//
//
// Part of libtorch-tidy. SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//
//
// A SARIF `reportingDescriptor` (a rule) for every check a run enabled or
// reported: ours from checks/Catalog.def and the check's docs page, other
// clang-tidy checks and compiler diagnostics with a link to LLVM 16's
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

/// The first paragraph of a docs page after its title and its tier line, as
/// one line of plain text (emphasis markers removed), at most \p MaxLength
/// bytes (GitHub's limit for descriptions is 1024 characters).
std::string docFirstParagraph(llvm::StringRef Markdown,
                              size_t MaxLength = 1024);

/// The LLVM 16 documentation page of a clang-tidy check or a compiler
/// warning (`clang-diagnostic-<flag>`); empty when there is none to name.
std::string llvmDocsUrl(llvm::StringRef CheckId);

} // namespace libtorch_tidy::report

#endif // LIBTORCH_TIDY_DRIVER_REPORT_SARIFRULES_H
