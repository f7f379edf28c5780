//===--- UnitOptions.h - What the units stage is told -----------*- C++ -*-===//
//
// Part of libtorch-tidy. SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//
//
// The options the units stage owns (CompilationSetup.h): which files, which
// database, which compiler arguments added. The command line fills them
// (config/OptionsSetup.h, whose ToolOptions extends them); nothing here
// reads a flag.
//
//===----------------------------------------------------------------------===//

#ifndef LIBTORCH_TIDY_DRIVER_UNITS_UNITOPTIONS_H
#define LIBTORCH_TIDY_DRIVER_UNITS_UNITOPTIONS_H

#include <string>
#include <vector>

namespace libtorch_tidy {

struct UnitOptions {
  /// `-p`: the build directory, where compile_commands.json is; empty to
  /// look for one above the first source.
  std::string BuildPath;
  /// The files named on the command line.
  std::vector<std::string> Sources;
  /// `--extra-arg`, `--extra-arg-before`: compiler arguments added to every
  /// command, after and before the others.
  std::vector<std::string> ExtraArgs;
  std::vector<std::string> ExtraArgsBefore;
  /// `--quiet`: no notices about the database's entries.
  bool Quiet = false;
  /// Set for a worker process, whose parent printed the notices about the
  /// database already.
  bool NoticesPrinted = false;
  /// `--list-checks`, `--dump-config`: only the configuration is read, so
  /// any name is taken as a source.
  bool ListChecks = false;
  bool DumpConfig = false;
};

} // namespace libtorch_tidy

#endif // LIBTORCH_TIDY_DRIVER_UNITS_UNITOPTIONS_H
