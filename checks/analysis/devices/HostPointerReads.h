//===--- HostPointerReads.h - Tensor memory read on the host ----*- C++ -*-===//
//
// Part of libtorch-tidy. SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//
//
// Whether the pointer `data_ptr()` gives is read on the host. Taking a
// tensor's pointer waits for nothing: it is how a CUDA tensor is handed to
// a kernel, NCCL, cuBLAS or a copy engine, all of which queue work on the
// device. Only a read through the pointer on the host needs the tensor's
// values there (and of a GPU tensor, a copy waited for first): a
// dereference, an index, a host copy (`memcpy`'s source, `std::copy`'s
// range, a `std::vector` built from the range).
//
// The pointer is followed through pointer arithmetic (`p + n`), casts, and
// a local pointer variable initialized with it and never given another
// value. A pointer handed to any other function is not a read we can see:
// precision decides.
//
//===----------------------------------------------------------------------===//

#ifndef LIBTORCH_TIDY_CHECKS_ANALYSIS_DEVICES_HOSTPOINTERREADS_H
#define LIBTORCH_TIDY_CHECKS_ANALYSIS_DEVICES_HOSTPOINTERREADS_H

#include "utils/UserCode.h"
#include "clang/AST/Expr.h"

namespace clang::tidy::libtorch::analysis {

/// \p Pointer, a pointer to tensor memory (a `data_ptr()` call), is read
/// through on the host (see the file comment).
bool isReadOnHost(const Expr *Pointer, const utils::UserCodeParents &Parents);

} // namespace clang::tidy::libtorch::analysis

#endif // LIBTORCH_TIDY_CHECKS_ANALYSIS_DEVICES_HOSTPOINTERREADS_H
