//===--- PrefixRole.h - Who builds a missing precompiled prefix -*- C++ -*-===//
//
// Part of libtorch-tidy. SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//
//
// Part of a worker's request (WorkerProtocol.h, `--worker-preamble=`), in a
// header of its own so that the protocol, the command line and the language
// server name a role without the prefix engine's headers
// (preamble/PrecompiledPrefixes.h).
//
//===----------------------------------------------------------------------===//

#ifndef LIBTORCH_TIDY_DRIVER_WORKER_PREFIXROLE_H
#define LIBTORCH_TIDY_DRIVER_WORKER_PREFIXROLE_H

namespace libtorch_tidy::worker {

/// What a worker does about its unit's precompiled prefix when none is
/// stored (`--worker-preamble=`; preamble/PrecompiledPrefixes.h).
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

} // namespace libtorch_tidy::worker

#endif // LIBTORCH_TIDY_DRIVER_WORKER_PREFIXROLE_H
