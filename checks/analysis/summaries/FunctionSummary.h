//===--- FunctionSummary.h - What a summary says ----------------*- C++ -*-===//
//
// Part of libtorch-tidy. SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//
//
// What a summary says about a function of the project, for the units that
// call it without seeing its body: the waits, host copies and calls of
// project functions that run on every call, and how far a call is from a
// parameter update. The summarizer fills it (program/FunctionSummarizer.h),
// the summary file stores it (SummaryFile.h), the checks read it through
// SummaryTable.h. Plain data: this layer of the analysis sits below the
// training-loop model, which reads summaries, and below the summarizer,
// which uses that model.
//
//===----------------------------------------------------------------------===//

#ifndef LIBTORCH_TIDY_CHECKS_ANALYSIS_SUMMARIES_FUNCTIONSUMMARY_H
#define LIBTORCH_TIDY_CHECKS_ANALYSIS_SUMMARIES_FUNCTIONSUMMARY_H

#include "analysis/devices/HostSyncOperations.h"
#include "llvm/ADT/StringRef.h"
#include <optional>
#include <string>
#include <vector>

namespace clang::tidy::libtorch::analysis {

/// A place in a summarized function's body, with the text written there
/// when it was summarized: a reader that points at the place first checks
/// that the file still holds that text (SummaryTable.h).
struct SummarizedPlace {
  std::string File; ///< absolute
  unsigned Line = 0;
  unsigned Column = 0;
  std::string Spelling; ///< the token at Line:Column (`item`, `cpu`)
  /// placeDigest() of File's content when it was summarized. A note is
  /// placed, and so a line of File printed, only while the file has that
  /// content: whoever wrote the summary (a repository's summary file, a
  /// shared cache's entry) must know a file's bytes to have one printed.
  std::string Digest;
};

/// The digest of a summarized file's content: SHA-256, hex.
std::string placeDigest(llvm::StringRef Content);

/// An operation that waits for the GPU on every call of the function.
struct SummarizedSync {
  std::string Operation; ///< as a finding names it: `item<float>()`
  SyncKind Kind = SyncKind::ReadScalar;
  SummarizedPlace Place;
  /// The function's parameter (0-based, `this` not counted) whose tensor
  /// the operation reads, where that tensor lives (`lengths[0].item()`,
  /// parameterPlacingTensor): a call that gives it a tensor in host memory
  /// does not wait there. Nothing when it reads another tensor.
  std::optional<unsigned> Parameter;
};

/// A tensor made in host memory by a factory and copied to the GPU right
/// away (`torch::ones({n, 1}).to(device)`) on every call of the function.
struct SummarizedHostCopy {
  std::string Factory;   ///< as written: `torch::ones`
  std::string Copy;      ///< as written: `.to(device)`
  SummarizedPlace Place; ///< the copy's method name
  /// The tensor is rebuilt from constant host data (`torch::tensor({0.25,
  /// 0.75})`, a constant table; ConstantHostData.h): one tensor made on
  /// the device once would do.
  bool Constant = false;
};

/// What \p Copy's function makes on each call, for a message: "makes a
/// tensor in host memory", "rebuilds a tensor from constant host data".
llvm::StringRef whatItMakes(const SummarizedHostCopy &Copy);
/// What to change in \p Copy's function, for a message.
std::string remedyThere(const SummarizedHostCopy &Copy);

/// A call of another function of the project on every call of the function.
struct SummarizedCall {
  std::string Usr;
  std::string Name; ///< qualified, as a note names it
  SummarizedPlace Place;
  /// What each parameter of the function called is given, in order: the
  /// index of the calling function's parameter whose tensor it is, where
  /// that lives (parameterPlacingTensor), HostArgument for a tensor
  /// provably in host memory, UnknownArgument for anything else. Unknown
  /// ones at the end are left out.
  std::vector<int> Arguments;
  static constexpr int UnknownArgument = -1;
  static constexpr int HostArgument = -2;
};

/// How many calls a call of the function is from a parameter update, as
/// the training-loop model of its unit measures it (TrainingLoopModel.h):
/// 0 when its body holds the update, nothing when none is reached within
/// CallDepth::TrainingStep calls of its unit. Each kind is measured
/// anywhere in the body and outside the function's own training loops (a
/// `train_epoch()` that holds the whole step loop runs no step per call).
struct SummarizedUpdates {
  std::optional<unsigned> Backward;
  std::optional<unsigned> BackwardOutsideLoops;
  std::optional<unsigned> Step;
  std::optional<unsigned> StepOutsideLoops;

  bool any() const { return Backward || Step; }
  bool operator==(const SummarizedUpdates &Other) const {
    return Backward == Other.Backward &&
           BackwardOutsideLoops == Other.BackwardOutsideLoops &&
           Step == Other.Step && StepOutsideLoops == Other.StepOutsideLoops;
  }
};

struct FunctionSummary {
  std::string Usr;
  std::string Name; ///< qualified
  std::vector<SummarizedSync> Syncs;
  std::vector<SummarizedHostCopy> HostCopies;
  std::vector<SummarizedCall> Calls;
  /// Every return gives a tensor on the device (returnsTensorOnDevice).
  bool ReturnsDeviceTensor = false;
  /// Somewhere in the body, on every call or only on some (under a
  /// condition), it waits otherwise than by copying a tensor to the host or
  /// printing one, or calls another function of the project, which may:
  /// what a summary of its waits on every call leaves out.
  bool WaitsOtherwise = false;
  /// Unlike waits, counted under conditions too: a loop that calls it is a
  /// training loop as one calling a body of its own unit would be.
  SummarizedUpdates Updates;
};

} // namespace clang::tidy::libtorch::analysis

#endif // LIBTORCH_TIDY_CHECKS_ANALYSIS_SUMMARIES_FUNCTIONSUMMARY_H
