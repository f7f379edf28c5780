//===--- CompilationSetup.h - Compile commands for the inputs ---*- C++ -*-===//
//
// Part of libtorch-tidy. SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

#ifndef LIBTORCH_TIDY_DRIVER_UNITS_COMPILATIONSETUP_H
#define LIBTORCH_TIDY_DRIVER_UNITS_COMPILATIONSETUP_H

#include "units/UnitOptions.h"
#include "clang/Tooling/CompilationDatabase.h"
#include "llvm/Support/Error.h"
#include <memory>
#include <string>
#include <vector>

namespace libtorch_tidy {

/// A translation unit of the compilation database that cannot be analyzed.
struct UnusableInput {
  /// Absolute path.
  std::string File;
  /// One line, without the file: what is wrong and what to do.
  std::string Message;
};

struct CompilationSetup {
  std::unique_ptr<clang::tooling::CompilationDatabase> Compilations;
  /// Absolute paths of the translation units to analyze.
  std::vector<std::string> Files;
  /// Database entries for regular files that cannot be read: they are not
  /// in `Files`, and the run reports them as failed units (exit code 3).
  std::vector<UnusableInput> Unreadable;
};

/// Chooses the compile commands the way clang-tidy does (the fixed database
/// after `--`, else `-p`, else a compile_commands.json above the first
/// input), adds --extra-arg(-before) and clang's resource dir, and checks
/// the inputs. With `-p` and no inputs, every file of the database is
/// analyzed. Errors name the file and what to do.
///
/// Entries of the database (inputs not named on the command line) that are
/// not regular files are skipped with one warning per kind: files that no
/// longer exist (a stale database), directories and other non-files.
/// Unreadable ones go to `Unreadable`. CUDA sources are skipped with one
/// notice, and nvcc commands of host files become host compiler commands
/// (CudaCommands.h); when nothing but CUDA sources is left, that is an error.
llvm::Expected<CompilationSetup>
setUpCompilations(const UnitOptions &Options,
                  std::unique_ptr<clang::tooling::CompilationDatabase> Fixed,
                  const char *Argv0);

} // namespace libtorch_tidy

#endif // LIBTORCH_TIDY_DRIVER_UNITS_COMPILATIONSETUP_H
