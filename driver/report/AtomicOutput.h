//===--- AtomicOutput.h - Output files never half written -------*- C++ -*-===//
//
// Part of libtorch-tidy. SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

#ifndef LIBTORCH_TIDY_DRIVER_REPORT_ATOMICOUTPUT_H
#define LIBTORCH_TIDY_DRIVER_REPORT_ATOMICOUTPUT_H

#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Error.h"

namespace libtorch_tidy::report {

/// Writes \p Content to \p Path (`--output`, `merge -o`): into a temporary
/// file in the same directory, renamed over \p Path once complete, so a reader
/// (or a killed run) never leaves or sees a partial file, and a failed write
/// keeps the previous content. `-` writes to standard output. The error is one
/// line naming the file.
llvm::Error writeFileAtomically(llvm::StringRef Path, llvm::StringRef Content);

} // namespace libtorch_tidy::report

#endif // LIBTORCH_TIDY_DRIVER_REPORT_ATOMICOUTPUT_H
