//===--- FindingsJson.h - The JSON form of findings -----------------------===//
//
// Part of libtorch-tidy. SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//
//
// One JSON form for Findings.h's values, used for `--format=json`, for
// `merge` and baselines reading it back, for the result cache, and for a
// worker process handing its TranslationUnitResult to the parent. Reading is
// strict: a missing or mistyped member throws nlohmann::json::exception, which
// callers turn into a one-line error naming the file.
//
//===----------------------------------------------------------------------===//

#ifndef LIBTORCH_TIDY_DRIVER_MODEL_FINDINGSJSON_H
#define LIBTORCH_TIDY_DRIVER_MODEL_FINDINGSJSON_H

#include "model/Findings.h"

#include <nlohmann/json.hpp>

namespace libtorch_tidy::model {

void to_json(nlohmann::json &J, const Position &P);
void from_json(const nlohmann::json &J, Position &P);
void to_json(nlohmann::json &J, const Location &L);
void from_json(const nlohmann::json &J, Location &L);
void to_json(nlohmann::json &J, const Replacement &R);
void from_json(const nlohmann::json &J, Replacement &R);
void to_json(nlohmann::json &J, const ByteRange &R);
void from_json(const nlohmann::json &J, ByteRange &R);
void to_json(nlohmann::json &J, const SuppressedCounts &S);
void from_json(const nlohmann::json &J, SuppressedCounts &S);
void to_json(nlohmann::json &J, const Note &N);
void from_json(const nlohmann::json &J, Note &N);
void to_json(nlohmann::json &J, const Finding &F);
void from_json(const nlohmann::json &J, Finding &F);
void to_json(nlohmann::json &J, const TranslationUnitResult &U);
void from_json(const nlohmann::json &J, TranslationUnitResult &U);
void to_json(nlohmann::json &J, const RunResult &R);
void from_json(const nlohmann::json &J, RunResult &R);

/// Version of the JSON layout; bump when a member changes meaning.
inline constexpr int FindingsJsonVersion = 1;

} // namespace libtorch_tidy::model

#endif // LIBTORCH_TIDY_DRIVER_MODEL_FINDINGSJSON_H
