//===--- AnalysisSettings.cpp - How one unit is analyzed ------------------===//
//
// Part of libtorch-tidy. SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

#include "run/AnalysisSettings.h"
#include <type_traits>

namespace libtorch_tidy::run {

std::string settingsKey(const AnalysisSettings &Settings) {
  std::string Key;
  forEachSetting(Settings,
                 [&](const char *Name, const auto &Value, Keyed InKey) {
                   if (InKey == Keyed::No)
                     return;
                   if (!Key.empty())
                     Key += ' ';
                   Key += Name;
                   Key += '=';
                   using T = std::decay_t<decltype(Value)>;
                   if constexpr (std::is_same_v<T, bool>)
                     Key += Value ? "1" : "0";
                   else if constexpr (std::is_integral_v<T>)
                     Key += std::to_string(Value);
                   else
                     Key += Value;
                 });
  return Key;
}

} // namespace libtorch_tidy::run
