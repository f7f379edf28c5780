//===--- AtomicOutput.cpp - Output files that are never half written ------===//
//
// Part of libtorch-tidy. SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

#include "AtomicOutput.h"

#include "llvm/Support/FileSystem.h"
#include "llvm/Support/raw_ostream.h"

namespace libtorch_tidy::report {

llvm::Error writeFileAtomically(llvm::StringRef Path, llvm::StringRef Content) {
  if (Path != "-" && llvm::sys::fs::is_directory(Path))
    return llvm::createStringError(
        llvm::inconvertibleErrorCode(),
        "cannot write '%s': it is a directory; name a file to write",
        Path.str().c_str());
  // llvm::writeToOutput writes `<Path>.temp-stream-XXXXXX` next to the target
  // and renames it into place; the temporary is removed on failure and on a
  // signal.
  llvm::Error E = llvm::writeToOutput(Path, [&](llvm::raw_ostream &OS) {
    OS << Content;
    return llvm::Error::success();
  });
  if (E)
    return llvm::createStringError(
        llvm::inconvertibleErrorCode(),
        "cannot write '%s': %s; check that its directory exists and is "
        "writable",
        Path.str().c_str(), llvm::toString(std::move(E)).c_str());
  return llvm::Error::success();
}

} // namespace libtorch_tidy::report
