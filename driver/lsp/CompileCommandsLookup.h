//===--- CompileCommandsLookup.h - A file's flags ---------------*- C++ -*-===//
//
// Part of libtorch-tidy. SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//
//
// As clangd: a file's compile command comes from the nearest
// compile_commands.json in its directory or a parent, or in a `build/`
// subdirectory of one of them; or from one directory the user names
// (`--compile-commands-dir`, `initializationOptions.compilationDatabasePath`).
// Databases are read once and kept until reload() (the file changed).
//
//===----------------------------------------------------------------------===//

#ifndef LIBTORCH_TIDY_DRIVER_LSP_COMPILECOMMANDSLOOKUP_H
#define LIBTORCH_TIDY_DRIVER_LSP_COMPILECOMMANDSLOOKUP_H

#include "clang/Tooling/CompilationDatabase.h"
#include <map>
#include <memory>
#include <string>

namespace libtorch_tidy::lsp {

struct CommandLookup {
  /// The directory of the database used (the CLI's `-p`); empty when none
  /// was found or it could not be read.
  std::string Directory;
  /// Whether the database has an entry for the file.
  bool HasEntry = false;
  /// When the file cannot be analyzed: one line saying why and what to do.
  std::string Problem;
};

class CompileCommandsLookup {
public:
  /// \p FixedDirectory: the directory the user named, or empty to search.
  explicit CompileCommandsLookup(std::string FixedDirectory = "")
      : Fixed(std::move(FixedDirectory)) {}

  void setFixedDirectory(std::string Directory) {
    Fixed = std::move(Directory);
  }

  /// Finds the database for \p File (absolute) and whether it has an entry.
  CommandLookup lookup(const std::string &File);

  /// Forgets every database read (a compile_commands.json changed).
  void reload() { Loaded.clear(); }

private:
  /// The database in \p Directory, read once; null with \p Problem set when
  /// it cannot be read.
  clang::tooling::CompilationDatabase *load(const std::string &Directory,
                                            std::string &Problem);

  std::string Fixed;
  std::map<std::string, std::unique_ptr<clang::tooling::CompilationDatabase>>
      Loaded;
};

} // namespace libtorch_tidy::lsp

#endif // LIBTORCH_TIDY_DRIVER_LSP_COMPILECOMMANDSLOOKUP_H
