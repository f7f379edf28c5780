//===--- SummaryTable.h - The summaries of a project's units ----*- C++ -*-===//
//
// Part of libtorch-tidy. SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//
//
// The summary file (`libtorch-tidy --export-summaries=FILE`, read by the
// checks from the `libtorch-tidy.SummaryFile` option; its text:
// SummaryFile.h): the summaries of every unit's functions
// (summaries/FunctionSummary.h), and the question the checks ask of it: does a
// call of a function whose body this unit does not hold wait for the GPU,
// through which calls, and where; does it run a backward pass or an optimizer
// step (the training-loop model's question).
//
// The file is data another run wrote, perhaps long ago: each place it names
// is pointed at only when the file there still holds the token it recorded.
// A table parses only the summaries its questions reach, when first asked.
//
//===----------------------------------------------------------------------===//

#ifndef LIBTORCH_TIDY_CHECKS_ANALYSIS_SUMMARIES_SUMMARYTABLE_H
#define LIBTORCH_TIDY_CHECKS_ANALYSIS_SUMMARIES_SUMMARYTABLE_H

#include "analysis/summaries/FunctionSummary.h"
#include "analysis/summaries/SummaryFile.h"
#include "clang/Basic/SourceManager.h"
#include "llvm/ADT/STLFunctionalExtras.h"
#include "llvm/ADT/SmallBitVector.h"
#include "llvm/ADT/StringMap.h"
#include "llvm/Support/Error.h"
#include <memory>
#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace clang::tidy::libtorch::analysis {

/// A fact reached from a call of a function defined in another unit.
template <typename Fact> struct ReachedElsewhere {
  /// The calls from the function called here to the one with the fact,
  /// each at its place (empty when the function called has it itself).
  std::vector<SummarizedCall> Calls;
  Fact What;
};
/// The parameters of a function that a call gives tensors in host memory,
/// by index (SummarizedSync::Parameter).
using HostParameters = llvm::SmallBitVector;

/// A wait reached from a call of a function defined in another unit.
using SyncElsewhere = ReachedElsewhere<SummarizedSync>;
/// A host tensor made and copied to the GPU, reached likewise.
using HostCopyElsewhere = ReachedElsewhere<SummarizedHostCopy>;

class SummaryTable {
public:
  SummaryTable() = default;
  explicit SummaryTable(const std::vector<SummarizedUnit> &Units);

  /// Reads the summary file at \p Path through \p SM, so that what the
  /// unit read includes it (the CLI replays a cached result only while
  /// the file is unchanged).
  static llvm::Expected<SummaryTable> read(llvm::StringRef Path,
                                           SourceManager &SM);

  /// The nearest wait on every call of the function with USR \p Usr,
  /// through at most CallDepth::CallerChain calls, when the call gives the
  /// parameters in \p Host tensors in host memory: a wait that reads one of
  /// them (SummarizedSync::Parameter), or one that the calls on the way hand
  /// on (SummarizedCall::Arguments), waits for nothing.
  std::optional<SyncElsewhere>
  syncReachedBy(llvm::StringRef Usr, const HostParameters &Host = {}) const;
  /// syncReachedBy for \p Call, given the tensors its arguments provably
  /// keep in host memory (`lengths.cpu()`), when it calls a function of the
  /// project whose body this unit does not hold (not a virtual one).
  std::optional<SyncElsewhere> syncOfCall(const CallExpr &Call,
                                          ASTContext &Context) const;
  /// Every wait of the function with USR \p Usr, on every call or on some,
  /// is a copy of a tensor to the host or a print, and it calls no other
  /// function of the project: it takes results to the host (writes, draws
  /// or decodes them).
  bool onlyCopiesToHost(llvm::StringRef Usr) const;
  /// The nearest host tensor made and copied to the GPU on every call of
  /// the function with USR \p Usr, likewise.
  std::optional<HostCopyElsewhere> hostCopyReachedBy(llvm::StringRef Usr) const;

  /// How far a call of the function with USR \p Usr is from a parameter
  /// update, through its own unit; nothing when it reaches none.
  std::optional<SummarizedUpdates> updatesOf(llvm::StringRef Usr) const;

  /// What the table answers about \p Usr, as text: every name and place a
  /// finding about a wait or a host copy and its notes would show
  /// (syncReachedBy, hostCopyReachedBy), and its updates; empty when it answers
  /// nothing. A result that asked about \p Usr holds while this text is the
  /// same.
  std::string answerText(llvm::StringRef Usr) const;

  /// \p Call as a wait, when syncOfCall finds one.
  std::optional<HostSync> waitOfCall(const CallExpr &Call,
                                     ASTContext &Context) const;

  /// What \p Call reaches, when it calls a function of the project whose
  /// body this unit does not hold (as for waitOfCall) and whose summary
  /// makes a host tensor and copies it to the GPU, directly or through its
  /// calls.
  std::optional<HostCopyElsewhere> hostCopyOfCall(const CallExpr &Call) const;

  /// \p Call calls a function of the project whose body this unit does not
  /// hold (as for waitOfCall) and whose every return is a tensor on the
  /// device.
  bool returnsDeviceTensor(const CallExpr &Call) const;

  bool empty() const { return Lines.empty(); }

  /// The project its notes may point into (summaryProject()).
  const std::string &project() const { return Project; }
  /// True the first time it is asked: a unit names a table's notes outside
  /// its project once.
  bool firstNoteOutsideProject() const {
    return !std::exchange(WarnedOutsideProject, true);
  }

private:
  /// The nearest function, from the one with USR \p Usr through at most
  /// CallDepth::CallerChain calls, that \p Has accepts, with the calls on
  /// the way.
  /// \p Has is also told which parameters of the function it is asked
  /// about are given host tensors, when the first one is given \p Host.
  std::optional<std::pair<std::vector<SummarizedCall>, const FunctionSummary *>>
  nearest(
      llvm::StringRef Usr, const HostParameters &Host,
      llvm::function_ref<bool(const FunctionSummary &, const HostParameters &)>
          Has) const;

  /// The summary of the function with USR \p Usr, parsed on first use.
  const FunctionSummary *summaryOf(llvm::StringRef Usr) const;

  /// The text of a table made from units (tests, the parent's own
  /// summaries); a table read from a file searches the source manager's
  /// buffer.
  std::shared_ptr<const std::string> OwnText;
  SummaryLines Lines;
  std::string Project;
  mutable bool WarnedOutsideProject = false;
  /// The summaries asked for so far, and those the file does not have.
  mutable llvm::StringMap<std::optional<FunctionSummary>> Asked;
};

/// \p Place as a location of \p SM's unit, when its file still holds the
/// token recorded there; invalid otherwise (the file changed since the
/// summaries were written, or is gone).
SourceLocation locate(const SummarizedPlace &Place, SourceManager &SM);

/// The project a summary file's notes may point into: the checkout (the
/// nearest directory above with a `.git`) that holds the summary file at
/// \p SummaryFile, as a repository's `.clang-tidy` names one of its own;
/// empty when it is in none (the CLI's own file for its workers, an
/// out-of-tree build), and then only the digests bound the notes.
std::string summaryProject(llvm::StringRef SummaryFile);

/// Whether \p File lies in \p Project (always, for an empty one): a note
/// elsewhere is no note of this project's summaries, whoever wrote it.
bool inSummaryProject(llvm::StringRef File, llvm::StringRef Project);

} // namespace clang::tidy::libtorch::analysis

#endif // LIBTORCH_TIDY_CHECKS_ANALYSIS_SUMMARIES_SUMMARYTABLE_H
