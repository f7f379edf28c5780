//===--- CheckOptionValues.h - CheckOptions of the wrong type ---*- C++ -*-===//
//
// Part of libtorch-tidy. SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//
//
// clang-tidy reads a check's options when it creates the check, and a value
// of the wrong type (`Workers: 'abc'`, `-1` for a count, a number out of
// range) becomes a diagnostic without a file in every unit, which a CI gate
// would count as a finding. The CLI creates the enabled checks once, before
// any unit is analyzed, and turns such a value into a configuration error
// that names the file that set it (exit code 2).
//
//===----------------------------------------------------------------------===//

#ifndef LIBTORCH_TIDY_DRIVER_CONFIG_CHECKOPTIONVALUES_H
#define LIBTORCH_TIDY_DRIVER_CONFIG_CHECKOPTIONVALUES_H

#include "clang-tidy/ClangTidyOptions.h"
#include "llvm/ADT/StringRef.h"
#include <string>
#include <vector>

namespace libtorch_tidy {

/// One line per CheckOptions value of \p File's configuration that an
/// enabled check cannot read, naming the configuration that set it.
std::vector<std::string>
invalidCheckOptionValues(clang::tidy::ClangTidyOptionsProvider &Provider,
                         llvm::StringRef File);

} // namespace libtorch_tidy

#endif // LIBTORCH_TIDY_DRIVER_CONFIG_CHECKOPTIONVALUES_H
