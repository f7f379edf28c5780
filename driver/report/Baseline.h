//===--- Baseline.h - Report only findings not in a baseline ----*- C++ -*-===//
//
// Part of libtorch-tidy. SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//
//
// `--baseline=<report>`: a `--format=json` report or a SARIF log of an
// earlier run. Findings whose fingerprint (Fingerprint.h) it contains are
// dropped before output and gating, so a legacy code base adopts the tool
// and fails CI only on new findings.
//
//===----------------------------------------------------------------------===//

#ifndef LIBTORCH_TIDY_DRIVER_REPORT_BASELINE_H
#define LIBTORCH_TIDY_DRIVER_REPORT_BASELINE_H

#include "model/Findings.h"
#include "llvm/ADT/ArrayRef.h"

#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Error.h"
#include <nlohmann/json.hpp>
#include <optional>
#include <set>
#include <string>

namespace libtorch_tidy::report {

/// The fingerprints recorded in a parsed baseline document. \p FileName
/// names it in the one-line error for anything that is neither format.
llvm::Expected<std::set<std::string>>
baselineFingerprints(const nlohmann::json &Document, llvm::StringRef FileName);

/// Reads and parses the baseline file \p Path.
llvm::Expected<std::set<std::string>> readBaseline(llvm::StringRef Path);

/// The files the findings of the baseline document \p Document are in, as
/// real paths where they exist: a SARIF log's results by their
/// root-relative URIs (resolved against \p Root), a JSON report's findings
/// by their absolute paths.
std::set<std::string> baselineFiles(const nlohmann::json &Document,
                                    llvm::StringRef Root);

/// Whether a baseline that names \p Named (baselineFiles()) names none of
/// this project's files: the units of its compilation database
/// (\p DatabaseFiles, selected by this run or not: a shard's baseline may
/// be the whole project's) and the files of \p Run's findings. It was then
/// taken in another checkout, or with another --sarif-root, or the run
/// started from another directory, so its fingerprints match nothing and
/// every finding would be reported as new without a word. False for a
/// baseline that names no file at all (no findings).
bool namesNoFileOf(const std::set<std::string> &Named,
                   const model::RunResult &Run,
                   llvm::ArrayRef<std::string> DatabaseFiles);

/// The document of the baseline file \p Path: readBaseline() is this and
/// baselineFingerprints(); the errors are the same one-line errors.
llvm::Expected<nlohmann::json> readBaselineDocument(llvm::StringRef Path);

/// Removes from every unit of \p Run the findings whose fingerprint is in
/// \p Known. Returns how many distinct findings were removed.
unsigned applyBaseline(model::RunResult &Run,
                       const std::set<std::string> &Known);

} // namespace libtorch_tidy::report

#endif // LIBTORCH_TIDY_DRIVER_REPORT_BASELINE_H
