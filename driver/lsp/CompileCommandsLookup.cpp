//===--- CompileCommandsLookup.cpp - A file's compile flags ---------------===//
//
// Part of libtorch-tidy. SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

#include "lsp/CompileCommandsLookup.h"
#include "clang/Tooling/JSONCompilationDatabase.h"
#include "llvm/ADT/SmallString.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Path.h"

using namespace clang::tooling;
using namespace llvm;

namespace libtorch_tidy::lsp {

CompilationDatabase *CompileCommandsLookup::load(const std::string &Directory,
                                                 std::string &Problem) {
  if (auto It = Loaded.find(Directory); It != Loaded.end())
    return It->second.get();
  SmallString<256> Path(Directory);
  sys::path::append(Path, "compile_commands.json");
  std::string Error;
  std::unique_ptr<CompilationDatabase> Database =
      JSONCompilationDatabase::loadFromFile(Path, Error,
                                            JSONCommandLineSyntax::AutoDetect);
  if (!Database) {
    Problem = "cannot read " + std::string(Path) + " (" + Error +
              "); regenerate it with the build system's configure step";
    return nullptr;
  }
  return (Loaded[Directory] = std::move(Database)).get();
}

CommandLookup CompileCommandsLookup::lookup(const std::string &File) {
  CommandLookup Result;
  if (!Fixed.empty()) {
    Result.Directory = Fixed;
  } else {
    for (StringRef Dir = sys::path::parent_path(File); !Dir.empty();
         Dir = sys::path::parent_path(Dir)) {
      for (const char *Sub : {"", "build"}) {
        SmallString<256> Candidate(Dir);
        if (*Sub)
          sys::path::append(Candidate, Sub);
        SmallString<256> Json(Candidate);
        sys::path::append(Json, "compile_commands.json");
        if (sys::fs::is_regular_file(Json)) {
          Result.Directory = std::string(Candidate);
          break;
        }
      }
      if (!Result.Directory.empty())
        break;
    }
    if (Result.Directory.empty()) {
      Result.Problem =
          "no compile_commands.json in its directory, a parent or their "
          "build/: generate one (cmake -DCMAKE_EXPORT_COMPILE_COMMANDS=ON) "
          "or name its directory with --compile-commands-dir or "
          "initializationOptions.compilationDatabasePath";
      return Result;
    }
  }
  CompilationDatabase *Database = load(Result.Directory, Result.Problem);
  if (!Database) {
    Result.Directory.clear();
    return Result;
  }
  Result.HasEntry = !Database->getCompileCommands(File).empty();
  if (!Result.HasEntry)
    Result.Problem = "it has no entry in " + Result.Directory +
                     "/compile_commands.json: add it to the build (and "
                     "re-run the configure step), or point "
                     "--compile-commands-dir at the database that has it";
  return Result;
}

} // namespace libtorch_tidy::lsp
