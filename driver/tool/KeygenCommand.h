//===--- KeygenCommand.h - `libtorch-tidy remote-cache-keygen` --*- C++ -*-===//
//
// Part of libtorch-tidy. SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//
//
// The key pair that signs the remote cache's entries
// (cache/remote/EntrySignature.h):
//
//   libtorch-tidy remote-cache-keygen FILE
//       writes a new signing key to FILE, a new file readable by its owner
//       only (an existing file is never replaced), and prints the verify
//       key that readers name: `verify-key=<64 hex digits>`.
//   libtorch-tidy remote-cache-keygen --verify-key FILE
//       prints the verify key of the signing key in FILE.
//
//===----------------------------------------------------------------------===//

#ifndef LIBTORCH_TIDY_DRIVER_TOOL_KEYGENCOMMAND_H
#define LIBTORCH_TIDY_DRIVER_TOOL_KEYGENCOMMAND_H

#include "llvm/ADT/ArrayRef.h"
#include "llvm/Support/raw_ostream.h"

namespace libtorch_tidy::tool {

/// \p Args: the arguments after the subcommand's name. Returns the exit
/// code (ExitCodes.h): 0, or 2 with one line on \p Err.
int runKeygenCommand(llvm::ArrayRef<const char *> Args, llvm::raw_ostream &Out,
                     llvm::raw_ostream &Err);

} // namespace libtorch_tidy::tool

#endif // LIBTORCH_TIDY_DRIVER_TOOL_KEYGENCOMMAND_H
