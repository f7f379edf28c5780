//===--- JsonReport.h - The `--format=json` document ------------*- C++ -*-===//
//
// Part of libtorch-tidy. SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//
//
// `--format=json` writes the run's JSON form (FindingsJson.h: tool, LibTorch
// version, enabled checks, and every unit with its findings) plus members
// derived from it for readers that want a flat list: `findings` (each finding
// once, in file and offset order), `filesAnalyzed`, `filesFailed` (with the
// reason) and `summary`. Reading it back (baselines, `merge`) uses only the
// run's own members, so the document is exactly as readable as the run is;
// docs/output-formats.md describes the layout.
//
//===----------------------------------------------------------------------===//

#ifndef LIBTORCH_TIDY_DRIVER_REPORT_JSONREPORT_H
#define LIBTORCH_TIDY_DRIVER_REPORT_JSONREPORT_H

#include "model/Findings.h"

#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Error.h"
#include <nlohmann/json.hpp>
#include <string>

namespace libtorch_tidy::report {

/// The `--format=json` document of \p Run. Units appear sorted by main file,
/// so a run and the merge of its shards give the same document.
nlohmann::json jsonReport(const model::RunResult &Run);

/// jsonReport(), serialized with two-space indentation and a final newline.
std::string renderJsonReport(const model::RunResult &Run);

/// True when \p Document looks like a `--format=json` document (or the bare
/// RunResult form), as opposed to a SARIF log.
bool isJsonReport(const nlohmann::json &Document);

/// Reads a `--format=json` document back. \p FileName names it in errors.
llvm::Expected<model::RunResult> readJsonReport(const nlohmann::json &Document,
                                                llvm::StringRef FileName);

/// Parses \p Text as JSON; a one-line error naming \p FileName otherwise.
llvm::Expected<nlohmann::json> parseJsonFile(llvm::StringRef Text,
                                             llvm::StringRef FileName);

} // namespace libtorch_tidy::report

#endif // LIBTORCH_TIDY_DRIVER_REPORT_JSONREPORT_H
