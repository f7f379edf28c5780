//===--- ExitCodes.h - libtorch-tidy exit codes -----------------*- C++ -*-===//
//
// Part of libtorch-tidy. SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

#ifndef LIBTORCH_TIDY_DRIVER_MODEL_EXITCODES_H
#define LIBTORCH_TIDY_DRIVER_MODEL_EXITCODES_H

namespace libtorch_tidy {

/// The documented exit codes of the CLI (README, "Exit codes").
enum ExitCode : int {
  ExitNoFindings = 0,  ///< every input analyzed, nothing found
  ExitFindings = 1,    ///< at least one finding reported
  ExitUsageError = 2,  ///< bad usage, configuration or I/O
  ExitParseFailed = 3, ///< an input could not be parsed (others reported)
};
// A run stopped by SIGINT, SIGTERM or SIGHUP dies of that signal once its
// workers are gone (status 128+N as shells report it; run/WorkerProcess.h).

} // namespace libtorch_tidy

#endif // LIBTORCH_TIDY_DRIVER_MODEL_EXITCODES_H
