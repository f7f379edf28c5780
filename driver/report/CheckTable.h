//===--- CheckTable.h - The README's check table ----------------*- C++ -*-===//
//
// Part of libtorch-tidy. SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

#ifndef LIBTORCH_TIDY_DRIVER_REPORT_CHECKTABLE_H
#define LIBTORCH_TIDY_DRIVER_REPORT_CHECKTABLE_H

#include <string>

namespace libtorch_tidy {

/// The Markdown table of every registered check (id linked to its docs page,
/// tier, summary, fix-it), exactly as the README carries it.
std::string renderCheckTable();

} // namespace libtorch_tidy

#endif // LIBTORCH_TIDY_DRIVER_REPORT_CHECKTABLE_H
