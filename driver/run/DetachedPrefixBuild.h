//===--- DetachedPrefixBuild.h - A prefix built for the next run -===//
//
// Part of libtorch-tidy. SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//
//
// A single unit analyzed once does not build its precompiled prefix: once is
// no reason to (preamble/PrecompiledPrefixes.h). But a run at a terminal is
// usually followed by an edit and another run, which would then build it and
// take longer than the first. When the parent has a core to spare
// (UnitScheduler.cpp), the worker that finds its prefix wanted for the first
// time starts the same command as a prefix builder (`--worker-preamble=
// build-only`) in a process of its own: a new session, the lowest priority,
// no terminal, not waited for. The run ends as it would have; the next one
// finds the prefix, or waits for the builder's lock instead of building it.
//
//===----------------------------------------------------------------------===//

#ifndef LIBTORCH_TIDY_DRIVER_RUN_DETACHEDPREFIXBUILD_H
#define LIBTORCH_TIDY_DRIVER_RUN_DETACHEDPREFIXBUILD_H

#include "llvm/ADT/ArrayRef.h"
#include <string>
#include <vector>

namespace libtorch_tidy::run {

/// The worker command line \p WorkerArgs (argv, the executable first) as a
/// prefix builder's: without its result file and its prefix role, with
/// `--worker-preamble=build-only`. Compiler arguments after `--` are kept as
/// they are. Empty when its worker flags do not parse.
std::vector<std::string>
prefixBuilderArguments(llvm::ArrayRef<std::string> WorkerArgs);

/// Starts this worker's command as a detached prefix builder (see above);
/// best effort: nothing is reported if it cannot start.
void startDetachedPrefixBuild();

} // namespace libtorch_tidy::run

#endif // LIBTORCH_TIDY_DRIVER_RUN_DETACHEDPREFIXBUILD_H
