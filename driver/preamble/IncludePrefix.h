//===--- IncludePrefix.h - The system includes a unit starts with -===//
//
// Part of libtorch-tidy. SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//
//
// The first stage of the preamble engine (docs/architecture.md): the
// `#include <...>` lines a main file starts with, before anything else but
// comments and blank lines. They are what a precompiled prefix holds
// (PrefixPch.h): a PCH of exactly these headers, included before the main
// file as CMake's target_precompile_headers does, leaves the unit's meaning
// unchanged, because the headers come first in the file anyway and the
// file's own `#include` lines of them are then skipped by their include
// guards.
//
// The scan stops at the first line that is anything else: a `#define`
// before the includes changes what they mean, a quoted include is usually
// the project's own header (whose findings and fixes need the bytes parsed
// in the unit), and a line continuation or a comment opened on an include
// line is too rare to be worth reading exactly.
//
// When LibTorch headers are among them, the prefix ends with the last one.
// LibTorch files start with `<torch/torch.h>` and then each with its own
// choice of standard headers, which cost little to parse: cut there, the
// units of a project share one prefix instead of one each.
//
//===----------------------------------------------------------------------===//

#ifndef LIBTORCH_TIDY_DRIVER_PREAMBLE_INCLUDEPREFIX_H
#define LIBTORCH_TIDY_DRIVER_PREAMBLE_INCLUDEPREFIX_H

#include "llvm/ADT/StringRef.h"
#include <string>
#include <vector>

namespace libtorch_tidy::preamble {

struct IncludePrefix {
  /// The header names between the angle brackets, in order.
  std::vector<std::string> Headers;

  bool empty() const { return Headers.empty(); }
  /// The prefix as a header of its own: one `#include <...>` line each,
  /// inside an include guard.
  std::string headerText() const;
  bool operator==(const IncludePrefix &Other) const {
    return Headers == Other.Headers;
  }
};

/// The `#include <...>` lines \p MainFileText starts with, up to the last
/// LibTorch header among them when there is one.
IncludePrefix leadingSystemIncludes(llvm::StringRef MainFileText);

/// Whether \p Header (as written between the angle brackets) is one of
/// LibTorch's: under torch/, ATen/, c10/ or caffe2/.
bool isLibTorchHeader(llvm::StringRef Header);

} // namespace libtorch_tidy::preamble

#endif // LIBTORCH_TIDY_DRIVER_PREAMBLE_INCLUDEPREFIX_H
