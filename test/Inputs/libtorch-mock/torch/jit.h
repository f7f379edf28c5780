// Mock of torch/jit.h as reached through torch/torch.h (LibTorch 1.13).
//
// Mirrors ATen/core/ivalue.h (c10::IValue, exported as torch::jit::IValue by
// ATen/core/stack.h and reachable as torch::IValue / at::IValue) and
// torch/csrc/jit/api/{object,module}.h (torch::jit::Module, with
// torch::jit::script::Module as an alias). torch::jit::load is declared by
// torch/script.h, which real code includes for it.
#pragma once

#include <ATen/ATen.h>

#include <ostream>
#include <string>
#include <unordered_map>
#include <utility>
#include <vector>

namespace c10 {

/// A tagged union of the values TorchScript passes around.
struct TORCH_API IValue final {
  IValue(const IValue &rhs) = default;
  IValue(IValue &&rhs) noexcept = default;
  ~IValue() = default;
  IValue &operator=(IValue &&rhs) & noexcept = default;
  IValue &operator=(IValue const &rhs) & = default;

  IValue() {}
  IValue(at::TensorBase t) : tensor_(std::move(t)) {}
  IValue(double d) : double_(d) {}
  IValue(int64_t i) : int_(i) {}
  IValue(int32_t i) : IValue(static_cast<int64_t>(i)) {}
  IValue(bool b) : int_(b) {}
  IValue(std::string v);
  IValue(const char *v) : IValue(std::string(v)) {}

  bool isTensor() const;
  at::Tensor toTensor() &&;
  at::Tensor &toTensor() &;
  const at::Tensor &toTensor() const &;
  bool isDouble() const;
  double toDouble() const;
  bool isInt() const;
  int64_t toInt() const;
  bool isBool() const;
  bool toBool() const;
  bool isTuple() const;
  bool isNone() const;
  std::string tagKind() const;

private:
  at::Tensor tensor_;
  double double_ = 0;
  int64_t int_ = 0;
};

} // namespace c10

namespace torch {
namespace jit {

using c10::IValue;
using Stack = std::vector<IValue>;
using Kwargs = std::unordered_map<std::string, at::IValue>;
using ExtraFilesMap = std::unordered_map<std::string, std::string>;

struct TORCH_API Method {
  IValue operator()(std::vector<IValue> stack,
                    const Kwargs &kwargs = Kwargs()) const;
};

struct TORCH_API Object {
  Object() = default;
  template <typename... Types>
  IValue run_method(const std::string &method_name, Types &&...args) {
    return get_method(method_name)({IValue(std::forward<Types>(args))...});
  }
  Method get_method(const std::string &name) const;
  IValue attr(const std::string &name) const;
  IValue attr(const std::string &name, IValue or_else) const;
  bool hasattr(const std::string &name) const;
};

struct TORCH_API Module : public Object {
  explicit Module(std::string class_name);
  Module() = default;
  Module(const Module &) = default;
  Module &operator=(const Module &) = default;
  Module(Module &&) noexcept = default;
  Module &operator=(Module &&) noexcept = default;
  ~Module() = default;

  IValue forward(std::vector<IValue> inputs, const Kwargs &kwargs = Kwargs());

  void train(bool on = true);
  void eval() { train(/*on=*/false); }
  bool is_training() const;

  void to(at::Device device, at::ScalarType dtype, bool non_blocking = false);
  void to(at::ScalarType dtype, bool non_blocking = false);
  void to(at::Device device, bool non_blocking = false);

  void save(std::ostream &out,
            const ExtraFilesMap &extra_files = ExtraFilesMap()) const;
  void save(const std::string &filename,
            const ExtraFilesMap &extra_files = ExtraFilesMap()) const;

  IValue operator()(std::vector<IValue> inputs);
};

namespace script {
// We once had a `script::` namespace that was deleted. This is for backcompat
// of the public API; new code should not use this type alias.
using Module = ::torch::jit::Module;
} // namespace script

} // namespace jit
} // namespace torch
