//===--- ConstantHostData.h - Host tables rebuilt as tensors ----*- C++ -*-===//
//
// Part of libtorch-tidy. SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//
//
// A tensor made from host data (`torch::tensor(weights)`,
// `torch::from_blob(mean.data(), {3}).clone()`) and copied to the device
// in a loop, where the data does not change from one iteration to the
// next: the same table crosses the bus on every iteration, and one tensor
// made on the device before the loop would do.
//
// The data is constant when it is
// - a constant: `constexpr`, or a const-qualified variable that is static,
//   at namespace scope, or a local declared before the loop;
// - a local variable of the loop's function, declared before the loop,
//   that nothing in the loop (or in a lambda of that function) changes:
//   every use there only reads it (a const member, a by-value or const
//   reference argument, an element read), and nothing makes an alias to it
//   (its address, a pointer or mutable reference initialized from it).
//   A `.data()` given to a `from_blob` whose tensor is copied at once (a
//   `.clone()` or a copy to the device right after it) only reads.
// - values written in the call: `torch::tensor({1.0, 2.0, 0.5})`, a braced
//   list (nested or not) whose every element is a literal or another
//   constant expression; wherever the copy runs, they never change.
// Anything else (a parameter, a member, a per-iteration local, a table
// filled in the loop) may change: not constant.
//
//===----------------------------------------------------------------------===//

#ifndef LIBTORCH_TIDY_CHECKS_ANALYSIS_DEVICES_CONSTANTHOSTDATA_H
#define LIBTORCH_TIDY_CHECKS_ANALYSIS_DEVICES_CONSTANTHOSTDATA_H

#include "utils/UserCode.h"
#include "clang/AST/ASTContext.h"
#include "clang/AST/Expr.h"
#include <optional>

namespace clang::tidy::libtorch::analysis {

struct ConstantHostTable {
  /// `torch::tensor(...)` or `torch::from_blob(...)`.
  const CallExpr *Maker = nullptr;
  /// The variable whose values it copies; null for values written in the
  /// call.
  const VarDecl *Table = nullptr;
  /// The braced list of constants it copies, when Table is null.
  const Expr *Values = nullptr;
};

/// \p CopySource, the object of a copy to the device, is a tensor made
/// from constant host data (see the file comment). \p Loop: the loop whose
/// iterations run the copy when the copy is written in the loop's own
/// function; null when it runs there through calls (then only constants
/// count).
std::optional<ConstantHostTable>
constantHostTableCopied(const Expr *CopySource, const Stmt *Loop,
                        ASTContext &Context,
                        const utils::UserCodeParents &Parents);

} // namespace clang::tidy::libtorch::analysis

#endif // LIBTORCH_TIDY_CHECKS_ANALYSIS_DEVICES_CONSTANTHOSTDATA_H
