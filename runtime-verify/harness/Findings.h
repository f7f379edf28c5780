//===--- Findings.h - What the analyzer reported ----------------*- C++ -*-===//
//
// Part of libtorch-tidy. SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//
//
// Reads the findings of a libtorch-tidy run from its --export-fixes YAML
// (clang-tidy's format: every diagnostic, with or without replacements).
//
//===----------------------------------------------------------------------===//

#ifndef LIBTORCH_TIDY_VERIFY_FINDINGS_H
#define LIBTORCH_TIDY_VERIFY_FINDINGS_H

#include <string>
#include <vector>

namespace libtorch_tidy::verify {

struct Finding {
  std::string Check;
  std::string Message;
  std::string File;
  unsigned Offset = 0;
  unsigned Line = 0; ///< 1-based, from the offset; 0 if the file is unreadable
  bool HasFix = false; ///< the warning itself carries replacements
};

/// Parses an export-fixes YAML document. Returns false and sets Error when
/// it is not one.
bool parseExportedFixes(const std::string &Yaml, std::vector<Finding> &Out,
                        std::string &Error);

/// The metric a check's fix is expected to move, for the per-finding lines.
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
