//===--- SarifWriter.h - The `--format=sarif` log ---------------*- C++ -*-===//
//
// Part of libtorch-tidy. SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//
//
// SARIF 2.1.0 as GitHub code scanning accepts it: one run; a rule per enabled
// or reporting check; results with repo-relative locations under the
// `%SRCROOT%` base (the project root), UTF-16 columns, two
// `partialFingerprints`: `primaryLocationLineHash` exactly as GitHub's upload
// computes it (FingerprintLineHash.h) and our edit-stable fingerprint
// (Fingerprint.h) under `libtorchTidy/v1`, notes as related locations,
// and fix-its as `fixes` (reviewdog and SARIF viewers apply them). Files that
// could not be analyzed and compiler errors become tool execution
// notifications. Everything is in a canonical order (no time stamps), so a
// run and the merge of its shards produce the same log.
//
//===----------------------------------------------------------------------===//

#ifndef LIBTORCH_TIDY_DRIVER_REPORT_SARIFWRITER_H
#define LIBTORCH_TIDY_DRIVER_REPORT_SARIFWRITER_H

#include "SourceText.h"
#include "model/Findings.h"

#include <nlohmann/json.hpp>
#include <string>

namespace libtorch_tidy::report {

inline constexpr const char *SarifSchemaUri =
    "https://docs.oasis-open.org/sarif/sarif/v2.1.0/errata01/os/schemas/"
    "sarif-schema-2.1.0.json";
/// The `uriBaseId` of every repo-relative location.
inline constexpr const char *SarifRootBaseId = "%SRCROOT%";
/// The `partialFingerprints` member that holds a finding's fingerprint
/// (Fingerprint.h), which `--baseline`, `merge` and CI gates compare.
inline constexpr const char *SarifFingerprintKey = "libtorchTidy/v1";

struct SarifOptions {
  /// Absolute directory that relative URIs are relative to (`--sarif-root`).
  std::string ProjectRoot;
  /// `tool.driver.informationUri`.
  std::string InformationUri;
};

/// The SARIF log of \p Run. \p Sources gives the text of files that fix-its
/// edit, to express their regions in lines and UTF-16 columns.
nlohmann::json sarifLog(const model::RunResult &Run,
                        const SarifOptions &Options, SourceFiles &Sources);

/// sarifLog(), serialized with two-space indentation and a final newline.
std::string renderSarif(const model::RunResult &Run,
                        const SarifOptions &Options, SourceFiles &Sources);

/// Sorts a SARIF run's rules (by id), results (by location, rule, message),
/// notifications and analyzed files, removes repeated notifications, and
/// points every result's `ruleIndex` at its rule again.
void canonicalizeSarifRun(nlohmann::json &Run);

/// True when \p Document looks like a SARIF log.
bool isSarifLog(const nlohmann::json &Document);

} // namespace libtorch_tidy::report

#endif // LIBTORCH_TIDY_DRIVER_REPORT_SARIFWRITER_H
