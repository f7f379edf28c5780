//===--- Findings.h - What the analyzer reported ----------------*- C++ -*-===//
//
// Part of libtorch-tidy. SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//
//
// Reads the findings of a libtorch-tidy run from its JSON report
// (`--format=json`, docs/output-formats.md): the CLI's own format, read with
// the JSON library the harness writes its reports with.
//
//===----------------------------------------------------------------------===//

#ifndef LIBTORCH_TIDY_RUNTIME_VERIFY_HARNESS_FINDINGS_H
#define LIBTORCH_TIDY_RUNTIME_VERIFY_HARNESS_FINDINGS_H

#include <string>
#include <vector>

namespace libtorch_tidy::verify {

struct Finding {
  std::string Check;
  std::string Message;
  std::string File;
  unsigned Offset = 0;
  unsigned Line = 0;   ///< 1-based
  bool HasFix = false; ///< the finding itself carries a fix-it
};

/// Appends the findings of a JSON report. Returns false and sets Error when
/// it is not one.
bool parseJsonReport(const std::string &Json, std::vector<Finding> &Out,
                     std::string &Error);

/// The metric a check's fix is expected to move, for the per-finding lines
/// (checks/Catalog.def's LIBTORCH_CHECK_METRIC rows).
enum class Metric {
  LocalScalarDensePerStep,
  HostSyncsPerStep,
  BlockingH2DPerStep,
  H2DPerStep,
  StepsPerSecond
};
Metric metricOf(const std::string &Check);

} // namespace libtorch_tidy::verify

#endif
