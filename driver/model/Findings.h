//===--- Findings.h - What one run of libtorch-tidy found -----------------===//
//
// Part of libtorch-tidy. SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//
//
// The tool-independent record of an analysis: one TranslationUnitResult per
// analyzed source file, gathered into a RunResult. Everything downstream of
// the analysis works on these values and never on clang-tidy's types: the
// text, JSON and SARIF writers, baselines, diff filtering, `merge`, the
// result cache and the fix applier. FindingsJson.h gives them one JSON form,
// which is also how a worker process hands its result to the parent.
//
//===----------------------------------------------------------------------===//

#ifndef LIBTORCH_TIDY_DRIVER_MODEL_FINDINGS_H
#define LIBTORCH_TIDY_DRIVER_MODEL_FINDINGS_H

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/StringRef.h"
#include <map>
#include <string>
#include <tuple>
#include <vector>

namespace libtorch_tidy::model {

/// A point in a source file. Lines and columns are 1-based; 0 means unknown.
struct Position {
  unsigned Line = 0;
  /// Column in bytes, as compilers print it.
  unsigned Column = 0;
  /// Column in UTF-16 code units, as editors (LSP, SARIF viewers) count it.
  unsigned ColumnUtf16 = 0;
};

/// A range in one file. `End` is exclusive (the position after the range);
/// it equals `Begin` when only a point is known.
struct Location {
  /// The file as the compiler saw it (the spelling in the compile command or
  /// the #include that reached it).
  std::string File;
  /// The same file as an absolute, normalized path.
  std::string AbsoluteFile;
  /// Byte offset of `Begin` in the file.
  unsigned Offset = 0;
  Position Begin;
  Position End;
};

/// One textual edit: replace `Length` bytes at `Offset` of `File` (absolute)
/// by `Text`.
struct Replacement {
  std::string File;
  unsigned Offset = 0;
  unsigned Length = 0;
  std::string Text;
};

/// A source range a diagnostic highlights, as clang-tidy records it (its
/// `Ranges`): `Length` bytes at `Offset` of `File` (spelled as the compiler
/// saw it). Kept so `--export-fixes` writes what clang-tidy writes.
struct ByteRange {
  std::string File;
  unsigned Offset = 0;
  unsigned Length = 0;
};

/// A note attached to a finding (e.g. "first forward call on device inputs is
/// here"), with the fix-its clang-tidy attaches to notes (`--fix-notes`).
struct Note {
  std::string Message;
  Location Where;
  std::vector<Replacement> Fixes;
  std::vector<ByteRange> Ranges;
};

struct Finding {
  /// `libtorch-host-sync-in-loop`, or another clang-tidy check's name, or
  /// `clang-diagnostic-<name>` for a compiler diagnostic.
  std::string CheckId;
  /// `default` or `opt-in` for our checks (Catalog.def); empty for others.
  std::string Tier;
  /// `warning` or `error` (warnings-as-errors, compiler errors).
  std::string Severity = "warning";
  std::string Message;
  Location Where;
  std::vector<Note> Notes;
  /// The finding's own fix-its, applied by `--fix`.
  std::vector<Replacement> Fixes;
  /// The ranges the diagnostic highlights (may be empty).
  std::vector<ByteRange> Ranges;
  /// Stable identity for baselines and SARIF: derived from the check, the
  /// file relative to the project root, and the content of the reported line
  /// (not its number), so unrelated edits above it do not change it. Empty
  /// until the report stage assigns it.
  std::string Fingerprint;
};

/// Diagnostics the analysis did not report, by reason (clang-tidy's
/// "Suppressed N warnings" line).
struct SuppressedCounts {
  unsigned NoLint = 0;
  unsigned NonUserCode = 0;
  unsigned LineFilter = 0;
  unsigned CheckFilter = 0;
  /// Findings that may come from code that did not parse: a unit with
  /// compile errors reports only what the errors cannot have changed
  /// (driver/run/ParseRecovery.h).
  unsigned UnparsedCode = 0;
};

/// What the analysis of one source file produced.
struct TranslationUnitResult {
  enum class Status {
    /// Parsed and analyzed.
    Analyzed,
    /// The compiler reported errors; checks still ran on what parsed
    /// (exit code 3).
    CompileErrors,
    /// Nothing could be analyzed: the worker crashed, timed out, or the file
    /// could not be read (exit code 3). `FailureMessage` says why.
    Failed,
  };

