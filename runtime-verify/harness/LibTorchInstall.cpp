//===--- LibTorchInstall.cpp - Which LibTorch a build uses ----------------===//
//
// Part of libtorch-tidy. SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

#include "LibTorchInstall.h"

#include <filesystem>
#include <fstream>
#include <regex>
#include <sstream>

namespace fs = std::filesystem;

namespace libtorch_tidy::verify {

std::string versionOfHeader(const std::string &HeaderText) {
  std::string Parts[3];
  const char *Names[3] = {"MAJOR", "MINOR", "PATCH"};
  for (int I = 0; I < 3; ++I) {
    const std::regex Define(std::string("#\\s*define\\s+TORCH_VERSION_") +
                            Names[I] + "\\s+([0-9]+)");
    std::smatch M;
    if (!std::regex_search(HeaderText, M, Define))
      return "";
    Parts[I] = M[1];
  }
  return Parts[0] + "." + Parts[1] + "." + Parts[2];
}

std::optional<LibTorchInstall> libTorchOfTorchDir(const std::string &TorchDir) {
  std::error_code EC;
  const fs::path Dir = fs::canonical(TorchDir, EC);
  if (EC || !fs::is_directory(Dir))
    return std::nullopt;
  LibTorchInstall Out;
  Out.TorchDir = Dir.string();
  // <prefix>/share/cmake/Torch (the zip, the wheel) or
  // <prefix>/lib/<arch>/cmake/Torch (Debian): the first ancestor with the
  // C++ API's headers below include/.
  for (fs::path P = Dir.parent_path(); !P.empty() && P != P.parent_path();
       P = P.parent_path()) {
    // 2.x defines the version in torch/headeronly/version.h, which
    // torch/version.h includes; 1.x in torch/version.h itself.
    for (const char *Header :
         {"include/torch/headeronly/version.h",
          "include/torch/csrc/api/include/torch/version.h"}) {
      std::ifstream In(P / Header);
      if (!In)
        continue;
      std::stringstream Text;
      Text << In.rdbuf();
      Out.Prefix = P.string();
      Out.Version = versionOfHeader(Text.str());
      if (!Out.Version.empty())
        return Out;
    }
    if (!Out.Prefix.empty())
      return Out;
  }
  return Out;
}

} // namespace libtorch_tidy::verify
