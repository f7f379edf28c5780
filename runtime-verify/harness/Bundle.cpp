//===--- Bundle.cpp - verify's prepared bundles ---------------------------===//
//
// Part of libtorch-tidy. SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

#include "Bundle.h"
#include "Process.h"
#include "Workspace.h"
#include "io/FileIO.h"

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <stdlib.h>

namespace fs = std::filesystem;

namespace libtorch_tidy::verify {

namespace {

constexpr const char *BuildMark = "{build}";
constexpr const char *SourceMark = "{source}";

bool startsWith(const std::string &S, const std::string &Prefix) {
  return S.compare(0, Prefix.size(), Prefix) == 0;
}

/// Copies the kit's file From to To.
bool copyKitFile(const fs::path &From, const fs::path &To, std::string &Error) {
  std::error_code EC;
  fs::create_directories(To.parent_path(), EC);
  if (!EC)
    fs::copy_file(From, To, fs::copy_options::overwrite_existing, EC);
  if (EC) {
    Error = fmt::format("{}: cannot be copied into the bundle ({}); the "
                        "harness's sources are needed for a bundle "
                        "(reinstall libtorch-tidy)",
                        From.string(), EC.message());
    return false;
  }
  return true;
}

/// Copies the regular files and directories under From to To, leaving out
/// build trees (a CMakeCache.txt) and .git: the tools' sources only.
bool copyKitDir(const fs::path &From, const fs::path &To, std::string &Error) {
  std::error_code EC;
  if (!fs::is_directory(From, EC)) {
    Error = fmt::format("{}: not found; the harness's sources are needed for "
                        "a bundle (reinstall libtorch-tidy)",
                        From.string());
    return false;
  }
  fs::create_directories(To, EC);
  for (auto It = fs::recursive_directory_iterator(From, EC);
       !EC && It != fs::recursive_directory_iterator(); It.increment(EC)) {
    const fs::path Rel = It->path().lexically_relative(From);
    if (It->is_directory()) {
      if (It->path().filename() == ".git" ||
          fs::exists(It->path() / "CMakeCache.txt")) {
        It.disable_recursion_pending();
        continue;
      }
      fs::create_directories(To / Rel, EC);
    } else if (It->is_regular_file()) {
      fs::copy_file(It->path(), To / Rel, fs::copy_options::overwrite_existing,
                    EC);
    }
  }
  if (EC) {
    Error = fmt::format("copying {}: {}", From.string(), EC.message());
    return false;
  }
  return true;
}

nlohmann::json findingJson(const Finding &F) {
  return {{"check", F.Check},   {"message", F.Message}, {"file", F.File},
          {"offset", F.Offset}, {"line", F.Line},       {"has_fix", F.HasFix}};
}

Finding findingOf(const nlohmann::json &J) {
  Finding F;
  F.Check = J.at("check").get<std::string>();
  F.Message = J.value("message", "");
  F.File = J.at("file").get<std::string>();
  F.Offset = J.value("offset", 0u);
  F.Line = J.value("line", 0u);
  F.HasFix = J.value("has_fix", false);
  return F;
}

} // namespace

std::string toPlaceholder(const std::string &Arg, const std::string &BuildDir,
                          const std::string &SourceRoot) {
  // The build directory first: it may lie inside the source tree.
  std::string M = movePath(Arg, BuildDir, BuildMark);
  if (M == Arg)
    M = movePath(Arg, SourceRoot, SourceMark);
  return M;
}

std::string fromPlaceholder(const std::string &Arg, const std::string &BuildDir,
                            const std::string &SourceRoot) {
  for (const auto &[Mark, Dir] :
       {std::pair<std::string, std::string>{BuildMark, BuildDir},
        {SourceMark, SourceRoot}})
    if (Arg == Mark || startsWith(Arg, Mark + std::string("/")))
      return Dir + Arg.substr(Mark.size());
  return Arg;
}

uint64_t directorySize(const std::string &Dir) {
  uint64_t Bytes = 0;
  std::error_code EC;
  for (auto It = fs::recursive_directory_iterator(Dir, EC);
       !EC && It != fs::recursive_directory_iterator(); It.increment(EC))
    if (It->is_regular_file() && !It->is_symlink())
      Bytes += It->file_size();
  return Bytes;
}

bool writeBundle(const std::string &Dir, const BundleRecipe &Recipe,
                 const std::string &OriginalRoot, const std::string &FixedRoot,
                 const std::string &BuildDir, const KitSources &Kit,
                 std::string &Error) {
  // Assembled beside its destination (same file system: one rename), under
  // a name no earlier bundle has.
  std::string Staging = Dir + ".partial-XXXXXX";
  if (mkdtemp(Staging.data()) == nullptr) {
    Error = fmt::format("{}: cannot create a directory beside it: {}", Dir,
                        std::strerror(errno));
    return false;
  }
  auto Fail = [&] {
    std::error_code EC;
    fs::remove_all(Staging, EC);
    return false;
  };
  const fs::path S = Staging;
  if (!copySourceTree(OriginalRoot, BuildDir, (S / "original").string(),
                      Error) ||
      !copySourceTree(FixedRoot, BuildDir, (S / "fixed").string(), Error))
    return Fail();
  const fs::path Tools = S / "tools";
  const fs::path Root = Kit.Root;
  if (!copyKitDir(Root / "runtime-verify", Tools / "runtime-verify", Error) ||
      !copyKitDir(Root / "support" / "io", Tools / "support" / "io", Error) ||
      !copyKitFile(Root / "checks" / "Catalog.def",
                   Tools / "checks" / "Catalog.def", Error) ||
      !copyKitDir(fs::path(Kit.FmtInclude) / "fmt",
                  Tools / "third_party" / "fmt" / "include" / "fmt", Error) ||
      !copyKitDir(fs::path(Kit.JsonInclude) / "nlohmann",
                  Tools / "third_party" / "nlohmann_json" / "include" /
                      "nlohmann",
                  Error))
    return Fail();

  nlohmann::json J;
  J["format"] = BundleFormat;
  J["target"] = Recipe.Target;
  J["build_cmd"] = Recipe.BuildCmd;
  J["cmake_subdir"] = Recipe.CMakeSubdir;
  J["build_subdir"] = Recipe.BuildSubdir;
  J["build_type"] = Recipe.BuildType;
  J["command"] = Recipe.Command;
  J["prepared_with_libtorch"] = Recipe.PreparedWithLibTorch;
  J["findings"] = nlohmann::json::array();
  for (const Finding &F : Recipe.Findings)
    J["findings"].push_back(findingJson(F));
  if (std::optional<std::string> Problem =
          io::writeFile((S / "bundle.json").string(), J.dump(2) + "\n",
                        io::FileMode::Fresh)) {
    Error = *Problem;
    return Fail();
  }
  // An empty directory left by the user (checked by the options) is
  // replaced; rename() refuses any other.
  std::error_code EC;
  fs::remove(Dir, EC);
  if (std::rename(Staging.c_str(), Dir.c_str()) != 0) {
    Error = fmt::format("{}: cannot move the bundle into place: {}", Dir,
                        std::strerror(errno));
    return Fail();
  }
  return true;
}

bool readBundle(const std::string &Dir, BundleRecipe &Out, std::string &Error) {
  const std::string Path = Dir + "/bundle.json";
  std::string ReadError;
  const std::optional<std::string> Text =
      io::readRegularFile(Path, 16 << 20, "bundle recipe", ReadError);
  if (!Text) {
    Error = ReadError + " (a directory written by libtorch-tidy verify "
                        "--prepare is expected)";
    return false;
  }
  try {
    const nlohmann::json J = nlohmann::json::parse(*Text);
    if (J.value("format", 0) != BundleFormat) {
      Error = fmt::format("{}: bundle format {} is not {}, the one this "
                          "harness reads; prepare it again with the same "
                          "libtorch-tidy version",
                          Path, J.value("format", 0), BundleFormat);
      return false;
    }
    Out.Target = J.at("target").get<std::string>();
    Out.BuildCmd = J.at("build_cmd").get<std::string>();
    Out.CMakeSubdir = J.value("cmake_subdir", "");
    Out.BuildSubdir = J.value("build_subdir", "");
    Out.BuildType = J.value("build_type", "");
    Out.Command = J.at("command").get<std::vector<std::string>>();
    Out.PreparedWithLibTorch = J.value("prepared_with_libtorch", "");
    for (const nlohmann::json &F : J.at("findings"))
      Out.Findings.push_back(findingOf(F));
  } catch (const std::exception &E) {
    Error = fmt::format("{}: not a bundle recipe ({}); prepare it again with "
                        "libtorch-tidy verify --prepare",
                        Path, E.what());
    return false;
  }
  if (Out.Target.empty() == Out.BuildCmd.empty() || Out.Command.empty()) {
    Error = fmt::format("{}: needs exactly one of target and build_cmd, and "
                        "a command; prepare it again",
                        Path);
    return false;
  }
  for (const char *Part : {"original", "fixed"})
    if (!fs::is_directory(Dir + "/" + Part)) {
      Error = fmt::format("{}/{}: missing; the bundle is incomplete, prepare "
                          "it again",
                          Dir, Part);
      return false;
    }
  return true;
}

} // namespace libtorch_tidy::verify