  /// The source file (absolute) that was compiled.
  std::string MainFile;
  Status State = Status::Analyzed;
  /// One line, for `Failed` units and for a summary of compile errors.
  std::string FailureMessage;
  /// Check findings, in the order the checks reported them. May include
  /// findings in user headers the unit includes.
  std::vector<Finding> Findings;
  /// Compiler errors (`clang-diagnostic-*`, severity `error`). Not findings:
  /// they do not count for exit code 1 and have no fingerprint.
  std::vector<Finding> CompilerErrors;
  /// Headers the unit includes that were not found, as the #include spells
  /// them: the unit was analyzed past them, in part (ParseRecovery.h).
  std::vector<std::string> MissingHeaders;
  /// LibTorch version seen in the unit (`TORCH_VERSION` from torch/version.h,
  /// e.g. "1.13.0"); empty when the unit does not include LibTorch.
  std::string LibTorchVersion;
  /// A digest of the content of every file that has findings or fixes, as the
  /// analysis read it, keyed by absolute path. `--fix` refuses to write a file
  /// whose content no longer matches (it changed since it was read).
  std::map<std::string, std::string> ContentDigests;
  /// True when the result was replayed from the result cache.
  bool FromCache = false;
  /// How the unit used a precompiled include prefix: "built", "reused",
  /// "rebuilt" (built in place of a damaged one, which was removed), or
  /// empty for none (driver/preamble/PrecompiledPrefixes.h). Like FromCache,
  /// how this run got the result, not part of it: reports leave it out.
  std::string Preamble;
  /// The compile command's working directory (clang-tidy's BuildDirectory),
  /// against which relative paths in the unit resolve.
  std::string BuildDirectory;
  SuppressedCounts Suppressed;
  /// `--enable-check-profile`: seconds (wall) each check's matchers took in
  /// this unit, keyed by check name; empty when profiling was off.
  std::map<std::string, double> CheckProfile;
  /// What the functions of the main file do, for the units that call them
  /// (checks/Summaries.h): UnitSummaries::Text, the JSON array of the
  /// summary file's "functions", as text; empty when nothing was
  /// summarized. Kept by the cache and `--export-summaries`; reports leave
  /// it out.
  std::string FunctionSummaries;
  /// The USRs of the project's functions the unit calls without holding
  /// their bodies (UnitSummaries::CalledElsewhere), sorted; and, for a
  /// unit analyzed with the summaries of the compile database's other
  /// units (`--summaries`), a digest of what those summaries
  /// answered for them (run/DatabaseSummaries.h). A cached result is
  /// replayed only while the summaries answer the same. Kept by the cache
  /// and workers; reports leave them out.
  std::vector<std::string> CalledElsewhere;
  std::string SummaryAnswers;
};

/// Everything one invocation found, ready for a writer.
struct RunResult {
  std::string ToolName = "libtorch-tidy";
  std::string ToolVersion;
  /// Every LibTorch version the units reported (a database may build some
  /// targets against one LibTorch and some against another): distinct,
  /// oldest first, joined by ", " (libTorchVersions()); empty if none.
  std::string LibTorchVersion;
  std::vector<std::string> EnabledChecks;
  std::vector<TranslationUnitResult> Units;
};

/// A finding or compiler error to print or export, with the unit that
/// reported it (its build directory resolves relative paths).
struct ReportedDiagnostic {
  const Finding *Diagnostic;
  const TranslationUnitResult *Unit;
};

/// What makes two copies of a finding the same finding: check, file
/// (absolute), offset and message. A finding in a header that several units
/// include is reported by each of them with this key; the text output, the
/// fingerprints, `--fix` and uniqueDiagnostics() all tell findings apart by
/// it, so that they agree on which ones are the same.
using FindingKey = std::tuple<std::string, std::string, unsigned, std::string>;
FindingKey keyOf(const Finding &F);

/// \p Unit without its fix-its (its findings' and their notes'): what is
/// shown of a result that came from the network.
void dropEdits(TranslationUnitResult &Unit);

/// The LibTorch versions of \p Versions, each a version or such a list
/// (a unit's, a report's), as RunResult::LibTorchVersion holds them:
/// distinct, ordered by their numbers, joined by ", ".
std::string libTorchVersions(llvm::ArrayRef<std::string> Versions);

/// Findings (and, if asked, compiler errors) of all units, each once: a
/// diagnostic in a header that several units include is kept once (same
/// check, file, offset and message). Ordered by file, offset, check and
/// message, so the output does not depend on the order units finished in.
/// The pointers stay valid while \p Run is unchanged.
std::vector<ReportedDiagnostic> uniqueDiagnostics(const RunResult &Run,
                                                  bool WithCompilerErrors);

/// Every finding of the run once: a finding in a header that several units
/// include is reported by each of them and kept here only once; in the order
/// of uniqueDiagnostics().
std::vector<Finding> uniqueFindings(const RunResult &Run);

/// Lowercase hex SHA-256 of \p Content, as ContentDigests holds it.
std::string contentDigest(llvm::StringRef Content);

/// Units whose state is not `Analyzed`.
std::vector<const TranslationUnitResult *>
unitsWithProblems(const RunResult &Run);

} // namespace libtorch_tidy::model

#endif // LIBTORCH_TIDY_DRIVER_MODEL_FINDINGS_H
