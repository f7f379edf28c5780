//===--- BatchFlow.h - Where a batch from a data loader goes ----*- C++ -*-===//
//
// Part of libtorch-tidy. SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//
//
// The batch of a range-for over a LibTorch data loader is made on the host,
// unless the dataset or a transform places it. These functions find that
// loop, judge whether the loader's own code may place tensors, and follow a
// batch tensor to the calls it is handed to (libtorch-input-not-on-device).
//
//===----------------------------------------------------------------------===//

#ifndef LIBTORCH_TIDY_CHECKS_ANALYSIS_STEPS_BATCHFLOW_H
#define LIBTORCH_TIDY_CHECKS_ANALYSIS_STEPS_BATCHFLOW_H

#include "utils/UserCode.h"
#include "clang/AST/ASTContext.h"
#include "clang/AST/DeclCXX.h"
#include "clang/AST/StmtCXX.h"
#include <vector>

namespace clang::tidy::libtorch::analysis {

/// How many local variables (or values) deep a batch is followed.
constexpr unsigned MaxBatchFlowDepth = 4;

/// The range-for loop over a data loader whose loop variable is \p Batch.
const CXXForRangeStmt *loaderLoopOf(const VarDecl *Batch,
                                    const utils::UserCodeParents &UserParents);

/// Whether code of this TU that the loader runs (a dataset's or a
/// transform's member functions, named in the loader's template arguments)
/// may put tensors on a device, or cannot be seen.
bool loaderMayPlaceOnDevice(const CXXRecordDecl *Record, ASTContext &Context,
                            unsigned Depth = 0);

/// \p Variable may hold another tensor than its initializer in \p Body:
/// assigned (through implicit nodes), or its address taken.
bool mayHoldAnotherTensor(const VarDecl *Variable, const Stmt *Body);

/// A place where a host batch tensor \p Arg is handed to \p Call.
struct BatchUse {
  const Expr *Arg;
  const CallExpr *Call;
};

/// Follows the batch tensor \p Batch through placement-keeping methods
/// (`view`, `float`, ...), copies and local variables that are never
/// reassigned, to the calls that take it, in source order. A copy to a
/// device (`.to()`, `.cuda()`) or anything we do not understand ends a path.
std::vector<BatchUse> batchUses(const Expr *Batch,
                                const utils::UserCodeParents &UserParents);

} // namespace clang::tidy::libtorch::analysis

#endif // LIBTORCH_TIDY_CHECKS_ANALYSIS_STEPS_BATCHFLOW_H
