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

#ifndef LIBTORCH_TIDY_CHECKS_ANALYSIS_VOCABULARY_LIBTORCHNAMES_H
#define LIBTORCH_TIDY_CHECKS_ANALYSIS_VOCABULARY_LIBTORCHNAMES_H

#include "llvm/ADT/StringRef.h"

namespace clang::tidy::libtorch::names {

inline constexpr char Tensor[] = "::at::Tensor";
inline constexpr char TensorBase[] = "::at::TensorBase";
inline constexpr char Module[] = "::torch::nn::Module";
inline constexpr char ModuleHolder[] = "::torch::nn::ModuleHolder";
inline constexpr char Sequential[] = "::torch::nn::Sequential";
inline constexpr char SequentialImpl[] = "::torch::nn::SequentialImpl";
inline constexpr char JitModule[] = "::torch::jit::Module";
/// What a TorchScript module's `run_method()` is declared in, and what its
/// `get_method()` returns.
inline constexpr char JitObject[] = "::torch::jit::Object";
inline constexpr char JitMethod[] = "::torch::jit::Method";
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
inline constexpr char ScalarType[] = "::c10::ScalarType";
inline constexpr char Scalar[] = "::c10::Scalar";
inline constexpr char IValue[] = "::c10::IValue";
inline constexpr char TypeMeta[] = "::caffe2::TypeMeta";
inline constexpr char Generator[] = "::at::Generator";
inline constexpr char Context[] = "::at::Context";
inline constexpr char NoGradGuard[] = "::c10::NoGradGuard";
inline constexpr char AutoGradMode[] = "::c10::AutoGradMode";
inline constexpr char InferenceMode[] = "::c10::InferenceMode";
inline constexpr char OptimizerParamGroup[] =
    "::torch::optim::OptimizerParamGroup";
inline constexpr char ConvOptions[] = "::torch::nn::ConvOptions";
inline constexpr char ConvTransposeOptions[] =
    "::torch::nn::ConvTransposeOptions";
inline constexpr char ConvNdOptions[] = "::torch::nn::detail::ConvNdOptions";
inline constexpr char Load[] = "::torch::load";
inline constexpr char Save[] = "::torch::save";
inline constexpr char DataParallel[] = "::torch::nn::parallel::data_parallel";
inline constexpr char EmptyCache[] =
    "::c10::cuda::CUDACachingAllocator::emptyCache";
inline constexpr char TorchNamespace[] = "::torch";
inline constexpr char AtNamespace[] = "::at";
inline constexpr char C10Namespace[] = "::c10";
/// Methods, looked up on the class of their object (a tensor or a module).
inline constexpr char ToMethod[] = "to";
inline constexpr char CudaMethod[] = "cuda";
/// Tensor methods that copy a tensor's values into another's memory.
inline constexpr char CopyInPlaceMethod[] = "copy_";
inline constexpr char IndexPutMethod[] = "index_put_";
/// Module methods that make a tensor the module's own, moved by its `to()`.
inline constexpr char RegisterBufferMethod[] = "register_buffer";
inline constexpr char RegisterParameterMethod[] = "register_parameter";
/// The tensor method that swaps a tensor's storage for another's.
inline constexpr char SetDataMethod[] = "set_data";
/// Every function here (set_autocast_enabled, autocast_increment_nesting...)
/// belongs to autocast, whichever device it names.
inline constexpr char AutocastNamespace[] = "::at::autocast";

/// Convolution modules: their holders and their Impl classes.
inline constexpr llvm::StringRef ConvolutionModules[] = {
    "::torch::nn::Conv1d",
    "::torch::nn::Conv2d",
    "::torch::nn::Conv3d",
    "::torch::nn::ConvTranspose1d",
    "::torch::nn::ConvTranspose2d",
    "::torch::nn::ConvTranspose3d",
    "::torch::nn::Conv1dImpl",
    "::torch::nn::Conv2dImpl",
    "::torch::nn::Conv3dImpl",
    "::torch::nn::ConvTranspose1dImpl",
    "::torch::nn::ConvTranspose2dImpl",
    "::torch::nn::ConvTranspose3dImpl"};
/// Batch normalization modules: their holders and their Impl classes.
inline constexpr llvm::StringRef BatchNormModules[] = {
    "::torch::nn::BatchNorm1d",     "::torch::nn::BatchNorm2d",
    "::torch::nn::BatchNorm3d",     "::torch::nn::BatchNorm1dImpl",
    "::torch::nn::BatchNorm2dImpl", "::torch::nn::BatchNorm3dImpl"};

/// `torch::dtype(t)`: TensorOptions with a dtype and no device.
inline constexpr llvm::StringRef DtypeFunctions[] = {
    "::torch::dtype", "::at::dtype", "::c10::dtype"};
/// `torch::device(d)`: TensorOptions with a device.
inline constexpr llvm::StringRef DeviceFunctions[] = {
    "::torch::device", "::at::device", "::c10::device"};
/// Make a tensor of host data whose dtype their options (or the data) give.
inline constexpr llvm::StringRef HostDataFactories[] = {
    "::torch::from_blob", "::at::from_blob", "::torch::tensor", "::at::tensor"};
/// Their tensor lives where the tensors they join live.
inline constexpr llvm::StringRef JoinFunctions[] = {
    "::torch::stack",  "::torch::cat", "::at::stack",     "::at::cat",
    "::torch::concat", "::at::concat", "::torch::hstack", "::torch::vstack"};
/// Ask whether a CUDA device is there.
inline constexpr llvm::StringRef CudaQueries[] = {
    "::torch::cuda::is_available", "::torch::cuda::device_count",
    "::torch::cuda::cudnn_is_available", "::at::hasCUDA",
    "::at::Context::hasCUDA"};
/// The half and bfloat16 dtype constants (`c10::ScalarType` enumerators are
/// told by their enum).
inline constexpr llvm::StringRef ReducedPrecisionDtypes[] = {
    "::c10::kHalf", "::c10::kBFloat16", "::torch::kFloat16", "::at::kFloat16",
    "::c10::kFloat16"};

/// The functions that make a new tensor.
inline constexpr llvm::StringRef TensorFactories[] = {"::torch::zeros",
                                                      "::torch::ones",
                                                      "::torch::empty",
                                                      "::torch::full",
                                                      "::torch::rand",
                                                      "::torch::randn",
                                                      "::torch::randint",
                                                      "::torch::arange",
                                                      "::torch::eye",
                                                      "::torch::linspace",
                                                      "::torch::logspace",
                                                      "::torch::randperm",
                                                      "::at::zeros",
                                                      "::at::ones",
                                                      "::at::empty",
                                                      "::at::full",
                                                      "::at::rand",
                                                      "::at::randn",
                                                      "::at::randint",
                                                      "::at::arange",
                                                      "::at::eye",
                                                      "::at::linspace",
                                                      "::at::logspace",
                                                      "::at::randperm",
                                                      "::torch::zeros_like",
                                                      "::torch::ones_like",
                                                      "::torch::empty_like",
                                                      "::torch::full_like",
                                                      "::torch::rand_like",
                                                      "::torch::randn_like",
                                                      "::torch::randint_like",
                                                      "::at::zeros_like",
                                                      "::at::ones_like",
                                                      "::at::empty_like",
                                                      "::at::full_like",
                                                      "::at::rand_like",
                                                      "::at::randn_like",
                                                      "::at::randint_like"};

/// Free functions that wait for the device.
inline constexpr llvm::StringRef HostSyncFunctions[] = {
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
    // Size their output from the input's values (waitsAsCalled).
    "::at::bincount",
    "::at::histc",
    "::at::repeat_interleave",
};

/// Tensor methods whose result lives where their object lives
/// (analysis/steps/BatchFlow.cpp).
inline constexpr llvm::StringRef PlacementKeepingMethods[] = {
    "view",    "reshape",   "flatten", "squeeze",    "unsqueeze",
    "permute", "transpose", "t",       "contiguous", "narrow",
    "slice",   "select",    "detach",  "clone",      "float",
    "double",  "half",      "long",    "to_dense",   "view_as"};

/// Tensor methods that compute with the tensor they are given as they
/// compute with their object, so both must be on one device.
inline constexpr llvm::StringRef ArgumentComputingMethods[] = {
    "add",  "sub",  "mul",    "div", "pow", "add_",    "sub_",
    "mul_", "div_", "matmul", "mm",  "bmm", "maximum", "minimum",
    "eq",   "ne",   "lt",     "gt",  "le",  "ge"};

/// Tensor factories, by their unqualified name (torch::zeros, at::ones,
/// ...).
inline constexpr llvm::StringRef FactoryNames[] = {
    "zeros",    "ones",    "empty",     "full",          "rand",
    "randn",    "randint", "arange",    "eye",           "linspace",
    "logspace", "tensor",  "from_blob", "empty_strided", "randperm"};

/// Tensor methods whose result is on their object's device.
inline constexpr llvm::StringRef DevicePreservingMethods[] = {
    "detach",   "clone",       "contiguous",   "view",        "reshape",
    "flatten",  "squeeze",     "unsqueeze",    "t",           "transpose",
    "sum",      "mean",        "max",          "min",         "argmax",
    "argmin",   "abs",         "float",        "double",      "half",
    "to_dense", "select",      "narrow",       "slice",       "permute",
    "add",      "sub",         "mul",          "div",         "pow",
    "neg",      "exp",         "log",          "sqrt",        "clamp",
    "relu",     "sigmoid",     "tanh",         "softmax",     "log_softmax",
    "matmul",   "mm",          "expand",       "expand_as",   "repeat",
    "view_as",  "reshape_as",  "index_select", "masked_fill", "bfloat16",
    "eq",       "ne",          "lt",           "gt",          "le",
    "ge",       "logical_and", "logical_or",   "logical_not", "index"};

/// LibTorch functions whose second argument must be a tensor in host
/// memory: ATen checks it and throws otherwise (`_pack_padded_sequence`:
/// "'lengths' argument should be a 1D CPU int64 tensor"). A variable that a
/// working program passes there lives on the host.
inline constexpr llvm::StringRef HostLengthsTakers[] = {
    "::torch::nn::utils::rnn::pack_padded_sequence"};

/// Tensor methods whose result has their object's element type.
inline constexpr llvm::StringRef ElementTypeKeepingMethods[] = {
    "permute",    "unsqueeze", "squeeze",      "view",      "reshape",
    "contiguous", "clone",     "flip",         "transpose", "narrow",
    "slice",      "select",    "index_select", "flatten",   "t",
    "detach",     "expand",    "pin_memory",   "cpu"};

/// Arithmetic on a widened tensor, which keeps its (wide) element type.
inline constexpr llvm::StringRef WideTypeKeepingMethods[] = {
    "div",  "mul",  "sub",  "add",   "div_",
    "mul_", "sub_", "add_", "clamp", "clamp_"};

/// Tensor methods whose result is a mask (a bool tensor).
inline constexpr llvm::StringRef MaskMethods[] = {
    "eq",          "ne",          "gt",
    "lt",          "ge",          "le",
    "greater",     "less",        "greater_equal",
    "less_equal",  "isnan",       "isinf",
    "isfinite",    "isposinf",    "isneginf",
    "logical_not", "logical_and", "logical_or",
    "logical_xor"};

/// Standard-library classes and functions the checks look through to reach
/// a module or a tensor (a module is held by a shared_ptr).
inline constexpr char SharedPtr[] = "::std::shared_ptr";
inline constexpr char MakeShared[] = "::std::make_shared";
inline constexpr char MakeUnique[] = "::std::make_unique";
inline constexpr char BasicString[] = "::std::basic_string";
inline constexpr char IosBase[] = "::std::ios_base";
/// Standard-library functions that read the memory a pointer given as one
/// of their first two arguments points to, on the host: a pointer from
/// `data_ptr()` passed to them reads tensor memory there
/// (analysis/devices/HostPointerReads.h). `memcpy`'s first argument is
/// the destination, and its reader reads only the second.
inline constexpr llvm::StringRef HostRangeReaders[] = {
    "::std::copy",          "::std::copy_n",
    "::std::accumulate",    "::std::max_element",
    "::std::min_element",   "::std::minmax_element",
    "::std::equal",         "::std::find",
    "::std::count",         "::std::transform",
    "::std::for_each",      "::std::reduce",
    "::std::inner_product", "::std::all_of",
    "::std::any_of",        "::memcmp",
    "::std::memcmp"};
inline constexpr llvm::StringRef HostMemoryCopies[] = {
    "::memcpy", "::std::memcpy", "::memmove", "::std::memmove"};

} // namespace clang::tidy::libtorch::names

#endif // LIBTORCH_TIDY_CHECKS_ANALYSIS_VOCABULARY_LIBTORCHNAMES_H
