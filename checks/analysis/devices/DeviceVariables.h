//===--- DeviceVariables.h - Device variables in scope ----------*- C++ -*-===//
//
// Part of libtorch-tidy. SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//
//
// Fix-its that move a module or a tensor to "the" device need a variable to
// name: a `c10::Device` (spelled `torch::Device`) that is in scope where the
// fix goes. These helpers list them, and tell whether a device is chosen from
// the command line or the environment.
//
//===----------------------------------------------------------------------===//

#ifndef LIBTORCH_TIDY_CHECKS_ANALYSIS_DEVICES_DEVICEVARIABLES_H
#define LIBTORCH_TIDY_CHECKS_ANALYSIS_DEVICES_DEVICEVARIABLES_H

#include "analysis/devices/DeviceFacts.h"
#include "utils/UserCode.h"
#include "clang/AST/ASTContext.h"
#include "clang/AST/Stmt.h"
#include "llvm/ADT/SmallVector.h"

namespace clang::tidy::libtorch::analysis {

/// The variables of type `c10::Device` that \p At can name and whose value
/// is or may be CUDA: locals declared before it in the blocks that enclose
/// it, the parameters of its function, and the fields of the class whose
/// member function holds it. A lambda without a default capture ends the
/// search after its own parameters. Innermost first.
llvm::SmallVector<const ValueDecl *, 2>
cudaDeviceVariablesAt(const Stmt *At, ASTContext &Context,
                      const utils::UserCodeParents &Index);

/// What a device variable holds (classifyDeviceVariable; parameters and
/// fields may be anything).
DeviceKind classifyDeviceDecl(const ValueDecl *Device, ASTContext &Context);

/// \p E as written: implicit casts, temporaries, copies and converting
/// constructions the compiler added (`to(device)` builds a TensorOptions
/// from the Device) looked through.
const Expr *asWritten(const Expr *E);

/// \p E reads the command line (a parameter of `main`) or the environment
/// (`getenv`, `secure_getenv`), directly or through local variables.
bool readsCommandLineOrEnvironment(const Expr *E, ASTContext &Context);

} // namespace clang::tidy::libtorch::analysis

#endif // LIBTORCH_TIDY_CHECKS_ANALYSIS_DEVICES_DEVICEVARIABLES_H
