//===--- LibTorchNames.h - Qualified names of LibTorch entities -*- C++ -*-===//
//
// Part of libtorch-tidy. SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//
//
// The fully qualified names our matchers use. They are spelled once here so
// that every check agrees on them, and so that a LibTorch release that moves
// an entity is fixed in one place. Names are the declaring namespaces of
// LibTorch 1.13 and 2.x (aliases such as torch::Tensor resolve to them).
//
//===----------------------------------------------------------------------===//

#ifndef LIBTORCH_TIDY_CHECKS_ANALYSIS_LIBTORCHNAMES_H
#define LIBTORCH_TIDY_CHECKS_ANALYSIS_LIBTORCHNAMES_H

namespace clang::tidy::libtorch::names {

inline constexpr char Tensor[] = "::at::Tensor";
inline constexpr char TensorBase[] = "::at::TensorBase";
inline constexpr char Module[] = "::torch::nn::Module";
inline constexpr char ModuleHolder[] = "::torch::nn::ModuleHolder";
inline constexpr char Sequential[] = "::torch::nn::Sequential";
inline constexpr char SequentialImpl[] = "::torch::nn::SequentialImpl";
inline constexpr char JitModule[] = "::torch::jit::Module";
inline constexpr char Optimizer[] = "::torch::optim::Optimizer";
/// Optimizers that divide by a running norm of the gradient: a gradient's
/// scale changes their update only through epsilon.
inline constexpr char Adam[] = "::torch::optim::Adam";
inline constexpr char AdamW[] = "::torch::optim::AdamW";
inline constexpr char Adagrad[] = "::torch::optim::Adagrad";
inline constexpr char RMSprop[] = "::torch::optim::RMSprop";
inline constexpr char Device[] = "::c10::Device";
inline constexpr char DataLoaderOptions[] = "::torch::data::DataLoaderOptions";
inline constexpr char DataLoaderBase[] = "::torch::data::DataLoaderBase";
inline constexpr char MakeDataLoader[] = "::torch::data::make_data_loader";
inline constexpr char BatchDataset[] = "::torch::data::datasets::BatchDataset";
inline constexpr char BatchTransform[] =
    "::torch::data::transforms::BatchTransform";
inline constexpr char AutogradBackward[] = "::torch::autograd::backward";
inline constexpr char DeviceType[] = "::c10::DeviceType";
inline constexpr char TensorOptions[] = "::c10::TensorOptions";
inline constexpr char AnomalyMode[] = "::torch::autograd::AnomalyMode";
inline constexpr char SetGradEnabled[] = "::c10::GradMode::set_enabled";
inline constexpr char DetectAnomalyGuard[] =
    "::torch::autograd::DetectAnomalyGuard";

} // namespace clang::tidy::libtorch::names

#endif // LIBTORCH_TIDY_CHECKS_ANALYSIS_LIBTORCHNAMES_H
