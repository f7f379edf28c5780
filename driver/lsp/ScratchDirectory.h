//===--- ScratchDirectory.h - The server's own temporary files --*- C++ -*-===//
//
// Part of libtorch-tidy. SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//
//
// The editor's unsaved texts reach an analysis as files (a VFS overlay). They
// live in one directory per server, `$TMPDIR/libtorch-tidy-lsp.<pid>.<start>`
// (the process's start time in clock ticks, so that a reused PID is not taken
// for the server), removed when the server ends, on every signal it can
// catch. A server killed with SIGKILL cannot remove it: the next server
// removes every such directory of this user whose process is gone, before it
// makes its own.
//
//===----------------------------------------------------------------------===//

#ifndef LIBTORCH_TIDY_DRIVER_LSP_SCRATCHDIRECTORY_H
#define LIBTORCH_TIDY_DRIVER_LSP_SCRATCHDIRECTORY_H

#include "llvm/ADT/StringRef.h"
#include <string>
#include <sys/types.h>

namespace libtorch_tidy::lsp {

class ScratchDirectory {
public:
  /// Removes the directories of servers that are gone from \p TempDir and
  /// makes this process's; path() is empty if it could not be made.
  explicit ScratchDirectory(llvm::StringRef TempDir);
  ~ScratchDirectory();
  ScratchDirectory(const ScratchDirectory &) = delete;
  ScratchDirectory &operator=(const ScratchDirectory &) = delete;

  const std::string &path() const { return Path; }

private:
  std::string Path;
};

/// The start time of process \p Pid (field 22 of /proc/<pid>/stat, clock
/// ticks since boot); empty when there is no such process.
std::string processStartTime(pid_t Pid);

} // namespace libtorch_tidy::lsp

#endif
