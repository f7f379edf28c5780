//===--- PerElementDeviceWriteCheck.h - libtorch-tidy -----------*- C++ -*-===//
//
// Part of libtorch-tidy. SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

#ifndef LIBTORCH_TIDY_CHECKS_PERELEMENTDEVICEWRITECHECK_H
#define LIBTORCH_TIDY_CHECKS_PERELEMENTDEVICEWRITECHECK_H

#include "LibTorchCheck.h"

namespace clang::tidy::libtorch {

/// Finds scalars written one element at a time into a tensor on the GPU in
/// a host loop over the index (`out[i][j] = v;`, `out.index_put_({i}, v);`,
/// analysis/devices/ElementWrites.h): one kernel launch per element.
///
/// For the user-facing documentation see:
/// docs/checks/libtorch-per-element-device-write.md
class PerElementDeviceWriteCheck : public LibTorchCheck {
public:
  using LibTorchCheck::LibTorchCheck;
  void registerUserCodeMatchers(ast_matchers::MatchFinder *Finder) override;
  void check(const ast_matchers::MatchFinder::MatchResult &Result) override;
};

} // namespace clang::tidy::libtorch

#endif // LIBTORCH_TIDY_CHECKS_PERELEMENTDEVICEWRITECHECK_H
