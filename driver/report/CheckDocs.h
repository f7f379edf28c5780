//===--- CheckDocs.h - The checks' documentation pages ----------*- C++ -*-===//
//
// Part of libtorch-tidy. SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//
//
// docs/checks/<id>.md of every check, embedded at build time by a source that
// driver/report/EmbedCheckDocs.cmake generates, for SARIF rules' help.
//
//===----------------------------------------------------------------------===//

#ifndef LIBTORCH_TIDY_DRIVER_REPORT_CHECKDOCS_H
#define LIBTORCH_TIDY_DRIVER_REPORT_CHECKDOCS_H

#include "llvm/ADT/StringRef.h"

namespace libtorch_tidy::report {

/// The Markdown of docs/checks/\p Id.md; empty when the check has no page.
llvm::StringRef checkDocMarkdown(llvm::StringRef Id);

} // namespace libtorch_tidy::report

#endif // LIBTORCH_TIDY_DRIVER_REPORT_CHECKDOCS_H
