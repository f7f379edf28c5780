//===--- HostSyncOperations.cpp - LibTorch calls that wait for the GPU ----===//
//
// Part of libtorch-tidy. SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

#include "HostSyncOperations.h"
#include "llvm/ADT/StringSwitch.h"

namespace clang::tidy::libtorch::analysis {

using llvm::StringRef;

namespace {

const StringRef SyncMethods[] = {
    "item",
    "cpu",
    "nonzero",
    "masked_select",
    "unique",
    "unique_dim",
    "unique_consecutive",
    "is_nonzero",
    "equal",
    "allclose",
    "data_ptr",
    "accessor",
    "to",
};

const StringRef SyncFunctions[] = {
    "::at::print",
    "::torch::cuda::synchronize",
    "::c10::cuda::device_synchronize",
    "::cudaDeviceSynchronize",
    "::cudaStreamSynchronize",
    "::at::nonzero",
    "::at::masked_select",
    "::at::_unique",
    "::at::_unique2",
    "::at::unique_dim",
    "::at::unique_consecutive",
    "::at::equal",
    "::at::allclose",
    "::at::is_nonzero",
    "::at::_local_scalar_dense",
    // Returns the total norm as a double: `.item()` inside LibTorch (1.13
    // and 2.x), whether or not the caller reads it.
    "::torch::nn::utils::clip_grad_norm_",
};

} // namespace

llvm::ArrayRef<StringRef> syncTensorMethods() { return SyncMethods; }

llvm::ArrayRef<StringRef> syncFunctions() { return SyncFunctions; }

SyncKind syncKindOfMethod(StringRef Name) {
  return llvm::StringSwitch<SyncKind>(Name)
      .Case("item", SyncKind::ReadScalar)
      .Cases("cpu", "to", SyncKind::CopyToHost)
      .Cases("nonzero", "masked_select", "unique", "unique_dim",
             SyncKind::DynamicShape)
      .Case("unique_consecutive", SyncKind::DynamicShape)
      .Cases("is_nonzero", "equal", "allclose", SyncKind::HostBool)
      .Cases("data_ptr", "accessor", SyncKind::HostMemory)
      .Default(SyncKind::Synchronize);
}

SyncKind syncKindOfFunction(StringRef QualifiedName) {
  StringRef Name = QualifiedName.rsplit("::").second;
  if (Name.empty())
    Name = QualifiedName;
  if (Name == "print")
    return SyncKind::Print;
  if (Name == "_local_scalar_dense")
    return SyncKind::ReadScalar;
  if (Name == "clip_grad_norm_")
    return SyncKind::HiddenRead;
  if (Name == "nonzero" || Name == "masked_select" || Name.contains("unique"))
    return SyncKind::DynamicShape;
  if (Name == "equal" || Name == "allclose" || Name == "is_nonzero")
    return SyncKind::HostBool;
  return SyncKind::Synchronize;
}

} // namespace clang::tidy::libtorch::analysis
