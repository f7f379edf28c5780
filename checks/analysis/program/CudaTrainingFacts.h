//===--- CudaTrainingFacts.h - Training loops that run on a GPU -*- C++ -*-===//
//
// Part of libtorch-tidy. SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//
//
// "CUDA training" (issue: opt-in GPU feature checks): a step loop of user
// code (TrainingLoopModel) that runs on a CUDA or maybe-CUDA device. A step
// loop in function F is CUDA training when F is not provably CPU-only
// (DeviceScopeFacts) and
//   - the translation unit's user code names a device that is or may be
//     CUDA (`torch::kCUDA`, `Device("cuda:0")`, `is_available() ? ...`, a
//     device read from a string), calls `.cuda()` or asks
//     `torch::cuda::is_available()`; or
//   - F takes a device parameter and `main` is not in this translation unit
//     (the device is chosen in code we cannot see).
// A device parameter alone is no evidence when `main` is here: then we see
// every device the program chooses, and a program that names only the CPU
// does not train on a GPU.
//
// Beside that, the TU-wide facts the GPU feature checks ask about: whether
// autocast or a half / bfloat16 dtype appears, which `at::Context` knobs are
// set, and whether convolution modules are built. One pass over user code
// answers all of them, on first use.
//
//===----------------------------------------------------------------------===//

#ifndef LIBTORCH_TIDY_CHECKS_ANALYSIS_PROGRAM_CUDATRAININGFACTS_H
#define LIBTORCH_TIDY_CHECKS_ANALYSIS_PROGRAM_CUDATRAININGFACTS_H

#include "analysis/steps/TrainingFacts.h"
#include "llvm/ADT/StringSet.h"
#include <memory>
#include <vector>

namespace clang::tidy::libtorch::analysis {

class CudaTrainingFacts {
public:
  CudaTrainingFacts(ASTContext &Context, TrainingFacts &Training)
      : Context(Context), Training(Training) {}

  /// The step loops of user code that run on a (maybe-)CUDA device, in
  /// source order.
  llvm::ArrayRef<const Stmt *> cudaTrainingLoops();
  bool isCudaTrainingLoop(const Stmt *Loop);
  /// \p Loop is a CUDA training loop and no other one encloses it (an outer
  /// loop over epochs or generator steps that also trains).
  bool isOutermostCudaTrainingLoop(const Stmt *Loop);

  /// User code calls a function of `at::autocast` (either version's API).
  bool usesAutocast();
  /// User code names a half or bfloat16 dtype (`torch::kBFloat16`,
  /// `torch::kHalf`, `torch::kFloat16`, `ScalarType::Half`).
  bool namesReducedPrecisionDtype();
  /// User code calls the `at::Context` method \p Name
  /// (`at::globalContext().setBenchmarkCuDNN(...)`), with any argument.
  bool callsContextMethod(llvm::StringRef Name);
  /// User code builds a convolution module or its options
  /// (`torch::nn::Conv1d/2d/3d`, `ConvTranspose1d/2d/3d`).
  bool buildsConvolutionModules();
  /// The definition of `main` in this translation unit, or null.
  const FunctionDecl *mainDefinition();

private:
  struct Scan {
    std::vector<const Stmt *> Loops;
    std::vector<const FunctionDecl *> Functions;
    const FunctionDecl *Main = nullptr;
    bool NamesCudaDevice = false;
    bool Autocast = false;
    bool ReducedPrecision = false;
    bool Convolution = false;
    llvm::StringSet<> ContextMethods;
  };
  const Scan &scan();
  bool hasDeviceParameter(const FunctionDecl *Function) const;

  ASTContext &Context;
  TrainingFacts &Training;
  std::unique_ptr<Scan> Scanned;
  std::optional<std::vector<const Stmt *>> CudaLoops;
};

} // namespace clang::tidy::libtorch::analysis

#endif // LIBTORCH_TIDY_CHECKS_ANALYSIS_PROGRAM_CUDATRAININGFACTS_H
