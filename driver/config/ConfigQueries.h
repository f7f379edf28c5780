//===--- ConfigQueries.h - --explain-config, --verify-config ----*- C++ -*-===//
//
// Part of libtorch-tidy. SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//
//
// clang-tidy's configuration flags, with its output: they print what the
// configuration says and exit without analyzing anything. And the virtual
// file system of `--vfsoverlay`.
//
//===----------------------------------------------------------------------===//

#ifndef LIBTORCH_TIDY_DRIVER_CONFIG_CONFIGQUERIES_H
#define LIBTORCH_TIDY_DRIVER_CONFIG_CONFIGQUERIES_H

#include "clang-tidy/ClangTidyOptions.h"
#include "config/OptionsSetup.h"
#include "llvm/Support/Error.h"
#include "llvm/Support/VirtualFileSystem.h"
#include <optional>

namespace libtorch_tidy {

/// `--explain-config` (where each enabled check is enabled: the default
/// tier, the command line or a configuration file) and `--verify-config`
/// (unknown checks, check globs that match none and unknown check options,
/// with clang-tidy's "did you mean"): the exit code when one of them was
/// asked for (0, or 1 when the configuration has errors), else nothing.
std::optional<int>
runConfigQuery(const ToolOptions &Options,
               clang::tidy::ClangTidyOptionsProvider &Provider);

/// `--vfsoverlay`: lays the file system its YAML file describes over
/// \p BaseFS. An error names the file and what is wrong with it.
llvm::Error applyVfsOverlay(const ToolOptions &Options,
                            llvm::vfs::OverlayFileSystem &BaseFS);

} // namespace libtorch_tidy

#endif // LIBTORCH_TIDY_DRIVER_CONFIG_CONFIGQUERIES_H
