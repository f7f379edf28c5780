//===--- Workspace.cpp - Variants of the program under test ---------------===//
//
// Part of libtorch-tidy. SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

#include "Workspace.h"

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <sstream>

namespace fs = std::filesystem;

namespace libtorch_tidy::verify {
namespace {

bool isUnder(const std::string &Path, const std::string &Dir) {
  return Path == Dir ||
         (Path.size() > Dir.size() && Path.compare(0, Dir.size(), Dir) == 0 &&
          (Dir.back() == '/' || Path[Dir.size()] == '/'));
}

std::string replaceAll(std::string S, const std::string &From,
                       const std::string &To) {
  if (From.empty())
    return S;
  size_t Pos = 0;
  while ((Pos = S.find(From, Pos)) != std::string::npos) {
    // Only whole path components: the next character ends the prefix.
    const size_t End = Pos + From.size();
    if (End < S.size() && S[End] != '/' && S[End] != ' ' && S[End] != '"' &&
        S[End] != '\'') {
      Pos = End;
      continue;
    }
    S.replace(Pos, From.size(), To);
    Pos += To.size();
  }
  return S;
}

std::string cmakeQuote(const std::string &S) {
  std::string Out = "\"";
  for (char C : S) {
    if (C == '"' || C == '\\' || C == '$')
      Out += '\\';
    Out += C;
  }
  return Out + "\"";
}

} // namespace

std::string movePath(const std::string &Path, const std::string &From,
                     const std::string &To) {
  if (!isUnder(Path, From))
    return Path;
  return To + Path.substr(From.size());
}

bool readCMakeCache(const std::string &BuildDir, CMakeCache &Out,
                    std::string &Error) {
  const std::string Path = BuildDir + "/CMakeCache.txt";
  std::ifstream In(Path);
  if (!In) {
    Error = fmt::format("{}: not found; pass the CMake build directory with "
                        "-p, or use --build-cmd for other build systems",
                        Path);
    return false;
  }
  std::string L;
  while (std::getline(In, L)) {
    if (L.empty() || L[0] == '#' || L.rfind("//", 0) == 0)
      continue;
    const size_t Colon = L.find(':');
    const size_t Eq = L.find('=', Colon == std::string::npos ? 0 : Colon);
    if (Colon == std::string::npos || Eq == std::string::npos)
      continue;
    const std::string Name = L.substr(0, Colon);
    const std::string Type = L.substr(Colon + 1, Eq - Colon - 1);
    const std::string Value = L.substr(Eq + 1);
    if (Name == "CMAKE_HOME_DIRECTORY")
      Out.HomeDirectory = Value;
    else if (Name == "CMAKE_GENERATOR")
      Out.Generator = Value;
    else if (Name == "Torch_DIR")
      Out.TorchDir = Value;
    else if (Name == "CMAKE_BUILD_TYPE")
      Out.BuildType = Value;
    // INTERNAL and STATIC entries are CMake's own bookkeeping; a value
    // inside the old build directory (a FetchContent dir, a cache of a
    // sub-build) would point the copy back at it.
    if (Type == "INTERNAL" || Type == "STATIC" || Type == "UNINITIALIZED" ||
        isUnder(Value, BuildDir) || Name.rfind("CMAKE_CACHEFILE_DIR", 0) == 0)
      continue;
    Out.InitialCacheScript += fmt::format("set({} {} CACHE {} \"\" FORCE)\n",
                                          Name, cmakeQuote(Value), Type);
  }
  if (Out.HomeDirectory.empty()) {
    Error = fmt::format("{}: no CMAKE_HOME_DIRECTORY", Path);
    return false;
  }
  return true;
}

bool targetSources(const std::string &BuildDir, const std::string &Target,
                   const std::string &SourceRoot, std::vector<std::string> &Out,
                   std::string &Error) {
  const std::string Path = BuildDir + "/compile_commands.json";
  std::ifstream In(Path);
  if (!In) {
    Error = fmt::format("{}: not found; configure with "
                        "-DCMAKE_EXPORT_COMPILE_COMMANDS=ON",
                        Path);
    return false;
  }
  nlohmann::json Db;
  try {
    In >> Db;
  } catch (const std::exception &E) {
    Error = fmt::format("{}: not valid JSON ({})", Path, E.what());
    return false;
  }
  const std::string Marker = "CMakeFiles/" + Target + ".dir/";
  for (const auto &Entry : Db) {
    std::string File = Entry.value("file", "");
    if (File.empty())
      continue;
    if (!fs::path(File).is_absolute())
      File = (fs::path(Entry.value("directory", "")) / File).lexically_normal();
    std::string Command = Entry.value("command", "");
    if (Entry.contains("arguments"))
      for (const auto &A : Entry["arguments"])
        Command += " " + A.get<std::string>();
    Command += " " + Entry.value("output", "");
    const bool Belongs = Target.empty()
                             ? isUnder(File, SourceRoot)
                             : Command.find(Marker) != std::string::npos;
    if (Belongs && std::find(Out.begin(), Out.end(), File) == Out.end())
      Out.push_back(File);
  }
  if (Out.empty()) {
    Error = Target.empty()
                ? fmt::format("{}: no file under {}", Path, SourceRoot)
                : fmt::format("{}: no source of target '{}' (is it a CMake "
                              "target built in this directory?)",
                              Path, Target);
    return false;
  }
  return true;
}

/// Copies the link \p Link of the tree \p Root to \p Target in its copy
/// \p Dest (see copySourceTree()).
static void copyLink(const fs::path &Link, const fs::path &Root,
                     const fs::path &Dest, const fs::path &Target,
                     std::error_code &EC) {
  std::error_code Ignored;
  const fs::path Resolved = fs::canonical(Link, Ignored);
  if (Ignored)
    return; // dangling: nothing a build can read
  const fs::path RealRoot = fs::canonical(Root, Ignored);
  if (!Ignored && isUnder(Resolved.string(), RealRoot.string())) {
    // The same place in the copy, however the link was spelled.
    const fs::path Mirrored = Dest / Resolved.lexically_relative(RealRoot);
    fs::create_symlink(Mirrored.lexically_relative(Target.parent_path()),
                       Target, EC);
    return;
  }
  if (fs::is_directory(Resolved, EC)) {
    fs::create_directory_symlink(Resolved, Target, EC);
    return;
  }
  fs::copy_file(Resolved, Target, fs::copy_options::overwrite_existing, EC);
}

bool copySourceTree(const std::string &SourceRoot, const std::string &BuildDir,
                    const std::string &Dest, std::string &Error) {
  std::error_code EC;
  fs::create_directories(Dest, EC);
  for (auto It = fs::recursive_directory_iterator(
           SourceRoot, fs::directory_options::none, EC);
       !EC && It != fs::recursive_directory_iterator(); It.increment(EC)) {
    const std::string P = It->path().string();
    const std::string Name = It->path().filename().string();
    if ((It->is_directory() && !It->is_symlink() &&
         (Name == ".git" || isUnder(P, BuildDir) ||
          fs::exists(It->path() / "CMakeCache.txt"))) ||
        isUnder(Dest, P)) {
      // Build trees (this one or any other) and the scratch copy itself stay
      // out: they can be large and are rebuilt anyway.
      It.disable_recursion_pending();
      continue;
    }
    // Lexically: fs::relative() resolves links, and would put a link's
    // copy beside its target, outside Dest.
    const fs::path Target =
        fs::path(Dest) / It->path().lexically_relative(SourceRoot);
    if (It->is_symlink())
      copyLink(It->path(), fs::path(SourceRoot), fs::path(Dest), Target, EC);
    else if (It->is_directory())
      fs::create_directories(Target, EC);
    else if (It->is_regular_file())
      fs::copy_file(It->path(), Target, fs::copy_options::overwrite_existing,
                    EC);
    if (EC)
      break;
  }
  if (EC) {
    Error = fmt::format("copying {} to {}: {}", SourceRoot, Dest, EC.message());
    return false;
  }
  return true;
}

bool writeMovedCompileCommands(const std::string &BuildDir,
                               const std::vector<std::string> &Files,
                               const std::string &SourceRoot,
                               const std::string &NewSourceRoot,
                               const std::string &NewBuildDir,
                               const std::string &DestDir, std::string &Error) {
  std::ifstream In(BuildDir + "/compile_commands.json");
  nlohmann::json Db;
  try {
    In >> Db;
  } catch (const std::exception &E) {
    Error = E.what();
    return false;
  }
  // The build directory first: it is often inside the source root.
  auto Move = [&](const std::string &S) {
    return replaceAll(replaceAll(S, BuildDir, NewBuildDir), SourceRoot,
                      NewSourceRoot);
  };
  nlohmann::json Moved = nlohmann::json::array();
  std::error_code EC;
  for (auto Entry : Db) {
    std::string File = Entry.value("file", "");
    if (!fs::path(File).is_absolute())
      File = (fs::path(Entry.value("directory", "")) / File).lexically_normal();
    if (std::find(Files.begin(), Files.end(), File) == Files.end())
      continue;
    for (const char *Key : {"file", "directory", "command", "output"})
      if (Entry.contains(Key))
        Entry[Key] = Move(Entry[Key].get<std::string>());
    if (Entry.contains("arguments"))
      for (auto &A : Entry["arguments"])
        A = Move(A.get<std::string>());
    // Tooling resolves relative paths against it: it must exist.
    fs::create_directories(Entry.value("directory", NewBuildDir), EC);
    Moved.push_back(Entry);
  }
  fs::create_directories(DestDir, EC);
  std::ofstream Out(DestDir + "/compile_commands.json");
  Out << Moved.dump(2) << "\n";
  if (!Out) {
    Error = fmt::format("cannot write {}/compile_commands.json", DestDir);
    return false;
  }
  return true;
}

} // namespace libtorch_tidy::verify
