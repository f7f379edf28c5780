//===--- CompilationSetup.cpp - Compile commands for the inputs -----------===//
//
// Part of libtorch-tidy. SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

#include "units/CompilationSetup.h"
#include "report/Wording.h"
#include "units/BuildCommands.h"
#include "units/CudaCommands.h"
#include "units/ResourceDir.h"
#include "clang/Tooling/ArgumentsAdjusters.h"
#include "clang/Tooling/CommonOptionsParser.h"
#include "clang/Tooling/JSONCompilationDatabase.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/Config/llvm-config.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/JSON.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/Process.h"
#include "llvm/Support/VirtualFileSystem.h"
#include "llvm/Support/raw_ostream.h"

using namespace llvm;
using namespace clang::tooling;

namespace libtorch_tidy {
namespace {

Error inputError(StringRef File, const Twine &Problem, const Twine &Remedy) {
  return createStringError(inconvertibleErrorCode(), "'" + File.str() +
                                                         "': " + Problem.str() +
                                                         "; " + Remedy.str());
}

/// Resolves \p File against the working directory and checks that it is a
/// readable regular file.
Expected<std::string> checkedInput(StringRef File) {
  SmallString<256> Absolute(File);
  if (std::error_code EC = sys::fs::make_absolute(Absolute))
    return inputError(File, EC.message(), "pass an existing source file");
  sys::path::remove_dots(Absolute, /*remove_dot_dot=*/true);
  sys::fs::file_status Status;
  if (std::error_code EC = sys::fs::status(Absolute, Status))
    return inputError(File, "no such file", "pass an existing source file");
  if (sys::fs::is_directory(Status))
    return inputError(File, "is a directory",
                      "pass the source files inside it, or use -p <build> to "
                      "analyze a whole compilation database");
  if (!sys::fs::is_regular_file(Status))
    return inputError(File, "not a regular file", "pass a source file");
  if (std::error_code EC =
          sys::fs::access(Absolute, sys::fs::AccessMode::Exist))
    return inputError(File, EC.message(), "make it readable");
  int FD;
  if (std::error_code EC = sys::fs::openFileForRead(Absolute, FD))
    return inputError(File, "cannot be read (" + EC.message() + ")",
                      "check its permissions");
  sys::Process::SafelyCloseFileDescriptor(FD);
  return std::string(Absolute);
}

/// The database of \p BuildPath. A compile_commands.json there must load: we
/// do not fall back to a parent directory's database when it is broken, as
/// clang's own lookup would. Without one, clang's lookup decides.
std::unique_ptr<CompilationDatabase>
loadFromBuildDirectory(StringRef BuildPath, std::string &Error) {
  SmallString<256> JsonPath(BuildPath);
  sys::path::append(JsonPath, "compile_commands.json");
  if (!sys::fs::exists(JsonPath))
    return CompilationDatabase::autoDetectFromDirectory(BuildPath, Error);
  // clang's reader runs on what it could read of some truncated files; a
  // database cut short (a killed generator, a full disk) is an error.
  if (ErrorOr<std::unique_ptr<MemoryBuffer>> Text =
          MemoryBuffer::getFile(JsonPath)) {
    if (Expected<json::Value> Parsed = json::parse((*Text)->getBuffer());
        !Parsed) {
      Error = "'" + std::string(JsonPath) +
              "' is not valid JSON: " + toString(Parsed.takeError()) +
              "; regenerate it";
      return nullptr;
    }
  }
  std::unique_ptr<CompilationDatabase> Json =
      JSONCompilationDatabase::loadFromFile(JsonPath, Error,
                                            JSONCommandLineSyntax::AutoDetect);
  if (!Json)
    return nullptr;
  // What clang's JSON plugin adds: commands for headers and files missing
  // from the database, and the target and driver mode from the compiler.
  return inferTargetAndDriverMode(inferMissingCompileCommands(std::move(Json)));
}

/// The entries of the database that can be analyzed. Those that cannot are
/// reported with one warning line per kind (naming the first of them), or
/// recorded in \p Setup.Unreadable.
std::vector<std::string> databaseInputs(const std::vector<std::string> &Entries,
                                        bool Quiet, CompilationSetup &Setup) {
  std::vector<std::string> Usable, Missing, NotFiles, Relative;
  for (const std::string &Entry : Entries) {
    SmallString<256> File(Entry);
    sys::path::remove_dots(File, /*remove_dot_dot=*/true);
    sys::fs::file_status Status;
    if (sys::fs::status(File, Status)) {
      // A relative path here means a relative "directory": not a file that
      // is gone, but a database that breaks the format.
      (sys::path::is_absolute(File) ? Missing : Relative)
          .push_back(std::string(File));
      continue;
    }
    if (!sys::fs::is_regular_file(Status)) {
      NotFiles.push_back(std::string(File));
      continue;
    }
    int FD;
    if (std::error_code EC = sys::fs::openFileForRead(File, FD)) {
      Setup.Unreadable.push_back(
          {std::string(File),
           "cannot be read (" + EC.message() + "); check its permissions"});
      continue;
    }
    sys::Process::SafelyCloseFileDescriptor(FD);
    Usable.push_back(std::string(File));
  }
  if (!Quiet && !Missing.empty())
    errs() << "libtorch-tidy: warning: skipped "
           << report::countOf(Missing.size(), "entry", "entries")
           << " of compile_commands.json for files that no longer exist "
              "(first: '"
           << Missing.front()
           << "'); re-run cmake to refresh the compilation database\n";
  if (!Quiet && !Relative.empty())
    errs() << "libtorch-tidy: warning: skipped "
           << report::countOf(Relative.size(), "entry", "entries")
           << " of compile_commands.json whose \"directory\" is not an "
              "absolute path (first: '"
           << Relative.front()
           << "'); the format requires absolute directories: regenerate "
              "the database\n";
  if (!Quiet && !NotFiles.empty())
    errs() << "libtorch-tidy: warning: skipped "
           << report::countOf(NotFiles.size(), "entry", "entries")
           << " of compile_commands.json that are not regular files "
              "(first: '"
           << NotFiles.front()
           << "'); a compilation database names source files\n";
  return Usable;
}

/// Removes the CUDA sources from \p Files with one notice; an error when
/// they were all there was.
Error skipCudaSources(const CompilationDatabase &Database, bool Quiet,
                      std::vector<std::string> &Files) {
  std::vector<std::string> Host, Cuda;
  for (std::string &File : Files) {
    std::vector<CompileCommand> Commands = Database.getCompileCommands(File);
    ArrayRef<std::string> CommandLine;
    if (!Commands.empty())
      CommandLine = Commands.front().CommandLine;
    (isCudaSource(File, CommandLine) ? Cuda : Host).push_back(std::move(File));
  }
  Files = std::move(Host);
  if (Cuda.empty())
    return Error::success();
  if (Files.empty())
    return inputError(Cuda.front(),
                      Cuda.size() == 1
                          ? "is a CUDA source"
                          : "and the other inputs are CUDA sources",
                      "libtorch-tidy analyzes host C++; name the .cpp files "
                      "that hold the training code");
  if (!Quiet)
    errs() << "libtorch-tidy: note: skipped "
           << report::countOf(Cuda.size(), "CUDA source", "CUDA sources")
           << " (first: '" << Cuda.front()
           << "'); libtorch-tidy analyzes host C++ only\n";
  return Error::success();
}

Expected<CompilationSetup>
finishSetup(CompilationSetup Setup, std::unique_ptr<CompilationDatabase> Base,
            const UnitOptions &Options, const char *Argv0);

} // namespace

Expected<CompilationSetup>
setUpCompilations(const UnitOptions &Options,
                  std::unique_ptr<CompilationDatabase> Fixed,
                  const char *Argv0) {
  CompilationSetup Setup;
  // A worker sets up the same database again: its notices were printed by
  // the parent already, and would otherwise come once more per unit.
  const bool Quiet = Options.Quiet || Options.NoticesPrinted;
  // --list-checks and --dump-config read only the configuration: like
  // clang-tidy, they take any name (run-clang-tidy asks with '' and '-').
  const bool ConfigOnly = Options.ListChecks || Options.DumpConfig;
  for (const std::string &Source : Options.Sources) {
    if (ConfigOnly) {
      SmallString<256> Absolute(Source.empty() ? "dummy" : Source);
      sys::fs::make_absolute(Absolute);
      Setup.Files.push_back(std::string(Absolute));
      continue;
    }
    Expected<std::string> File = checkedInput(Source);
    if (!File)
      return File.takeError();
    Setup.Files.push_back(std::move(*File));
  }

  std::unique_ptr<CompilationDatabase> Base = std::move(Fixed);
  std::string Error;
  if (!Base && !Options.BuildPath.empty()) {
    if (!sys::fs::is_directory(Options.BuildPath))
      return inputError(Options.BuildPath, "no such directory",
                        "pass the build directory to -p");
    Base = loadFromBuildDirectory(Options.BuildPath, Error);
    if (!Base) {
      // Clang explains over several lines; keep the one that says why.
      SmallVector<StringRef, 4> Lines;
      StringRef(Error).trim().split(Lines, '\n');
      StringRef Reason = Lines.empty() ? StringRef() : Lines.back().trim();
      return inputError(Options.BuildPath,
                        "no usable compile_commands.json (" + Reason + ")",
                        "configure with -DCMAKE_EXPORT_COMPILE_COMMANDS=ON, "
                        "or pass compiler flags after '--'");
    }
  }
  if (!Base && !Setup.Files.empty())
    Base =
        CompilationDatabase::autoDetectFromSource(Setup.Files.front(), Error);
  if (!Base) {
    if (!Quiet && !Setup.Files.empty())
      errs()
          << "libtorch-tidy: warning: no compile_commands.json found for '"
          << Options.Sources.front()
          << "'; analyzing without flags (pass -p <build> or '-- <flags>')\n";
    Base = std::make_unique<FixedCompilationDatabase>(
        ".", std::vector<std::string>());
  }
  if (Setup.Files.empty() && !Options.BuildPath.empty())
    Setup.Files = databaseInputs(Base->getAllFiles(), Quiet, Setup);
  // `@file.rsp` arguments, relative to each command's directory.
  Base = expandResponseFiles(std::move(Base), vfs::getRealFileSystem());
  if (ConfigOnly)
    return finishSetup(std::move(Setup), std::move(Base), Options, Argv0);
  if (llvm::Error E = skipCudaSources(*Base, Quiet, Setup.Files))
    return E;

  // Launchers, nvcc, precompiled headers and g++-only options
  // (BuildCommands.h), with one notice per kind of change; a worker process
  // leaves them to the parent.
  if (!Options.Quiet && !Options.NoticesPrinted)
    for (const std::string &Notice : buildCommandNotices(*Base, Setup.Files))
      errs() << Notice << "\n";
  return finishSetup(std::move(Setup), adjustBuildCommands(std::move(Base)),
                     Options, Argv0);
}

namespace {

/// The adjustments every command gets: --extra-arg(-before) and clang's
/// resource dir.
Expected<CompilationSetup>
finishSetup(CompilationSetup Setup, std::unique_ptr<CompilationDatabase> Base,
            const UnitOptions &Options, const char *Argv0) {
  auto Adjusting =
      std::make_unique<ArgumentsAdjustingCompilations>(std::move(Base));
  if (!Options.ExtraArgsBefore.empty())
    Adjusting->appendArgumentsAdjuster(getInsertArgumentAdjuster(
        Options.ExtraArgsBefore, ArgumentInsertPosition::BEGIN));
  if (!Options.ExtraArgs.empty())
    Adjusting->appendArgumentsAdjuster(getInsertArgumentAdjuster(
        Options.ExtraArgs, ArgumentInsertPosition::END));

  // An installed tool does not sit next to clang: point the front end at
  // clang's builtin headers unless the command already does.
  std::string Executable =
      sys::fs::getMainExecutable(Argv0, reinterpret_cast<void *>(&finishSetup));
  std::string ResourceDir = findResourceDir(
      resourceDirCandidates(Executable, LIBTORCH_TIDY_CLANG_RESOURCE_DIR,
                            LIBTORCH_TIDY_LLVM_MAJOR_STRING));
  if (!ResourceDir.empty())
    Adjusting->appendArgumentsAdjuster(
        [ResourceDir](const CommandLineArguments &Args, StringRef) {
          if (hasResourceDirArgument(Args))
            return Args;
          CommandLineArguments Adjusted = Args;
          // After the compiler, or alone in an empty command.
          Adjusted.insert(Args.empty() ? Adjusted.begin()
                                       : std::next(Adjusted.begin()),
                          "-resource-dir=" + ResourceDir);
          return Adjusted;
        });
  Setup.Compilations = std::move(Adjusting);
  return Setup;
}

} // namespace
} // namespace libtorch_tidy
