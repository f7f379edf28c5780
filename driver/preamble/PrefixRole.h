//===--- PrefixRole.h - Who builds a missing precompiled prefix -*- C++ -*-===//
//
// Part of libtorch-tidy. SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//
//
// A header of its own, so that the command line (config/OptionsSetup.h,
// `--worker-preamble=`) names a role without the engine's headers
// (PrecompiledPrefixes.h).
//
//===----------------------------------------------------------------------===//

#ifndef LIBTORCH_TIDY_DRIVER_PREAMBLE_PREFIXROLE_H
#define LIBTORCH_TIDY_DRIVER_PREAMBLE_PREFIXROLE_H

namespace libtorch_tidy::preamble {

/// What a worker does about its unit's precompiled prefix when none is
/// stored (`--worker-preamble=`; PrecompiledPrefixes.h).
enum class PrefixRole {
  /// The CLI's rule: build it when it pays.
  Analyze,
  /// The language server's analyses: use a stored prefix, never build one
  /// nor wait for one (the server builds it apart: lsp/ServerPrefixBuilds.cpp).
  ReuseOnly,
  /// A prefix builder: build the prefix, analyze nothing.
  BuildOnly,
  /// A run at a terminal with a core to spare: a prefix wanted for the
  /// first time is built by a detached, low-priority process for the next
  /// run (run/DetachedPrefixBuild.h).
  BuildDetached,
};

} // namespace libtorch_tidy::preamble

#endif // LIBTORCH_TIDY_DRIVER_PREAMBLE_PREFIXROLE_H
