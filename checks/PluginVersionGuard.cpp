//===--- PluginVersionGuard.cpp - Refuse a clang-tidy of another LLVM -----===//
//
// Part of libtorch-tidy. SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//
//
// Linked into LibTorchTidy.so only (the CLI carries its own Clang). Clang has
// no stable plugin ABI, and the dynamic loader does not notice: clang-tidy-15
// loads a plugin built for 16, lists its checks and then silently reports
// nothing; clang-tidy-14 lists them and dies on the first check with
// "symbol lookup error". So the plugin asks the host for its LLVM major
// version before anything else of ours runs, and refuses with one line that
// names the remedy.
//
//===----------------------------------------------------------------------===//

#include "clang/Basic/Version.h"

#include <cctype>
#include <cstdio>
#include <cstdlib>
#include <dlfcn.h>
#include <string>

namespace {

/// The LLVM major version of the process that loaded us, 0 if unknown.
unsigned hostLLVMMajor() {
  // LLVM 16 and later export their version in the C API; the lookup is by
  // name only, so it cannot bind to anything of the wrong ABI.
  using GetVersionFn = void (*)(unsigned *, unsigned *, unsigned *);
  if (void *Symbol = dlsym(RTLD_DEFAULT, "LLVMGetVersion")) {
    unsigned Major = 0, Minor = 0, Patch = 0;
    reinterpret_cast<GetVersionFn>(Symbol)(&Major, &Minor, &Patch);
    return Major;
  }
  // Older LLVMs (and hosts that do not export the C API): clang's version
  // string, e.g. "Debian clang version 15.0.6". Its signature has been the
  // same for many releases, so calling the host's copy is safe.
  const std::string Version = clang::getClangFullVersion();
  const std::string::size_type At = Version.find("version ");
  if (At == std::string::npos)
    return 0;
  unsigned Major = 0;
  for (std::string::size_type I = At + 8;
       I < Version.size() &&
       std::isdigit(static_cast<unsigned char>(Version[I]));
       ++I)
    Major = Major * 10 + (Version[I] - '0');
  return Major;
}

// Runs when the plugin is loaded, before the static initializers that
// register the module and build our checks' state (priority 101 is the
// earliest one not reserved for the implementation).
__attribute__((constructor(101))) void refuseForeignClangTidy() {
  const unsigned Host = hostLLVMMajor();
  if (Host == 0 || Host == LIBTORCH_TIDY_LLVM_MAJOR)
    return;
  std::fprintf(stderr,
               "error: LibTorchTidy.so was built for clang-tidy-%d but was "
               "loaded by clang-tidy %u; clang-tidy has no stable plugin ABI, "
               "so run clang-tidy-%d --load=LibTorchTidy.so or the "
               "libtorch-tidy CLI\n",
               LIBTORCH_TIDY_LLVM_MAJOR, Host, LIBTORCH_TIDY_LLVM_MAJOR);
  std::fflush(stderr);
  // Nothing of a foreign ABI may run, not even static destructors.
  std::_Exit(1);
}

} // namespace
