//===--- CompilationSetup.h - Compile commands for the inputs ---*- C++ -*-===//
//
// Part of libtorch-tidy. SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

#ifndef LIBTORCH_TIDY_DRIVER_COMPILATIONSETUP_H
#define LIBTORCH_TIDY_DRIVER_COMPILATIONSETUP_H

#include "OptionsSetup.h"
#include "clang/Tooling/CompilationDatabase.h"
#include "llvm/Support/Error.h"
#include <memory>
#include <string>
#include <vector>

namespace libtorch_tidy {

struct CompilationSetup {
  std::unique_ptr<clang::tooling::CompilationDatabase> Compilations;
  /// Absolute paths of the translation units to analyze.
  std::vector<std::string> Files;
};

/// Chooses the compile commands the way clang-tidy does (the fixed database
/// after `--`, else `-p`, else a compile_commands.json above the first
/// input), adds --extra-arg(-before) and clang's resource dir, and checks
/// the inputs. With `-p` and no inputs, every file of the database is
/// analyzed. Errors name the file and what to do.
llvm::Expected<CompilationSetup>
setUpCompilations(const ToolOptions &Options,
                  std::unique_ptr<clang::tooling::CompilationDatabase> Fixed,
                  const char *Argv0);

} // namespace libtorch_tidy

#endif // LIBTORCH_TIDY_DRIVER_COMPILATIONSETUP_H
