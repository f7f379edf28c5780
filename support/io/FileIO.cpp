//===--- FileIO.cpp - Reading inputs and writing outputs safely -----------===//
//
// Part of libtorch-tidy. SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

#include "io/FileIO.h"

#include <cerrno>
#include <climits>
#include <csignal>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fcntl.h>
#include <pthread.h>
#include <sys/stat.h>
#include <unistd.h>
#include <vector>

namespace libtorch_tidy::io {
namespace {

std::string cause(int Errno) { return std::strerror(Errno); }

std::string parentOf(const std::string &Path) {
  size_t Slash = Path.rfind('/');
  if (Slash == std::string::npos)
    return ".";
  return Slash == 0 ? "/" : Path.substr(0, Slash);
}

std::string baseName(const std::string &Path) {
  size_t Slash = Path.rfind('/');
  return Slash == std::string::npos ? Path : Path.substr(Slash + 1);
}

/// Paths the kernel resolves itself (/dev/stdout is a link to
/// /proc/self/fd/1, whose target may be a pipe): written through, never
/// replaced.
bool isKernelPath(const std::string &Path) {
  return Path.rfind("/dev/", 0) == 0 || Path.rfind("/proc/", 0) == 0;
}

/// Writes all of \p Content to \p FD; returns errno on failure.
int writeAll(int FD, std::string_view Content) {
  const char *Data = Content.data();
  size_t Left = Content.size();
  while (Left > 0) {
    ssize_t Written = ::write(FD, Data, Left);
    if (Written < 0) {
      if (errno == EINTR)
        continue;
      return errno;
    }
    Data += Written;
    Left -= static_cast<size_t>(Written);
  }
  return 0;
}

/// The file a path names after following symbolic links, also dangling
/// ones (whose target is then created). Empty with \p Errno set on a loop.
std::string finalTarget(const std::string &Path, int &Errno) {
  std::string Current = Path;
  for (int Hops = 0; Hops < 40; ++Hops) {
    struct stat Link;
    if (::lstat(Current.c_str(), &Link) != 0 || !S_ISLNK(Link.st_mode))
      return Current;
    std::vector<char> Buffer(PATH_MAX + 1);
    ssize_t Length = ::readlink(Current.c_str(), Buffer.data(), PATH_MAX);
    if (Length < 0) {
      Errno = errno;
      return "";
    }
    std::string Target(Buffer.data(), static_cast<size_t>(Length));
    if (!Target.empty() && Target[0] == '/') {
      Current = Target;
    } else {
      Current = parentOf(Current);
      Current.append("/").append(Target);
    }
  }
  Errno = ELOOP;
  return "";
}

mode_t currentUmask() {
  // /proc/self/status says it without changing it (umask() would, for a
  // moment, for every thread).
  if (FILE *Status = std::fopen("/proc/self/status", "r")) {
    char Line[256];
    unsigned Mask = 0;
    bool Found = false;
    while (!Found && std::fgets(Line, sizeof Line, Status))
      Found = std::sscanf(Line, "Umask: %o", &Mask) == 1;
    std::fclose(Status);
    if (Found)
      return static_cast<mode_t>(Mask);
  }
  mode_t Mask = ::umask(022);
  ::umask(Mask);
  return Mask;
}

/// Holds back the signals that end a run while a temporary file exists.
class HeldSignals {
public:
  HeldSignals() {
    sigset_t Set;
    sigemptyset(&Set);
    for (int Signal : {SIGINT, SIGTERM, SIGHUP, SIGQUIT})
      sigaddset(&Set, Signal);
    pthread_sigmask(SIG_BLOCK, &Set, &Previous);
  }
  ~HeldSignals() { pthread_sigmask(SIG_SETMASK, &Previous, nullptr); }
  HeldSignals(const HeldSignals &) = delete;
  HeldSignals &operator=(const HeldSignals &) = delete;

private:
  sigset_t Previous;
};

std::string failure(const std::string &Path, int Errno, bool Kept) {
  std::string Message = "cannot write '" + Path + "': " + cause(Errno);
  if (Errno == ENOSPC || Errno == EDQUOT)
    return Message + (Kept ? "; its previous content is kept" : "") +
           "; free some space and run again";
  if (Errno == EACCES || Errno == EPERM || Errno == EROFS)
    return Message + "; choose a writable path";
  if (Errno == ENOENT)
    return Message + "; create its directory first";
  return Message + (Kept ? "; its previous content is kept" : "");
}

std::optional<std::string> writeThrough(const std::string &Path,
                                        std::string_view Content) {
  int FD = ::open(Path.c_str(), O_WRONLY | O_TRUNC | O_NOCTTY | O_CLOEXEC);
  if (FD < 0)
    return failure(Path, errno, /*Kept=*/false);
  int Errno = writeAll(FD, Content);
  if (::close(FD) != 0 && Errno == 0 && errno != EINTR)
    Errno = errno;
  if (Errno)
    return failure(Path, Errno, /*Kept=*/false);
  return std::nullopt;
}

std::optional<std::string> replaceRegular(const std::string &Shown,
                                          const std::string &Target,
                                          std::string_view Content,
                                          FileMode Mode) {
  struct stat Original;
  const bool Exists = ::stat(Target.c_str(), &Original) == 0;
  if (Mode == FileMode::Preserve && !Exists)
    return failure(Shown, errno, /*Kept=*/false);

  HeldSignals Held;
  std::string Temp =
      parentOf(Target) + "/" + temporaryPrefix(Target) + "XXXXXX";
  int FD = ::mkostemp(Temp.data(), O_CLOEXEC);
  if (FD < 0)
    return failure(Shown, errno, Exists);
  auto Abandon = [&](int Errno) {
    ::close(FD);
    ::unlink(Temp.c_str());
    return failure(Shown, Errno, Exists);
  };
  if (int Errno = writeAll(FD, Content))
    return Abandon(Errno);
  if (Mode == FileMode::Preserve) {
    // The owner, where allowed (root fixing another user's file), and the
    // mode of the original.
    if (::fchown(FD, Original.st_uid, Original.st_gid) != 0) {
      // Not permitted for a non-root user with another owner: keep ours.
    }
    if (::fchmod(FD, Original.st_mode & 07777) != 0)
      return Abandon(errno);
  } else if (::fchmod(FD, Mode == FileMode::NewPrivate
                              ? 0600
                              : 0666 & ~currentUmask()) != 0) {
    return Abandon(errno);
  }
  // On disk before the rename, so a crash cannot leave an empty file there.
  if (::fsync(FD) != 0)
    return Abandon(errno);
  if (::close(FD) != 0) {
    int Errno = errno;
    ::unlink(Temp.c_str());
    return failure(Shown, Errno, Exists);
  }
  // A new file is linked into place, which fails where anything appeared
  // at the path meanwhile; rename would replace it.
  if (Mode == FileMode::NewPrivate ? ::link(Temp.c_str(), Target.c_str())
                                   : ::rename(Temp.c_str(), Target.c_str())) {
    int Errno = errno;
    ::unlink(Temp.c_str());
    if (Errno == EEXIST)
      return "cannot write '" + Shown + "': it exists; it was left as it is";
    return failure(Shown, Errno, Exists);
  }
  if (Mode == FileMode::NewPrivate)
    ::unlink(Temp.c_str());
  return std::nullopt;
}

} // namespace

std::string temporaryPrefix(const std::string &Path) {
  return "." + baseName(Path) + ".libtorch-tidy-";
}

std::optional<std::string> writeFile(const std::string &Path,
                                     std::string_view Content, FileMode Mode) {
  if (Path == "-") {
    if (int Errno = writeAll(STDOUT_FILENO, Content))
      return "cannot write to standard output: " + cause(Errno);
    return std::nullopt;
  }
  if (Mode == FileMode::NewPrivate) {
    struct stat Entry;
    if (::lstat(Path.c_str(), &Entry) == 0)
      return "cannot write '" + Path +
             "': it exists; it was left as it is (name a new file)";
    return replaceRegular(Path, Path, Content, Mode);
  }
  if (Mode == FileMode::Owned) {
    // lstat: the path itself, not what a link there points to.
    struct stat Entry;
    if (::lstat(Path.c_str(), &Entry) == 0 && S_ISDIR(Entry.st_mode))
      return "cannot write '" + Path + "': it is a directory";
    return replaceRegular(Path, Path, Content, Mode);
  }
  struct stat Status;
  const bool Exists = ::stat(Path.c_str(), &Status) == 0;
  if (Exists && S_ISDIR(Status.st_mode))
    return "cannot write '" + Path +
           "': it is a directory; name a file to write";
  if (Exists && !S_ISREG(Status.st_mode)) {
    if (Mode == FileMode::Preserve)
      return "cannot write '" + Path +
             "': it is not a regular file; it was left as it is";
    return writeThrough(Path, Content);
  }
  if (Exists && isKernelPath(Path) && Mode == FileMode::Fresh)
    return writeThrough(Path, Content);
  int Errno = 0;
  std::string Target = finalTarget(Path, Errno);
  if (Target.empty())
    return failure(Path, Errno, Exists);
  return replaceRegular(Path, Target, Content, Mode);
}

std::optional<std::string> checkWritable(const std::string &Path) {
  if (Path.empty() || Path == "-")
    return std::nullopt;
  struct stat Status;
  if (::stat(Path.c_str(), &Status) == 0) {
    if (S_ISDIR(Status.st_mode))
      return "cannot write '" + Path +
             "': it is a directory; name a file to write";
    if (!S_ISREG(Status.st_mode) || isKernelPath(Path))
      return std::nullopt; // written through
  }
  int Errno = 0;
  std::string Target = finalTarget(Path, Errno);
  if (Target.empty())
    return failure(Path, Errno, false);
  std::string Directory = parentOf(Target);
  struct stat DirStatus;
  if (::stat(Directory.c_str(), &DirStatus) != 0 || !S_ISDIR(DirStatus.st_mode))
    return "cannot write '" + Path +
           "': its directory does not exist; create it first";
  if (::access(Directory.c_str(), W_OK | X_OK) != 0)
    return "cannot write '" + Path +
           "': its directory is not writable; choose another path";
  return std::nullopt;
}

std::optional<std::string> readRegularFile(const std::string &Path,
                                           std::size_t MaxBytes,
                                           std::string_view What,
                                           std::string &Error) {
  // O_NONBLOCK: opening a FIFO must not wait for a writer.
  int FD = ::open(Path.c_str(), O_RDONLY | O_NONBLOCK | O_NOCTTY | O_CLOEXEC);
  if (FD < 0) {
    Error =
        "cannot read " + std::string(What) + " '" + Path + "': " + cause(errno);
    return std::nullopt;
  }
  struct stat Status;
  if (::fstat(FD, &Status) != 0 || !S_ISREG(Status.st_mode)) {
    ::close(FD);
    Error = "cannot read " + std::string(What) + " '" + Path +
            "': it is not a regular file (a directory, FIFO or device); "
            "give a file";
    return std::nullopt;
  }
  if (static_cast<std::size_t>(Status.st_size) > MaxBytes) {
    ::close(FD);
    Error = "cannot read " + std::string(What) + " '" + Path + "': it is " +
            std::to_string(Status.st_size) + " bytes, more than the " +
            std::to_string(MaxBytes >> 20) + " MiB allowed";
    return std::nullopt;
  }
  ::fcntl(FD, F_SETFL, ::fcntl(FD, F_GETFL) & ~O_NONBLOCK);
  std::string Name = std::string(What) + " '" + Path + "'";
  std::optional<std::string> Content = readStream(FD, MaxBytes, Name, Error);
  ::close(FD);
  return Content;
}

std::optional<std::string> readStream(int FD, std::size_t MaxBytes,
                                      std::string_view Name,
                                      std::string &Error) {
  std::string Content;
  char Buffer[65536];
  for (;;) {
    ssize_t Read = ::read(FD, Buffer, sizeof Buffer);
    if (Read < 0) {
      if (errno == EINTR)
        continue;
      Error = "cannot read " + std::string(Name) + ": " + cause(errno);
      return std::nullopt;
    }
    if (Read == 0)
      return Content;
    if (Content.size() + static_cast<size_t>(Read) > MaxBytes) {
      Error = "cannot read " + std::string(Name) + ": it is longer than the " +
              std::to_string(MaxBytes >> 20) + " MiB allowed";
      return std::nullopt;
    }
    Content.append(Buffer, static_cast<size_t>(Read));
  }
}

} // namespace libtorch_tidy::io
