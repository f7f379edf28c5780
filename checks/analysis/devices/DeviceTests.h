//===--- DeviceTests.h - Branches that test where a tensor is ---*- C++ -*-===//
//
// Part of libtorch-tidy. SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//
//
// Code that asks where a tensor lives and takes another path for each
// answer: a communication helper hands a CUDA tensor's pointer to a
// collective and reads a host tensor's values itself; a metric reads
// `item()` only on the CPU path. Where the branch that runs is known from
// such a test, the tensor is known to be in host memory there:
//
//   if (t.is_cuda()) { launch(t.data_ptr<float>()); return; }
//   total += t.sum().item<float>();      // t is on the host here
//
// The tests read are `is_cuda()` and `is_cpu()` of the tensor or of its
// `device()`, negated or joined with `&&` and `||`, guarding a branch (then
// or else) or an early exit (`return`, `throw`, `continue`, `break`) earlier
// in an enclosing block. The tensor is a local variable or parameter that
// its function never gives another value, or a tensor a method of it gives
// on its device (`t.sum()`, `t.norm()`, `t.detach().view(-1)`; not `to()`,
// `cpu()` or `cuda()`).
//
//===----------------------------------------------------------------------===//

#ifndef LIBTORCH_TIDY_CHECKS_ANALYSIS_DEVICES_DEVICETESTS_H
#define LIBTORCH_TIDY_CHECKS_ANALYSIS_DEVICES_DEVICETESTS_H

#include "utils/UserCode.h"
#include "clang/AST/Expr.h"

namespace clang::tidy::libtorch::analysis {

/// \p Tensor, evaluated at \p At, is in host memory on every path that
/// reaches \p At, by the device tests that guard it (see the file comment).
bool isOnHostByDeviceTest(const Expr *Tensor, const Stmt *At,
                          const utils::UserCodeParents &Parents);

} // namespace clang::tidy::libtorch::analysis

#endif // LIBTORCH_TIDY_CHECKS_ANALYSIS_DEVICES_DEVICETESTS_H
