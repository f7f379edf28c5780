//===--- PerUnit.h - One value per translation unit -------------*- C++ -*-===//
//
// Part of libtorch-tidy. SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

#ifndef LIBTORCH_TIDY_CHECKS_ANALYSIS_PERUNIT_H
#define LIBTORCH_TIDY_CHECKS_ANALYSIS_PERUNIT_H

#include "clang/AST/ASTContext.h"
#include <memory>
#include <utility>

namespace clang::tidy::libtorch::analysis {

/// A value a check computes about a translation unit and holds while it is
/// checked (facts, indexes): built on first use from the ASTContext and the
/// arguments given then, rebuilt for another ASTContext, dropped by reset()
/// at the end of the translation unit.
template <typename T> class PerUnit {
public:
  template <typename... Args> T &get(ASTContext &Context, Args &&...Extra) {
    if (!Value || For != &Context) {
      Value = std::make_unique<T>(Context, std::forward<Args>(Extra)...);
      For = &Context;
    }
    return *Value;
  }
  void reset() {
    Value.reset();
    For = nullptr;
  }

private:
  std::unique_ptr<T> Value;
  const ASTContext *For = nullptr;
};

} // namespace clang::tidy::libtorch::analysis

#endif // LIBTORCH_TIDY_CHECKS_ANALYSIS_PERUNIT_H
