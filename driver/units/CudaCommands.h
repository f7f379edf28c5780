//===--- CudaCommands.h - nvcc entries of a compile database ----*- C++ -*-===//
//
// Part of libtorch-tidy. SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//
//
// Projects that build CUDA kernels have nvcc commands in their
// compile_commands.json. libtorch-tidy analyzes host C++ only:
// - a CUDA source (`.cu`/`.cuh`, or any file compiled with `-x cu`/`-x cuda`)
//   is skipped, with one notice for all of them: Clang's CUDA mode needs a
//   CUDA installation it supports and parses every file twice (host and
//   device), and training loops live in host code;
// - a host file that nvcc compiles (`nvcc -c train.cpp`, which nvcc hands
//   to the host compiler) is analyzed with the host compiler's command
//   that nvcc would run: `-Xcompiler a,b` becomes `a b`, nvcc's own options
//   (`-gencode`, `-arch`, `--expt-relaxed-constexpr`, `-rdc`, `-ccbin`, ...)
//   are dropped, its long spellings of host options (`--include-path`,
//   `--define-macro`, ...) become the short ones.
//
//===----------------------------------------------------------------------===//

#ifndef LIBTORCH_TIDY_DRIVER_UNITS_CUDACOMMANDS_H
#define LIBTORCH_TIDY_DRIVER_UNITS_CUDACOMMANDS_H

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/StringRef.h"
#include <string>
#include <vector>

namespace libtorch_tidy {

/// True when \p CommandLine (argv[0] first) runs nvcc.
bool isNvccCommand(llvm::ArrayRef<std::string> CommandLine);

/// True when \p File is compiled as CUDA by \p CommandLine (which may be
/// empty when the database has no command for it).
bool isCudaSource(llvm::StringRef File,
                  llvm::ArrayRef<std::string> CommandLine);

/// The host compiler command nvcc would run for a host file (see the file
/// comment). argv[0] becomes the `-ccbin` compiler, or `c++`.
std::vector<std::string> hostCommandFromNvcc(llvm::ArrayRef<std::string> Args);

} // namespace libtorch_tidy

#endif // LIBTORCH_TIDY_DRIVER_UNITS_CUDACOMMANDS_H
