//===--- ElementWrites.h - Scalar writes into tensor elements ---*- C++ -*-===//
//
// Part of libtorch-tidy. SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//
//
// A scalar written into an indexed part of a tensor from host code:
// `t[i][j] = v;`, `t[i] += v;`, `t[i].fill_(v);`, `t.index_put_({i, j}, v);`
// (the overloads that take a c10::Scalar). On a CUDA tensor each one is at
// least one kernel launch, plus the host-side indexing that makes the view;
// in a host loop over the index that is one launch per element.
//
// The loop is "over the index" when a variable named in an index is
// declared in the loop's header or written anywhere in the loop (`i` of
// `for (i...)`, `k` of `out[k++] = v` in a range-for). A `for` whose trip
// count is a constant of at most MaxSmallTripCount (`for (int c = 0; c < 3;
// ++c)`: the channels of a pixel, the corners of a box) does not count by
// itself: such writes are idiomatic and cheap; an outer loop over another
// index of the same write still does.
//
// Not a write of this kind: the right side a tensor (`t[i] = row;` copies a
// whole slice, one copy per row: a different trade-off, and often
// device-to-device), a write through `accessor<>()` or `data_ptr()` (CPU
// memory only).
//
//===----------------------------------------------------------------------===//

#ifndef LIBTORCH_TIDY_CHECKS_ANALYSIS_DEVICES_ELEMENTWRITES_H
#define LIBTORCH_TIDY_CHECKS_ANALYSIS_DEVICES_ELEMENTWRITES_H

#include "utils/UserCode.h"
#include "clang/AST/ASTContext.h"
#include "clang/AST/Expr.h"
#include "llvm/ADT/SmallVector.h"
#include <optional>

namespace clang::tidy::libtorch::analysis {

/// One scalar write into an indexed part of a tensor.
struct ElementWrite {
  /// The assignment, fill_() or index_put_() call.
  const Expr *Write = nullptr;
  /// The tensor indexed: the innermost subscript's object, or the object of
  /// index_put_().
  const Expr *Tensor = nullptr;
  /// The index expressions, outermost subscript last.
  llvm::SmallVector<const Expr *, 2> Indices;
};

/// Loops of a constant trip count up to this many do not count.
inline constexpr int64_t MaxSmallTripCount = 4;

/// \p E as a scalar element write, or none.
std::optional<ElementWrite> elementWrite(const Expr *E);

/// The innermost loop around \p Write in its own function (lambdas end the
/// walk) that runs over one of its indices, see the file comment; null when
/// there is none.
const Stmt *indexLoop(const ElementWrite &Write,
                      const utils::UserCodeParents &Parents,
                      const ASTContext &Context);

} // namespace clang::tidy::libtorch::analysis

#endif // LIBTORCH_TIDY_CHECKS_ANALYSIS_DEVICES_ELEMENTWRITES_H
