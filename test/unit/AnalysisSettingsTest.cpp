//===--- AnalysisSettingsTest.cpp - The settings in the cache key ---------===//
//
// Part of libtorch-tidy. SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

#include "run/AnalysisSettings.h"
#include "gtest/gtest.h"
#include <cstddef>
#include <set>
#include <string>
#include <type_traits>
#include <utility>

using namespace libtorch_tidy::run;

// Named, not anonymous: the unit tests compile in unity batches
// (CMakeLists.txt), where the helpers of one file must not meet another's.
namespace analysis_settings_test {

/// Converts to any field's type: `T{Any{}, Any{}}` compiles while T has at
/// least that many fields.
struct Any {
  template <typename T> operator T() const { return T(); }
};

template <std::size_t> using AnyAt = Any;

template <typename T, typename Seq, typename = void>
struct InitializableWith : std::false_type {};
template <typename T, std::size_t... I>
struct InitializableWith<T, std::index_sequence<I...>,
                         std::void_t<decltype(T{AnyAt<I>{}...})>>
    : std::true_type {};

/// The number of fields of the aggregate \p T.
template <typename T, std::size_t N = 0> constexpr std::size_t fieldCount() {
  if constexpr (InitializableWith<T, std::make_index_sequence<N + 1>>::value)
    return fieldCount<T, N + 1>();
  else
    return N;
}

} // namespace analysis_settings_test

// A setting added to AnalysisSettings must be named in forEachSetting(),
// which decides whether it is part of the cache key: else a run with the
// new setting would replay results of a run without it.
TEST(AnalysisSettingsTest, EverySettingIsNamed) {
  std::size_t Named = 0;
  std::set<std::string> Names;
  forEachSetting(AnalysisSettings(),
                 [&](const char *Name, const auto &, Keyed) {
                   ++Named;
                   Names.insert(Name);
                 });
  EXPECT_EQ(Named, analysis_settings_test::fieldCount<AnalysisSettings>())
      << "a field of AnalysisSettings is not named in forEachSetting()";
  EXPECT_EQ(Names.size(), Named) << "two settings share a name";
}

TEST(AnalysisSettingsTest, KeyedSettingsChangeTheKey) {
  const AnalysisSettings Default;
  EXPECT_EQ(settingsKey(Default),
            "skip-system-bodies=1 fix-notes=0 enable-module-headers-parsing=0 "
            "experimental-custom-checks=0 database-summaries=1");
  AnalysisSettings NoSummaries;
  NoSummaries.DatabaseSummaries = false;
  EXPECT_NE(settingsKey(NoSummaries), settingsKey(Default));
  AnalysisSettings NoSkipping;
  NoSkipping.SkipSystemBodies = false;
  EXPECT_NE(settingsKey(NoSkipping), settingsKey(Default));
  AnalysisSettings FixNotes;
  FixNotes.FixNotes = true;
  EXPECT_NE(settingsKey(FixNotes), settingsKey(Default));
}

TEST(AnalysisSettingsTest, UnkeyedSettingsDoNotChangeTheKey) {
  const AnalysisSettings Default;
  AnalysisSettings Profile;
  Profile.EnableCheckProfile = true;
  Profile.StoreCheckProfile = "profiles";
  EXPECT_EQ(settingsKey(Profile), settingsKey(Default));
  AnalysisSettings Preamble;
  Preamble.PreambleDirectory = "cache";
  Preamble.PreambleAlways = true;
  Preamble.PreambleShared = true;
  Preamble.PreambleNotice = "notice";
  Preamble.Prefix = libtorch_tidy::worker::PrefixRole::ReuseOnly;
  EXPECT_EQ(settingsKey(Preamble), settingsKey(Default));
}
