//===--- LibTorchInstall.h - Which LibTorch a build uses --------*- C++ -*-===//
//
// Part of libtorch-tidy. SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//
//
// The LibTorch a CMake build links, from its Torch_DIR: where it is, which
// version it is. The probe links LibTorch, so it must be the same one as
// the measured program's; the report names it.
//
//===----------------------------------------------------------------------===//

#ifndef LIBTORCH_TIDY_RUNTIME_VERIFY_HARNESS_LIBTORCHINSTALL_H
#define LIBTORCH_TIDY_RUNTIME_VERIFY_HARNESS_LIBTORCHINSTALL_H

#include <optional>
#include <string>

namespace libtorch_tidy::verify {

struct LibTorchInstall {
  /// Torch_DIR as CMake found it (<prefix>/share/cmake/Torch for the zip,
  /// <prefix>/lib/<arch>/cmake/Torch for Debian), made canonical.
  std::string TorchDir;
  /// The prefix above it: include/ holds the headers.
  std::string Prefix;
  /// "2.15.0", from the TORCH_VERSION_* macros of its headers; empty when
  /// they cannot be read.
  std::string Version;
};

/// The LibTorch whose CMake package is in \p TorchDir; nothing when the
/// directory does not exist.
std::optional<LibTorchInstall> libTorchOfTorchDir(const std::string &TorchDir);

/// The version that the TORCH_VERSION_MAJOR/MINOR/PATCH definitions of
/// \p HeaderText spell ("2.15.0"); empty without them.
std::string versionOfHeader(const std::string &HeaderText);

} // namespace libtorch_tidy::verify

#endif
