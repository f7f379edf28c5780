//===--- DatabaseSummaries.h - Other units' summaries for a run -*- C++ -*-===//
//
// Part of libtorch-tidy. SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//
//
// `--summaries=cached` (the default) and `current`: the checks that read
// what functions defined in other units do (Catalog.def) get the summaries
// of the compile database's units, not only of a file exported by hand.
//
// The run gathers them from the result cache (a unit's cached result holds
// its summaries, model::TranslationUnitResult::FunctionSummaries). The
// units whose results are stale contribute nothing with `cached`, and are
// said to; with `current` they are analyzed in the same round as the units
// asked for, their findings left out. (`cached` is the default: a run of
// one file, or one run per file in parallel, must not analyze the project.)
// Each worker reads the table from a file of its own (run/Workers.h), as
// `libtorch-tidy.SummaryFile`.
//
// A unit's result depends on the table only through the functions it
// calls without their bodies (CalledElsewhere): the result records a digest
// of what the table answered for them (SummaryAnswers), and is replayed, or
// printed at the end of its round, only while the table still answers the
// same. A unit analyzed before the units it calls into is analyzed once
// more with their summaries (a second round); summaries do not depend on
// the table, so two rounds always suffice.
//
//===----------------------------------------------------------------------===//

#ifndef LIBTORCH_TIDY_DRIVER_RUN_DATABASESUMMARIES_H
#define LIBTORCH_TIDY_DRIVER_RUN_DATABASESUMMARIES_H

#include "Summaries.h"
#include "clang-tidy/ClangTidyOptions.h"
#include "run/SchedulerOptions.h"
#include "units/CompilationSetup.h"
#include "clang/Tooling/CompilationDatabase.h"
#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Error.h"
#include <map>
#include <optional>
#include <string>
#include <vector>

namespace libtorch_tidy::run {

/// Whether the run gathers the database's summaries: `--summaries` not off,
/// an enabled check reads them, and the configuration of \p FirstFile names
/// no summary file of its own (which then governs, as it does in the
/// clang-tidy plugin).
bool wantsDatabaseSummaries(const SchedulerOptions &Tool,
                            clang::tidy::ClangTidyOptionsProvider &Provider,
                            llvm::StringRef FirstFile);

/// The database's units other than \p Selected that a worker can analyze
/// (regular files, not CUDA sources), normalized as the selected ones are.
std::vector<std::string>
otherDatabaseUnits(const clang::tooling::CompilationDatabase &Database,
                   llvm::ArrayRef<std::string> Selected);

/// For a worker the language server started for \p Unit: the summary file
/// text of the database's other units whose results the local result cache
/// holds, unchanged (none is analyzed for them: an edit must not wait for
/// the project); empty when the run gathers none (wantsDatabaseSummaries)
/// or the cache holds none.
std::string
cachedDatabaseSummaries(const SchedulerOptions &Tool,
                        const CompilationSetup &Setup,
                        clang::tidy::ClangTidyOptionsProvider &Provider,
                        llvm::StringRef Unit, llvm::StringRef Executable);

/// The summaries a run gathers (analyzeUnits).
struct SummaryScope {
  /// wantsDatabaseSummaries().
  bool Enabled = false;
  /// otherDatabaseUnits().
  std::vector<std::string> OtherUnits;
  /// Whether other units without a cached result are analyzed for their
  /// summaries (`--summaries=current`). Not for a shard: every shard would
  /// analyze the others' units; a shard uses what the cache holds.
  bool AnalyzeStale = true;
};

/// The summaries a run knows, by unit.
class DatabaseSummaries {
public:
  DatabaseSummaries() = default;
  /// Sets \p MainFile's summaries: \p FunctionsJson as a result holds them
  /// (empty for none). Summaries that cannot be read count as none.
  void set(llvm::StringRef MainFile, llvm::StringRef FunctionsJson);

  /// The summaries as they are now, for digests of what a round read.
  DatabaseSummaries snapshot() const;

  /// The table as a summary file holds it (SummaryTable.h).
  std::string fileText() const;
  bool empty() const { return Units.empty(); }

  /// A digest of what the table answers for \p Usrs (a unit's
  /// CalledElsewhere): equal digests, equal findings.
  std::string answersDigest(llvm::ArrayRef<std::string> Usrs) const;

private:
  DatabaseSummaries(
      std::map<std::string,
               std::vector<clang::tidy::libtorch::summaries::FunctionSummary>>
          Units);
  const clang::tidy::libtorch::summaries::SummaryTable &table() const;
  std::vector<clang::tidy::libtorch::summaries::SummarizedUnit>
  summarizedUnits() const;

  std::map<std::string,
           std::vector<clang::tidy::libtorch::summaries::FunctionSummary>>
      Units;
  /// Built on first use after a change.
  mutable std::optional<clang::tidy::libtorch::summaries::SummaryTable> Table;
};

} // namespace libtorch_tidy::run

#endif // LIBTORCH_TIDY_DRIVER_RUN_DATABASESUMMARIES_H
