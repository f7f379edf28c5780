//===--- Findings.cpp - What the analyzer reported ------------------------===//
//
// Part of libtorch-tidy. SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

#include "Findings.h"

#include <nlohmann/json.hpp>

namespace libtorch_tidy::verify {

bool parseJsonReport(const std::string &Json, std::vector<Finding> &Out,
                     std::string &Error) {
  const nlohmann::json Report =
      nlohmann::json::parse(Json, /*cb=*/nullptr, /*allow_exceptions=*/false);
  if (!Report.is_object() || !Report.contains("findings") ||
      !Report["findings"].is_array() || !Report.contains("tool")) {
    Error = "not a libtorch-tidy JSON report";
    return false;
  }
  try {
    for (const nlohmann::json &J : Report["findings"]) {
      Finding F;
      F.Check = J.at("checkId").get<std::string>();
      F.Message = J.at("message").get<std::string>();
      const nlohmann::json &At = J.at("location");
      F.File = At.at("absoluteFile").get<std::string>();
      F.Offset = At.at("offset").get<unsigned>();
      F.Line = At.at("begin").at("line").get<unsigned>();
      F.HasFix = !J.at("fixes").empty();
      Out.push_back(std::move(F));
    }
  } catch (const nlohmann::json::exception &E) {
    Error = std::string("a finding the report's format does not have (") +
            E.what() + ")";
    Out.clear();
    return false;
  }
  return true;
}

Metric metricOf(const std::string &Check) {
  // The checks' own rows of the catalog say nothing of metrics.
#define LIBTORCH_CHECK(Id, Class, Tier, HasFixIt, Evidence, Summary)
#define LIBTORCH_CHECK_METRIC(Id, Moved)                                       \
  if (Check == (Id))                                                           \
    return Metric::Moved;
#include "Catalog.def"
  return Metric::StepsPerSecond;
}

} // namespace libtorch_tidy::verify
