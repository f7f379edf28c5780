//===--- Wording.h - Counts in the CLI's messages ---------------*- C++ -*-===//
//
// Part of libtorch-tidy. SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

#ifndef LIBTORCH_TIDY_DRIVER_REPORT_WORDING_H
#define LIBTORCH_TIDY_DRIVER_REPORT_WORDING_H

#include "llvm/ADT/StringRef.h"
#include <cstddef>
#include <string>

namespace libtorch_tidy::report {

/// "1 file" / "3 files": \p N with \p One or \p Many.
inline std::string countOf(size_t N, llvm::StringRef One,
                           llvm::StringRef Many) {
  return std::to_string(N) + " " + (N == 1 ? One : Many).str();
}

} // namespace libtorch_tidy::report

#endif // LIBTORCH_TIDY_DRIVER_REPORT_WORDING_H
