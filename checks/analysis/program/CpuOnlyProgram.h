//===--- CpuOnlyProgram.h - A program held to the CPU -----------*- C++ -*-===//
//
// Part of libtorch-tidy. SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//
//
// What libtorch-cpu-only-device asks about a program that cannot use a GPU
// as written (DeviceScopeFacts::isGpuFreeProgram): whether it trains, what
// its device variable places, where the CPU is spelled in the device's
// initializer, and whether anything reads tensor memory as host memory
// (then a GPU device alone does not fix it). Each walks the whole unit's
// user code once per question.
//
//===----------------------------------------------------------------------===//

#ifndef LIBTORCH_TIDY_CHECKS_ANALYSIS_PROGRAM_CPUONLYPROGRAM_H
#define LIBTORCH_TIDY_CHECKS_ANALYSIS_PROGRAM_CPUONLYPROGRAM_H

#include "analysis/steps/TrainingLoopModel.h"
#include "analysis/vocabulary/LibTorchCalls.h"
#include "utils/UserCode.h"
#include "clang/AST/ASTContext.h"
#include "clang/AST/Decl.h"
#include "clang/AST/ExprCXX.h"

namespace clang::tidy::libtorch::analysis {

/// How the program uses a device variable.
struct DeviceUses {
  bool PlacesModule = false;  ///< module->to(device)
  bool PlacesTensors = false; ///< tensor.to(device), factory(..., device)
};

/// What \p Device places, anywhere in the unit's user code (template
/// instantiations included): the device reaches the call through
/// conversions and copies (a torch::Device converts to a TensorOptions).
DeviceUses usesOfDevice(const VarDecl *Device, ASTContext &Context,
                        const utils::UserCodeParents &Parents);

/// A loop of the unit's user code is a training loop.
bool unitHoldsTrainingLoop(ASTContext &Context, TrainingLoopModel &Loops);

/// The unit's user code reads tensor memory through raw pointers
/// (`data_ptr`, `mutable_data_ptr`, `accessor`): it assumes the host, and
/// on a GPU would need a copy first.
bool readsTensorMemoryDirectly(ASTContext &Context);

/// `torch::kCPU` or `"cpu"` as written in a device's initializer
/// (`Device d(torch::kCPU)`, `Device d = torch::kCPU`,
/// `auto d = torch::Device("cpu")`): the token a fix replaces. Null when
/// the initializer spells it otherwise or gives an explicit index.
const Expr *cpuToken(const Expr *Init);

} // namespace clang::tidy::libtorch::analysis

#endif // LIBTORCH_TIDY_CHECKS_ANALYSIS_PROGRAM_CPUONLYPROGRAM_H
