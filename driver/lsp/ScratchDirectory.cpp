//===--- ScratchDirectory.cpp - The server's own temporary files ----------===//
//
// Part of libtorch-tidy. SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

#include "lsp/ScratchDirectory.h"
#include "llvm/ADT/SmallString.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Path.h"

#include <fstream>
#include <sstream>
#include <sys/stat.h>
#include <unistd.h>

using namespace llvm;

namespace libtorch_tidy::lsp {

namespace {

constexpr StringLiteral Prefix = "libtorch-tidy-lsp.";

/// Removes the scratch directories in \p TempDir of this user's servers
/// that are gone: their PID is free, or another process holds it now.
void removeAbandoned(StringRef TempDir) {
  std::error_code EC;
  for (sys::fs::directory_iterator It(TempDir, EC), End; It != End && !EC;
       It.increment(EC)) {
    StringRef Name = sys::path::filename(It->path());
    if (!Name.consume_front(Prefix))
      continue;
    auto [PidText, Start] = Name.split('.');
    unsigned Pid = 0;
    if (PidText.getAsInteger(10, Pid) || Start.empty())
      continue;
    struct stat Info;
    // A directory of ours, not a link someone put there.
    if (::lstat(It->path().c_str(), &Info) != 0 || !S_ISDIR(Info.st_mode) ||
        Info.st_uid != ::getuid())
      continue;
    if (processStartTime(static_cast<pid_t>(Pid)) != Start)
      (void)sys::fs::remove_directories(It->path());
  }
}

} // namespace

std::string processStartTime(pid_t Pid) {
  std::ifstream In("/proc/" + std::to_string(Pid) + "/stat");
  std::stringstream Text;
  Text << In.rdbuf();
  // "pid (comm) state ...": comm may hold spaces and parentheses.
  const std::string Contents = Text.str();
  StringRef Stat = Contents;
  size_t Close = Stat.rfind(')');
  if (!In || Close == StringRef::npos)
    return "";
  SmallVector<StringRef, 24> Fields;
  Stat.drop_front(Close + 1).split(Fields, ' ', -1, /*KeepEmpty=*/false);
  // Fields from the state (field 3) on: the start time is field 22.
  return Fields.size() > 19 ? Fields[19].str() : "";
}

ScratchDirectory::ScratchDirectory(StringRef TempDir) {
  removeAbandoned(TempDir);
  SmallString<256> Dir(TempDir);
  sys::path::append(
      Dir,
      (Prefix + Twine(::getpid()) + "." + processStartTime(::getpid())).str());
  if (::mkdir(Dir.c_str(), 0700) == 0)
    Path = std::string(Dir);
}

ScratchDirectory::~ScratchDirectory() {
  if (!Path.empty())
    (void)sys::fs::remove_directories(Path);
}

} // namespace libtorch_tidy::lsp
