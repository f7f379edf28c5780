//===--- DeviceScopeFacts.h - Devices a function or program names -===//
//
// Part of libtorch-tidy. SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//
//
// Whether a function, or the whole program, can use a GPU as written: the
// devices it names (DeviceFacts.h classifies each), `.cuda()`, and the
// questions it asks about CUDA.
//
//===----------------------------------------------------------------------===//

#ifndef LIBTORCH_TIDY_CHECKS_ANALYSIS_DEVICES_DEVICESCOPEFACTS_H
#define LIBTORCH_TIDY_CHECKS_ANALYSIS_DEVICES_DEVICESCOPEFACTS_H

#include "clang/AST/ASTContext.h"
#include "clang/AST/Decl.h"
#include "clang/AST/Stmt.h"
#include "llvm/ADT/DenseMap.h"
#include <optional>

namespace clang::tidy::libtorch::analysis {

/// Facts about whole functions and the whole translation unit, cached.
class DeviceScopeFacts {
public:
  explicit DeviceScopeFacts(ASTContext &Context) : Context(Context) {}

  /// Every device the function names is provably CPU, it names at least
  /// one, and it never calls `.cuda()`: it cannot use a GPU.
  bool isCpuOnlyFunction(const FunctionDecl *Function);

  /// The TU defines `main` and its user code names no device that is or may
  /// be CUDA, never calls `.cuda()` and never asks whether CUDA is
  /// available: the program as written cannot use a GPU.
  bool isGpuFreeProgram();

private:
  struct Mentions {
    bool Cpu = false;
    bool CudaCapable = false; // CUDA, may be CUDA, .cuda(), is_available()
  };
  Mentions mentionsIn(const Stmt *Body);

  ASTContext &Context;
  llvm::DenseMap<const FunctionDecl *, bool> CpuOnly;
  std::optional<bool> GpuFree;
};

} // namespace clang::tidy::libtorch::analysis

#endif // LIBTORCH_TIDY_CHECKS_ANALYSIS_DEVICES_DEVICESCOPEFACTS_H
