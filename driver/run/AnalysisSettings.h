//===--- AnalysisSettings.h - How one unit is analyzed ----------*- C++ -*-===//
//
// Part of libtorch-tidy. SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//
//
// The settings of one unit's analysis that do not come from the
// configuration (.clang-tidy) or the compile command. Each is named once in
// forEachSetting(), which says whether it changes the unit's result and so
// belongs in the result cache's key (settingsKey()); a unit test fails when a
// field is added to AnalysisSettings without being named there.
//
//===----------------------------------------------------------------------===//

#ifndef LIBTORCH_TIDY_DRIVER_RUN_ANALYSISSETTINGS_H
#define LIBTORCH_TIDY_DRIVER_RUN_ANALYSISSETTINGS_H

#include "worker/PrefixRole.h"
#include <cstdint>
#include <string>

namespace libtorch_tidy::run {

struct AnalysisSettings {
  /// Skip the bodies of non-template, non-constexpr functions without a
  /// deduced return type that are declared in system headers. Off only to
  /// show that skipping does not change any finding.
  bool SkipSystemBodies = true;
  /// clang-tidy's ApplyAnyFix: fixes of notes take part in conflict removal
  /// (`--fix-notes`).
  bool FixNotes = false;
  /// clang-tidy's `--enable-module-headers-parsing` and
  /// `--experimental-custom-checks`, given to its context.
  bool EnableModuleHeadersParsing = false;
  bool ExperimentalCustomChecks = false;
  /// Time each check (`--enable-check-profile`); the times go to
  /// TranslationUnitResult::CheckProfile.
  bool EnableCheckProfile = false;
  /// `--store-check-profile`: with EnableCheckProfile, the directory that
  /// gets clang-tidy's JSON profile of the unit (CheckProfile stays empty).
  std::string StoreCheckProfile;
  /// The directory of the precompiled include prefixes
  /// (driver/preamble/PrecompiledPrefixes.h), the result cache's; empty for
  /// none (`--no-preamble`, `--no-cache`).
  std::string PreambleDirectory;
  /// `--preamble=always`: build a missing prefix even when it does not pay.
  bool PreambleAlways = false;
  /// Set by the parent for a worker: another unit of the run starts with the
  /// same includes, so a prefix built for this one pays.
  bool PreambleShared = false;
  /// `--cache-max-size`: a prefix larger than this is not kept, nor built
  /// again while it would be as large (0: no cap).
  std::uint64_t PreambleMaxBytes = 0;
  /// `--vfsoverlay` maps files: a prefix whose build read one of them
  /// through another path is not used.
  bool PreambleOverlay = false;
  /// Set by the language server for its worker: the file that gets one line
  /// when the unit starts building its prefix (`building <headers>`) or
  /// waiting for another process's build (`waiting <headers>`).
  std::string PreambleNotice;
  /// Set by the parent or the language server for a worker.
  worker::PrefixRole Prefix = worker::PrefixRole::Analyze;
  /// `--summaries=cached` or `current`: the checks read the summaries of
  /// the compile database's other units (run/DatabaseSummaries.h).
  bool DatabaseSummaries = true;
};

/// Whether a setting is part of the result cache's key.
enum class Keyed {
  /// It changes the findings or fixes of a unit.
  Yes,
  /// It does not: the reason is said where it is named.
  No,
};

/// Calls \p Visit(Name, Value, Keyed) for every field of \p Settings, in
/// declaration order. Every field must be named here (the unit test
/// AnalysisSettingsTest counts them).
template <typename Visitor>
void forEachSetting(const AnalysisSettings &Settings, Visitor &&Visit) {
  Visit("skip-system-bodies", Settings.SkipSystemBodies, Keyed::Yes);
  Visit("fix-notes", Settings.FixNotes, Keyed::Yes);
  Visit("enable-module-headers-parsing", Settings.EnableModuleHeadersParsing,
        Keyed::Yes);
  Visit("experimental-custom-checks", Settings.ExperimentalCustomChecks,
        Keyed::Yes);
  // A profile is never replayed: a run that asks for one analyzes every
  // unit, and a stored result drops the times (ResultCache::store).
  Visit("enable-check-profile", Settings.EnableCheckProfile, Keyed::No);
  Visit("store-check-profile", Settings.StoreCheckProfile, Keyed::No);
  // A unit's findings are the same with and without a precompiled prefix
  // (test/parse_equality.py): how it was parsed is not part of its key.
  Visit("preamble-directory", Settings.PreambleDirectory, Keyed::No);
  Visit("preamble-always", Settings.PreambleAlways, Keyed::No);
  Visit("preamble-shared", Settings.PreambleShared, Keyed::No);
  Visit("preamble-max-bytes", Settings.PreambleMaxBytes, Keyed::No);
  Visit("preamble-overlay", Settings.PreambleOverlay, Keyed::No);
  // What the editor is told while a prefix builds.
  Visit("preamble-notice", Settings.PreambleNotice, Keyed::No);
  // Who builds a missing prefix; a builder's result is never stored.
  Visit("prefix-role", static_cast<int>(Settings.Prefix), Keyed::No);
  // With them a unit's findings include waits in other units' functions.
  // Which summaries it read is checked at lookup, not keyed
  // (TranslationUnitResult::SummaryAnswers).
  Visit("database-summaries", Settings.DatabaseSummaries, Keyed::Yes);
}

/// The part of a unit's cache key that the settings make: every Keyed::Yes
/// setting as `name=value`, separated by spaces (booleans as 1 and 0).
std::string settingsKey(const AnalysisSettings &Settings);

} // namespace libtorch_tidy::run

#endif // LIBTORCH_TIDY_DRIVER_RUN_ANALYSISSETTINGS_H
