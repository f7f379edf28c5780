//===--- FileIO.h - Reading inputs and writing outputs safely ---*- C++ -*-===//
//
// Part of libtorch-tidy. SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//
//
// The one place where libtorch-tidy writes a file the user named (`--output`,
// `--export-fixes`, `merge -o`, `verify --json/--html`, the files `--fix`
// changes) and reads a report or diff the user gave it (`merge`,
// `--baseline`, `--diff=-`). Plain C++ and POSIX, no LLVM, so the verify
// harness uses it too.
//
// Writing never loses what was there:
// - `-` is standard output.
// - A path that is not a regular file (a character device such as
//   /dev/stdout or /dev/null, a FIFO) is written through, as a shell
//   redirection would; it is never replaced by a regular file.
// - A symbolic link is followed (to any depth) and its final target is
//   replaced; the link stays a link.
// - A regular file (or a new one) is written to a temporary file in the same
//   directory, flushed to disk and renamed over the target, so a reader or a
//   killed run sees the old or the new content, never a mix. Any failure
//   (a full disk, an I/O error) removes the temporary file and keeps the old
//   content; the error names the file and the cause.
// - While the temporary file exists, SIGINT, SIGTERM, SIGHUP and SIGQUIT are
//   held back, so an interrupted run never leaves it behind; they are
//   delivered once it is renamed or removed.
//
// Reading refuses what is not a regular file (a FIFO would block, a device
// never ends) and anything larger than the caller's bound.
//
//===----------------------------------------------------------------------===//

#ifndef LIBTORCH_TIDY_SUPPORT_IO_FILEIO_H
#define LIBTORCH_TIDY_SUPPORT_IO_FILEIO_H

#include <cstddef>
#include <optional>
#include <string>
#include <string_view>

namespace libtorch_tidy::io {

/// What permissions the new content of a regular file gets.
enum class FileMode {
  /// Output of ours (a report): 0666 less the umask, as any program's new
  /// output file (0644 under the usual umask 022).
  Fresh,
  /// A user's file that we edit (`--fix`): the original's mode and, where
  /// allowed, owner. The file must exist and be a regular file.
  Preserve,
  /// A file in a directory of ours (the result cache, the precompiled
  /// prefixes, a worker's result), which may be shared or restored and so
  /// is untrusted: whatever is at the path is replaced by a regular file
  /// (mode as Fresh). A symbolic link is replaced, never followed, so its
  /// target is never written; a FIFO or device is replaced, never opened,
  /// so nothing blocks; a directory is an error.
  Owned,
  /// A secret of the user's (a signing key): a new file, readable and
  /// writable by its owner only (0600). Whatever is at the path already,
  /// a dangling symbolic link included, is an error and stays as it is.
  NewPrivate,
};

/// Writes \p Content to \p Path as the file comment says. Returns the error,
/// one line naming the path and the cause, or nothing on success.
std::optional<std::string> writeFile(const std::string &Path,
                                     std::string_view Content, FileMode Mode);

/// The start of the name of the temporary file that writeFile(\p Path)
/// creates beside a regular file (symbolic links resolved): what a process
/// killed mid-write (SIGKILL) may leave, for its parent to remove.
std::string temporaryPrefix(const std::string &Path);

/// Checks, before any work is done, that writeFile(\p Path) can succeed: its
/// directory exists and is writable (unless the path is `-` or an existing
/// non-regular file, which are written through). Returns the error.
std::optional<std::string> checkWritable(const std::string &Path);

/// Reads the whole regular file \p Path, of at most \p MaxBytes. FIFOs,
/// devices, directories and larger files are refused with a one-line error
/// naming the file (\p What says what it was for, e.g. "baseline").
std::optional<std::string> readRegularFile(const std::string &Path,
                                           std::size_t MaxBytes,
                                           std::string_view What,
                                           std::string &Error);

/// Reads file descriptor \p FD (standard input) to its end, at most
/// \p MaxBytes; more is an error naming \p Name.
std::optional<std::string> readStream(int FD, std::size_t MaxBytes,
                                      std::string_view Name,
                                      std::string &Error);

/// The largest report read back (`merge`, `--baseline`).
constexpr std::size_t MaxReportBytes = std::size_t(1) << 30;

/// The largest diff read (`--diff`): far more than any branch changes.
constexpr std::size_t MaxDiffBytes = std::size_t(64) << 20;

} // namespace libtorch_tidy::io

#endif // LIBTORCH_TIDY_SUPPORT_IO_FILEIO_H
