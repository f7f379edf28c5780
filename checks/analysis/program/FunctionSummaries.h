//===--- FunctionSummaries.h - What a unit's functions do -------*- C++ -*-===//
//
// Part of libtorch-tidy. SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//
//
// Facts about the functions a translation unit defines, for the units that
// call them without seeing their bodies: a step in `train.cpp` that calls
// `compute_metrics(out, target)` from `metrics.cpp`, which reads each value
// with `item()`. The first pass summarizes each function of each unit (what
// it waits for on every call, which functions of the project it calls on
// every call); the summaries of all units are written to one file
// (`libtorch-tidy --export-summaries`), and the checks of the second pass
// read it (SummaryTable.h). Functions are keyed by USR, Clang's name for a
// declaration that is the same in every unit that declares it.
//
//===----------------------------------------------------------------------===//

#ifndef LIBTORCH_TIDY_CHECKS_ANALYSIS_PROGRAM_FUNCTIONSUMMARIES_H
#define LIBTORCH_TIDY_CHECKS_ANALYSIS_PROGRAM_FUNCTIONSUMMARIES_H

#include "analysis/devices/HostSyncOperations.h"
#include "clang/AST/ASTContext.h"
#include "llvm/Support/Error.h"
#include "llvm/Support/JSON.h"
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

/// Clang's USR of \p D; empty when it has none.
std::string usrOf(const Decl *D);

/// The summaries of the functions defined in \p Context's main file, each
/// with the waits and calls of project functions that run on every call of
/// it, the host tensors it makes and copies to the GPU on every call,
/// whether it returns a tensor on the device, and how far it is from a
/// backward pass and an optimizer step. Left out of
/// the waits, copies and calls, so that they say only what always happens:
/// - operations under an `if`, `switch`, `?:`, `&&`, `||` or in a `catch`
///   (a guard such as `if (step % 100 == 0)` is the caller's to see, and
///   the summary cannot show it), and after an early return on a test
///   (`if (!t.is_cuda()) return;`: a helper whose CPU path reads values
///   and whose CUDA path hands tensors to the device) other than an
///   integer equality (`if (n == 0) return;` leaves out one case);
/// - operations in lambdas (called when, and how often, is not known);
/// - a wait on a tensor provably in host memory;
/// - calls of virtual functions (another override may run);
/// - templates not instantiated, and functions with no USR.
/// Functions with no fact are left out too.
std::vector<FunctionSummary> summarizeUnit(ASTContext &Context);

/// The function \p Call calls when its body is elsewhere: a direct callee
/// this unit holds no body of, and not a virtual one (another override may
/// run). What a summary can answer for; null otherwise.
const FunctionDecl *calleeDefinedElsewhere(const CallExpr &Call);

/// The USRs of the project's functions that the unit's user code calls and
/// whose bodies it does not hold, sorted: the functions whose summaries
/// the checks may ask for (SummaryTable::waitOfCall, and the training-loop
/// model's SummaryTable::updatesOf), so the only ones
/// whose answers a cached result of the unit depends on. Every such call
/// is counted, in a loop or not: more than the checks ask, never fewer.
std::vector<std::string> functionsCalledElsewhere(ASTContext &Context);

/// A unit's summaries as the summary file holds them, and back.
llvm::json::Array summariesToJson(llvm::ArrayRef<FunctionSummary> Summaries);
llvm::Expected<std::vector<FunctionSummary>>
summariesFromJson(const llvm::json::Array &Functions);

} // namespace clang::tidy::libtorch::analysis

#endif // LIBTORCH_TIDY_CHECKS_ANALYSIS_PROGRAM_FUNCTIONSUMMARIES_H
