// Mock of torch/nn.h (torch::nn), for fast check tests.
//
// Mirrors (declarations and qualified names as in LibTorch 1.13):
//   torch/nn/module.h        torch::nn::Module (to/train/eval/parameters/
//                            register_module/zero_grad, ...)
//   torch/nn/pimpl.h         torch::nn::ModuleHolder, TORCH_MODULE
//   torch/nn/cloneable.h     torch::nn::Cloneable
//   torch/detail/static.h    torch::detail::has_forward, ...
//   torch/nn/options/*.h     LinearOptions, ConvOptions<D>, BatchNormOptions,
//                            DropoutOptions, LSTMOptions, loss options, ...
//   torch/nn/modules/*.h     Linear, Conv1d/2d/3d, ConvTranspose2d,
//                            BatchNorm1d/2d/3d, ReLU, Sigmoid, Tanh, Dropout,
//                            Dropout2d, Flatten, Embedding, MaxPool2d, LSTM,
//                            Sequential, Functional (a subset of the real
//                            modules: add more as tests need them)
//   torch/nn/functional/*.h  torch::nn::functional::{relu, log_softmax, ...}
//   torch/nn/utils/clip_grad.h
// Not included by torch/torch.h (as in real LibTorch):
//   torch/nn/parallel/data_parallel.h (see that mock header).
#pragma once

#include <torch/types.h>

#include <tuple>

// The options' variants: c10::variant in 1.13, std::variant in 2.15.
#if LIBTORCH_MOCK_VERSION_MAJOR >= 2
#define LIBTORCH_MOCK_VARIANT std::variant
#else
#define LIBTORCH_MOCK_VARIANT c10::variant
#endif

// ---------------------------------------------------------------------------
// torch/detail/static.h, torch/nn/pimpl-inl.h
// ---------------------------------------------------------------------------
namespace torch {
namespace nn {
class Module;
} // namespace nn
} // namespace torch

namespace torch {
namespace detail {
template <typename T> struct has_forward {
  using yes = int8_t;
  using no = int16_t;

  template <typename U> static yes test(decltype(&U::forward));
  template <typename U> static no test(...);

  static constexpr bool value = (sizeof(test<T>(nullptr)) == sizeof(yes));
};

template <typename M>
using is_module =
    std::is_base_of<torch::nn::Module, typename std::decay<M>::type>;

template <typename M, typename T = void>
using enable_if_module_t = typename std::enable_if<is_module<M>::value, T>::type;

struct ModuleHolderIndicator {};

#if LIBTORCH_MOCK_VERSION_MAJOR >= 2
template <typename T>
using is_module_holder =
    std::is_base_of<ModuleHolderIndicator, std::decay_t<T>>;

template <typename T>
using disable_if_module_holder_t =
    std::enable_if_t<!is_module_holder<T>::value>;
#else
template <typename T>
using is_module_holder = std::is_base_of<ModuleHolderIndicator, decay_t<T>>;

template <typename T>
using disable_if_module_holder_t = disable_if_t<is_module_holder<T>::value>;
#endif

template <bool is_module_holder_value, typename T, typename C>
struct is_module_holder_of_impl;

template <typename T, typename C>
struct is_module_holder_of_impl<false, T, C> : std::false_type {};

template <typename T, typename C>
struct is_module_holder_of_impl<true, T, C>
    : std::is_same<typename T::ContainedType, C> {};

#if LIBTORCH_MOCK_VERSION_MAJOR >= 2
template <typename T, typename C>
struct is_module_holder_of
    : is_module_holder_of_impl<is_module_holder<T>::value, std::decay_t<T>,
                               std::decay_t<C>> {};
#else
template <typename T, typename C>
struct is_module_holder_of
    : is_module_holder_of_impl<is_module_holder<T>::value, decay_t<T>,
                               decay_t<C>> {};
#endif

template <bool has_forward_value, typename C, typename... Args>
struct return_type_of_forward_impl;

template <typename C, typename... Args>
struct return_type_of_forward_impl<true, C, Args...> {
  using type = decltype(::std::declval<C>().forward(::std::declval<Args>()...));
};

template <typename C, typename... Args>
struct return_type_of_forward_impl<false, C, Args...> {
  using type = void;
};

template <typename C, typename... Args>
using return_type_of_forward =
    return_type_of_forward_impl<torch::detail::has_forward<C>::value, C,
                                Args...>;

template <typename C, typename... Args>
using return_type_of_forward_t =
    typename return_type_of_forward<C, Args...>::type;
} // namespace detail
} // namespace torch

// ---------------------------------------------------------------------------
// torch/nn/module.h
// ---------------------------------------------------------------------------
namespace torch {
namespace nn {

template <typename Contained> class ModuleHolder;

class TORCH_API Module : public std::enable_shared_from_this<Module> {
public:
  using ModuleApplyFunction = std::function<void(Module &)>;
  using ConstModuleApplyFunction = std::function<void(const Module &)>;
  using NamedModuleApplyFunction =
      std::function<void(const std::string &, Module &)>;
  using ConstNamedModuleApplyFunction =
      std::function<void(const std::string &, const Module &)>;
  using ModulePointerApplyFunction =
      std::function<void(const std::shared_ptr<Module> &)>;
  using NamedModulePointerApplyFunction =
      std::function<void(const std::string &, const std::shared_ptr<Module> &)>;

  explicit Module(std::string name);
  Module();
  virtual ~Module() = default;

  const std::string &name() const noexcept;

  virtual std::shared_ptr<Module>
  clone(const optional<Device> &device = nullopt) const;

  void apply(const ModuleApplyFunction &function);
  void apply(const ConstModuleApplyFunction &function) const;
  void apply(const NamedModuleApplyFunction &function,
             const std::string &name_prefix = std::string());
  void apply(const ConstNamedModuleApplyFunction &function,
             const std::string &name_prefix = std::string()) const;
  void apply(const ModulePointerApplyFunction &function) const;
  void apply(const NamedModulePointerApplyFunction &function,
             const std::string &name_prefix = std::string()) const;

  std::vector<Tensor> parameters(bool recurse = true) const;
  OrderedDict<std::string, Tensor> named_parameters(bool recurse = true) const;
  std::vector<Tensor> buffers(bool recurse = true) const;
  OrderedDict<std::string, Tensor> named_buffers(bool recurse = true) const;
  std::vector<std::shared_ptr<Module>> modules(bool include_self = true) const;
  OrderedDict<std::string, std::shared_ptr<Module>>
  named_modules(const std::string &name_prefix = std::string(),
                bool include_self = true) const;
  std::vector<std::shared_ptr<Module>> children() const;
  OrderedDict<std::string, std::shared_ptr<Module>> named_children() const;

  virtual void train(bool on = true);
  void eval();
  virtual bool is_training() const noexcept;

  virtual void to(torch::Device device, torch::Dtype dtype,
                  bool non_blocking = false);
  virtual void to(torch::Dtype dtype, bool non_blocking = false);
  virtual void to(torch::Device device, bool non_blocking = false);

#if LIBTORCH_MOCK_VERSION_MAJOR >= 2
  virtual void zero_grad(bool set_to_none = true);
#else
  virtual void zero_grad(bool set_to_none = false);
#endif

  template <typename ModuleType>
  typename ModuleType::ContainedType *as() noexcept {
    return as<typename ModuleType::ContainedType>();
  }
  template <typename ModuleType,
            typename = torch::detail::disable_if_module_holder_t<ModuleType>>
  ModuleType *as() noexcept {
    return dynamic_cast<ModuleType *>(this);
  }

  virtual void save(serialize::OutputArchive &archive) const;
  virtual void load(serialize::InputArchive &archive);
  virtual void pretty_print(std::ostream &stream) const;
  virtual bool is_serializable() const;

  Tensor &register_parameter(std::string name, Tensor tensor,
                             bool requires_grad = true);
  Tensor &register_buffer(std::string name, Tensor tensor);

  template <typename ModuleType>
  std::shared_ptr<ModuleType>
  register_module(std::string name, std::shared_ptr<ModuleType> module);

  template <typename ModuleType>
  std::shared_ptr<ModuleType>
  register_module(std::string name, ModuleHolder<ModuleType> module_holder);

  template <typename ModuleType>
  std::shared_ptr<ModuleType>
  replace_module(const std::string &name, std::shared_ptr<ModuleType> module);

  template <typename ModuleType>
  std::shared_ptr<ModuleType>
  replace_module(const std::string &name,
                 ModuleHolder<ModuleType> module_holder);

  void unregister_module(const std::string &name);

  TORCH_API friend std::ostream &operator<<(std::ostream &stream,
                                            const nn::Module &module);

protected:
  std::vector<std::shared_ptr<Module>> children_;
};

TORCH_API serialize::OutputArchive &
operator<<(serialize::OutputArchive &archive,
           const std::shared_ptr<nn::Module> &module);

TORCH_API serialize::InputArchive &
operator>>(serialize::InputArchive &archive,
           const std::shared_ptr<nn::Module> &module);

template <typename ModuleType>
std::shared_ptr<ModuleType>
Module::register_module(std::string name, std::shared_ptr<ModuleType> module) {
  return module;
}

template <typename ModuleType>
std::shared_ptr<ModuleType>
Module::register_module(std::string name,
                        ModuleHolder<ModuleType> module_holder) {
  return register_module(std::move(name), module_holder.ptr());
}

template <typename ModuleType>
std::shared_ptr<ModuleType>
Module::replace_module(const std::string &name,
                       std::shared_ptr<ModuleType> module) {
  (void)name;
  return module;
}

template <typename ModuleType>
std::shared_ptr<ModuleType>
Module::replace_module(const std::string &name,
                       ModuleHolder<ModuleType> module_holder) {
  return replace_module(name, module_holder.ptr());
}

// ---------------------------------------------------------------------------
// torch/nn/pimpl.h
// ---------------------------------------------------------------------------
template <typename Contained>
class ModuleHolder : torch::detail::ModuleHolderIndicator {
protected:
  // Real LibTorch: `std::shared_ptr<Contained> impl_;`. The mock keeps the
  // contained module type-erased so that each TORCH_MODULE does not
  // instantiate std::shared_ptr<NameImpl> (parse time).
  std::shared_ptr<void> impl_;

public:
  using ContainedType = Contained;

  ModuleHolder() : impl_(default_construct()) {
    static_assert(
        std::is_default_constructible<Contained>::value,
        "You are trying to default construct a module which has "
        "no default constructor. Use = nullptr to give it the empty state "
        "(e.g. `Linear linear = nullptr;` instead of `Linear linear;`).");
  }

  /* implicit */ ModuleHolder(std::nullptr_t) : impl_(nullptr) {}

  template <typename Head, typename... Tail,
            typename = typename std::enable_if<
                !(torch::detail::is_module_holder_of<Head,
                                                     ContainedType>::value &&
                  (sizeof...(Tail) == 0))>::type>
  explicit ModuleHolder(Head &&head, Tail &&...tail)
      : impl_(new Contained(std::forward<Head>(head),
                            std::forward<Tail>(tail)...)) {}

  /* implicit */ ModuleHolder(std::shared_ptr<Contained> module)
      : impl_(std::move(module)) {}

  explicit operator bool() const noexcept { return !is_empty(); }

  Contained *operator->() { return get(); }
  const Contained *operator->() const { return get(); }
  Contained &operator*() { return *get(); }
  const Contained &operator*() const { return *get(); }

  const std::shared_ptr<Contained> &ptr() const {
    return reinterpret_cast<const std::shared_ptr<Contained> &>(impl_);
  }

  Contained *get() { return static_cast<Contained *>(impl_.get()); }
  const Contained *get() const {
    return static_cast<const Contained *>(impl_.get());
  }

  template <typename... Args>
  auto operator()(Args &&...args)
      -> torch::detail::return_type_of_forward_t<Contained, Args...> {
    return get()->forward(::std::forward<Args>(args)...);
  }

  template <typename Arg> decltype(auto) operator[](Arg &&arg) {
    return (*get())[::std::forward<Arg>(arg)];
  }

  bool is_empty() const noexcept { return impl_ == nullptr; }

private:
#if LIBTORCH_MOCK_VERSION_MAJOR >= 2
  template <typename T = Contained>
  std::shared_ptr<Contained> default_construct();
#else
  template <typename T = Contained,
            typename = torch::enable_if_t<
                std::is_default_constructible<T>::value>>
  std::shared_ptr<Contained> default_construct();

  template <typename T = Contained>
  torch::disable_if_t<std::is_default_constructible<T>::value,
                      std::shared_ptr<Contained>>
  default_construct();
#endif
};

template <typename ModuleType>
std::ostream &operator<<(std::ostream &stream,
                         const nn::ModuleHolder<ModuleType> &module) {
  return stream << *module;
}

template <typename ModuleType>
serialize::OutputArchive &
operator<<(serialize::OutputArchive &archive,
           const nn::ModuleHolder<ModuleType> &module) {
  return archive << module.ptr();
}

template <typename ModuleType>
serialize::InputArchive &operator>>(serialize::InputArchive &archive,
                                    nn::ModuleHolder<ModuleType> &module) {
  return archive >> module.ptr();
}

} // namespace nn
} // namespace torch

#define TORCH_UNUSED_EXCEPT_CUDA C10_UNUSED

#define TORCH_MODULE_IMPL(Name, ImplType)                                      \
  class Name : public torch::nn::ModuleHolder<ImplType> { /* NOLINT */         \
  public:                                                                      \
    using torch::nn::ModuleHolder<ImplType>::ModuleHolder;                     \
    using Impl TORCH_UNUSED_EXCEPT_CUDA = ImplType;                            \
  }

#define TORCH_MODULE(Name) TORCH_MODULE_IMPL(Name, Name##Impl)

// ---------------------------------------------------------------------------
// torch/nn/cloneable.h
// ---------------------------------------------------------------------------
namespace torch {
namespace nn {

template <typename Derived> class Cloneable : public virtual Module {
public:
  using Module::Module;

  virtual void reset() = 0;

  std::shared_ptr<Module>
  clone(const optional<Device> &device = nullopt) const override;
};

} // namespace nn
} // namespace torch

// ---------------------------------------------------------------------------
// torch/nn/modules/container/any_value.h, any.h, named_any.h (simplified)
// ---------------------------------------------------------------------------
namespace torch {
namespace nn {

class AnyValue {
public:
  AnyValue(AnyValue &&) = default;
  AnyValue &operator=(AnyValue &&) = default;
  AnyValue(const AnyValue &other) = default;
  AnyValue &operator=(const AnyValue &other) = default;

  template <typename T>
  explicit AnyValue(T &&value)
      : content_(std::make_shared<std::decay_t<T>>(std::forward<T>(value))) {}

  template <typename T> T *try_get() {
    return static_cast<T *>(content_.get());
  }
  template <typename T> T get() { return *try_get<T>(); }

private:
  std::shared_ptr<void> content_;
};

class AnyModule {
public:
  AnyModule() = default;

  template <typename ModuleType>
  explicit AnyModule(std::shared_ptr<ModuleType> module) : ptr_(module) {}

  template <typename ModuleType,
            typename = torch::detail::enable_if_module_t<ModuleType>>
  explicit AnyModule(ModuleType &&module)
      : ptr_(std::make_shared<std::decay_t<ModuleType>>(
            std::forward<ModuleType>(module))) {}

  template <typename ModuleType>
  explicit AnyModule(const ModuleHolder<ModuleType> &module_holder)
      : ptr_(module_holder.ptr()) {}

  AnyModule(AnyModule &&) = default;
  AnyModule &operator=(AnyModule &&) = default;
  AnyModule(const AnyModule &other) = default;
  AnyModule &operator=(const AnyModule &other) = default;

  AnyModule clone(optional<Device> device = nullopt) const;

  template <typename... ArgumentTypes>
  AnyValue any_forward(ArgumentTypes &&...arguments) {
    return AnyValue(Tensor());
  }

  template <typename ReturnType = torch::Tensor, typename... ArgumentTypes>
  ReturnType forward(ArgumentTypes &&...arguments) {
    return any_forward(std::forward<ArgumentTypes>(arguments)...)
        .template get<ReturnType>();
  }

  template <typename T, typename = torch::detail::enable_if_module_t<T>>
  T &get() {
    return *std::dynamic_pointer_cast<T>(ptr_);
  }

  std::shared_ptr<Module> ptr() const { return ptr_; }

  template <typename T, typename = torch::detail::enable_if_module_t<T>>
  std::shared_ptr<T> ptr() const {
    return std::dynamic_pointer_cast<T>(ptr_);
  }

  bool is_empty() const noexcept { return ptr_ == nullptr; }

private:
  std::shared_ptr<Module> ptr_;
};

class NamedAnyModule {
public:
  template <typename ModuleType>
  NamedAnyModule(std::string name, std::shared_ptr<ModuleType> module_ptr)
      : NamedAnyModule(std::move(name), AnyModule(std::move(module_ptr))) {}

  template <typename M, typename = torch::detail::enable_if_module_t<M>>
  NamedAnyModule(std::string name, M &&module)
      : NamedAnyModule(std::move(name),
                       std::make_shared<typename std::remove_reference<M>::type>(
                           std::forward<M>(module))) {}

  template <typename M>
  NamedAnyModule(std::string name, const ModuleHolder<M> &module_holder)
      : NamedAnyModule(std::move(name), module_holder.ptr()) {}

  NamedAnyModule(std::string name, AnyModule any_module)
      : name_(std::move(name)), module_(std::move(any_module)) {}

  const std::string &name() const noexcept { return name_; }
  AnyModule &module() noexcept { return module_; }
  const AnyModule &module() const noexcept { return module_; }

private:
  std::string name_;
  AnyModule module_;
};

} // namespace nn
} // namespace torch

// ---------------------------------------------------------------------------
// torch/nn/options/*.h
// ---------------------------------------------------------------------------
namespace torch {
namespace nn {

/// Options for the `Linear` module.
struct TORCH_API LinearOptions {
  LinearOptions(int64_t in_features, int64_t out_features);
  TORCH_ARG(int64_t, in_features);
  TORCH_ARG(int64_t, out_features);
  TORCH_ARG(bool, bias) = true;
};

/// Options for the `Flatten` module.
struct TORCH_API FlattenOptions {
  TORCH_ARG(int64_t, start_dim) = 1;
  TORCH_ARG(int64_t, end_dim) = -1;
};

namespace detail {

typedef LIBTORCH_MOCK_VARIANT<enumtype::kZeros, enumtype::kReflect,
                              enumtype::kReplicate, enumtype::kCircular>
    conv_padding_mode_t;

template <size_t D>
using conv_padding_t =
    LIBTORCH_MOCK_VARIANT<ExpandingArray<D>, enumtype::kValid, enumtype::kSame>;

/// Options for a `D`-dimensional convolution or convolution transpose module.
template <size_t D> struct ConvNdOptions {
  using padding_t = conv_padding_t<D>;
  ConvNdOptions(int64_t in_channels, int64_t out_channels,
                ExpandingArray<D> kernel_size)
      : in_channels_(in_channels), out_channels_(out_channels),
        kernel_size_(std::move(kernel_size)) {}

  TORCH_ARG(int64_t, in_channels);
  TORCH_ARG(int64_t, out_channels);
  TORCH_ARG(ExpandingArray<D>, kernel_size);
  TORCH_ARG(ExpandingArray<D>, stride) = 1;
  TORCH_ARG(padding_t, padding) = 0;

public:
  decltype(auto) padding(std::initializer_list<int64_t> il) {
    return padding(IntArrayRef{il});
  }

  TORCH_ARG(ExpandingArray<D>, dilation) = 1;
  TORCH_ARG(bool, transposed) = false;
  TORCH_ARG(ExpandingArray<D>, output_padding) = 0;
  TORCH_ARG(int64_t, groups) = 1;
  TORCH_ARG(bool, bias) = true;
  TORCH_ARG(conv_padding_mode_t, padding_mode) = torch::kZeros;
};

} // namespace detail

/// Options for a `D`-dimensional convolution module.
template <size_t D> struct ConvOptions {
  using padding_mode_t = detail::conv_padding_mode_t;
  using padding_t = detail::conv_padding_t<D>;

  ConvOptions(int64_t in_channels, int64_t out_channels,
              ExpandingArray<D> kernel_size)
      : in_channels_(in_channels), out_channels_(out_channels),
        kernel_size_(std::move(kernel_size)) {}

  TORCH_ARG(int64_t, in_channels);
  TORCH_ARG(int64_t, out_channels);
  TORCH_ARG(ExpandingArray<D>, kernel_size);
  TORCH_ARG(ExpandingArray<D>, stride) = 1;
  TORCH_ARG(padding_t, padding) = 0;

public:
  decltype(auto) padding(std::initializer_list<int64_t> il) {
    return padding(IntArrayRef{il});
  }

  TORCH_ARG(ExpandingArray<D>, dilation) = 1;
  TORCH_ARG(int64_t, groups) = 1;
  TORCH_ARG(bool, bias) = true;
  TORCH_ARG(padding_mode_t, padding_mode) = torch::kZeros;
};

using Conv1dOptions = ConvOptions<1>;
using Conv2dOptions = ConvOptions<2>;
using Conv3dOptions = ConvOptions<3>;

/// Options for a `D`-dimensional convolution transpose module.
template <size_t D> struct ConvTransposeOptions {
  using padding_mode_t = detail::conv_padding_mode_t;

  ConvTransposeOptions(int64_t in_channels, int64_t out_channels,
                       ExpandingArray<D> kernel_size)
      : in_channels_(in_channels), out_channels_(out_channels),
        kernel_size_(std::move(kernel_size)) {}

  TORCH_ARG(int64_t, in_channels);
  TORCH_ARG(int64_t, out_channels);
  TORCH_ARG(ExpandingArray<D>, kernel_size);
  TORCH_ARG(ExpandingArray<D>, stride) = 1;
  TORCH_ARG(ExpandingArray<D>, padding) = 0;
  TORCH_ARG(ExpandingArray<D>, output_padding) = 0;
  TORCH_ARG(int64_t, groups) = 1;
  TORCH_ARG(bool, bias) = true;
  TORCH_ARG(ExpandingArray<D>, dilation) = 1;
  TORCH_ARG(padding_mode_t, padding_mode) = torch::kZeros;
};

using ConvTranspose1dOptions = ConvTransposeOptions<1>;
using ConvTranspose2dOptions = ConvTransposeOptions<2>;
using ConvTranspose3dOptions = ConvTransposeOptions<3>;

/// Options for the `BatchNorm` module.
struct TORCH_API BatchNormOptions {
  /* implicit */ BatchNormOptions(int64_t num_features);
  TORCH_ARG(int64_t, num_features);
  TORCH_ARG(double, eps) = 1e-5;
  TORCH_ARG(c10::optional<double>, momentum) = 0.1;
  TORCH_ARG(bool, affine) = true;
  TORCH_ARG(bool, track_running_stats) = true;
};

using BatchNorm1dOptions = BatchNormOptions;
using BatchNorm2dOptions = BatchNormOptions;
using BatchNorm3dOptions = BatchNormOptions;

/// Options for the `Dropout` module.
struct TORCH_API DropoutOptions {
  /* implicit */ DropoutOptions(double p = 0.5);
  TORCH_ARG(double, p) = 0.5;
  TORCH_ARG(bool, inplace) = false;
};

using Dropout2dOptions = DropoutOptions;
using Dropout3dOptions = DropoutOptions;

/// Options for the `ReLU` module.
struct TORCH_API ReLUOptions {
  /* implicit */ ReLUOptions(bool inplace = false);
  TORCH_ARG(bool, inplace);
};

/// Options for the `LeakyReLU` module.
struct TORCH_API LeakyReLUOptions {
  TORCH_ARG(double, negative_slope) = 1e-2;
  TORCH_ARG(bool, inplace) = false;
};

/// Options for the `Softmax` module.
struct TORCH_API SoftmaxOptions {
  SoftmaxOptions(int64_t dim);
  TORCH_ARG(int64_t, dim);
};

/// Options for the `LogSoftmax` module.
struct TORCH_API LogSoftmaxOptions {
  LogSoftmaxOptions(int64_t dim);
  TORCH_ARG(int64_t, dim);
};

/// Options for the `Embedding` module.
struct TORCH_API EmbeddingOptions {
  EmbeddingOptions(int64_t num_embeddings, int64_t embedding_dim);
  TORCH_ARG(int64_t, num_embeddings);
  TORCH_ARG(int64_t, embedding_dim);
  TORCH_ARG(c10::optional<int64_t>, padding_idx) = c10::nullopt;
  TORCH_ARG(c10::optional<double>, max_norm) = c10::nullopt;
  TORCH_ARG(double, norm_type) = 2.;
  TORCH_ARG(bool, scale_grad_by_freq) = false;
  TORCH_ARG(bool, sparse) = false;
  TORCH_ARG(torch::Tensor, _weight) = Tensor();
};

/// Options for a `D`-dimensional maxpool module.
template <size_t D> struct MaxPoolOptions {
  MaxPoolOptions(ExpandingArray<D> kernel_size)
      : kernel_size_(kernel_size), stride_(kernel_size) {}
  TORCH_ARG(ExpandingArray<D>, kernel_size);
  TORCH_ARG(ExpandingArray<D>, stride);
  TORCH_ARG(ExpandingArray<D>, padding) = 0;
  TORCH_ARG(ExpandingArray<D>, dilation) = 1;
  TORCH_ARG(bool, ceil_mode) = false;
};

using MaxPool1dOptions = MaxPoolOptions<1>;
using MaxPool2dOptions = MaxPoolOptions<2>;
using MaxPool3dOptions = MaxPoolOptions<3>;

/// Options for the `LSTM` module.
struct TORCH_API LSTMOptions {
  LSTMOptions(int64_t input_size, int64_t hidden_size);
  TORCH_ARG(int64_t, input_size);
  TORCH_ARG(int64_t, hidden_size);
  TORCH_ARG(int64_t, num_layers) = 1;
  TORCH_ARG(bool, bias) = true;
  TORCH_ARG(bool, batch_first) = false;
  TORCH_ARG(double, dropout) = 0.0;
  TORCH_ARG(bool, bidirectional) = false;
  TORCH_ARG(int64_t, proj_size) = 0;
};

/// Options for the `MSELoss` module.
struct TORCH_API MSELossOptions {
  typedef LIBTORCH_MOCK_VARIANT<enumtype::kNone, enumtype::kMean,
                                enumtype::kSum>
      reduction_t;
  MSELossOptions() {}
  MSELossOptions(torch::enumtype::kNone reduction) : reduction_(torch::kNone) {}
  MSELossOptions(torch::enumtype::kMean reduction) : reduction_(torch::kMean) {}
  MSELossOptions(torch::enumtype::kSum reduction) : reduction_(torch::kSum) {}
  TORCH_ARG(reduction_t, reduction) = torch::kMean;
};

/// Options for the `BCELoss` module.
struct TORCH_API BCELossOptions {
  typedef LIBTORCH_MOCK_VARIANT<enumtype::kNone, enumtype::kMean,
                                enumtype::kSum>
      reduction_t;
  TORCH_ARG(Tensor, weight) = {};
  TORCH_ARG(reduction_t, reduction) = torch::kMean;
};

/// Options for the `NLLLoss` module.
struct TORCH_API NLLLossOptions {
  typedef LIBTORCH_MOCK_VARIANT<enumtype::kNone, enumtype::kMean,
                                enumtype::kSum>
      reduction_t;
  TORCH_ARG(Tensor, weight) = {};
  TORCH_ARG(int64_t, ignore_index) = -100;
  TORCH_ARG(reduction_t, reduction) = torch::kMean;
};

/// Options for the `CrossEntropyLoss` module.
struct TORCH_API CrossEntropyLossOptions {
  typedef LIBTORCH_MOCK_VARIANT<enumtype::kNone, enumtype::kMean,
                                enumtype::kSum>
      reduction_t;
  TORCH_ARG(Tensor, weight) = {};
  TORCH_ARG(int64_t, ignore_index) = -100;
  TORCH_ARG(reduction_t, reduction) = torch::kMean;
  TORCH_ARG(double, label_smoothing) = 0.0;
};

namespace functional {

using ReLUFuncOptions = ReLUOptions;
using LeakyReLUFuncOptions = LeakyReLUOptions;

/// Options for `torch::nn::functional::softmax`.
struct TORCH_API SoftmaxFuncOptions {
  SoftmaxFuncOptions(int64_t dim);
  TORCH_ARG(int64_t, dim);
  TORCH_ARG(c10::optional<torch::Dtype>, dtype) = c10::nullopt;
};

/// Options for `torch::nn::functional::log_softmax`.
struct TORCH_API LogSoftmaxFuncOptions {
  LogSoftmaxFuncOptions(int64_t dim);
  TORCH_ARG(int64_t, dim);
  TORCH_ARG(c10::optional<torch::Dtype>, dtype) = c10::nullopt;
};

/// Options for `torch::nn::functional::dropout`.
struct TORCH_API DropoutFuncOptions {
  TORCH_ARG(double, p) = 0.5;
  TORCH_ARG(bool, training) = true;
  TORCH_ARG(bool, inplace) = false;
};

using Dropout2dFuncOptions = DropoutFuncOptions;
using Dropout3dFuncOptions = DropoutFuncOptions;

using MaxPool1dFuncOptions = MaxPool1dOptions;
using MaxPool2dFuncOptions = MaxPool2dOptions;
using MaxPool3dFuncOptions = MaxPool3dOptions;

using MSELossFuncOptions = MSELossOptions;
using BinaryCrossEntropyFuncOptions = BCELossOptions;
using NLLLossFuncOptions = NLLLossOptions;
using CrossEntropyFuncOptions = CrossEntropyLossOptions;

} // namespace functional

} // namespace nn
} // namespace torch

// ---------------------------------------------------------------------------
// torch/nn/modules/*.h
// ---------------------------------------------------------------------------
namespace torch {
namespace nn {

/// Linear
class TORCH_API LinearImpl : public Cloneable<LinearImpl> {
public:
  LinearImpl(int64_t in_features, int64_t out_features)
      : LinearImpl(LinearOptions(in_features, out_features)) {}
  explicit LinearImpl(const LinearOptions &options_);

  void reset() override;
  void reset_parameters();
  void pretty_print(std::ostream &stream) const override;
  Tensor forward(const Tensor &input);

  LinearOptions options;
  Tensor weight;
  Tensor bias;
};
TORCH_MODULE(Linear);

/// Flatten
class TORCH_API FlattenImpl : public Cloneable<FlattenImpl> {
public:
  explicit FlattenImpl(const FlattenOptions &options_ = {});
  void reset() override;
  void pretty_print(std::ostream &stream) const override;
  Tensor forward(const Tensor &input);
  FlattenOptions options;
};
TORCH_MODULE(Flatten);

/// Base class for all (dimension-specialized) convolution modules.
template <size_t D, typename Derived>
class ConvNdImpl : public torch::nn::Cloneable<Derived> {
public:
  explicit ConvNdImpl(detail::ConvNdOptions<D> options_)
      : options(std::move(options_)) {}

  void reset() override {}
  void reset_parameters() {}
  void pretty_print(std::ostream &stream) const override {
    stream << "torch::nn::Conv" << D << "d";
  }

  /// The options with which this `Module` was constructed.
  detail::ConvNdOptions<D> options;
  Tensor weight;
  Tensor bias;

protected:
  std::vector<int64_t> _reversed_padding_repeated_twice;
};

class TORCH_API Conv1dImpl : public ConvNdImpl<1, Conv1dImpl> {
public:
  Conv1dImpl(int64_t input_channels, int64_t output_channels,
             ExpandingArray<1> kernel_size)
      : Conv1dImpl(
            Conv1dOptions(input_channels, output_channels, kernel_size)) {}
  explicit Conv1dImpl(Conv1dOptions options_);
  Tensor forward(const Tensor &input);
};
TORCH_MODULE(Conv1d);

class TORCH_API Conv2dImpl : public ConvNdImpl<2, Conv2dImpl> {
public:
  Conv2dImpl(int64_t input_channels, int64_t output_channels,
             ExpandingArray<2> kernel_size)
      : Conv2dImpl(
            Conv2dOptions(input_channels, output_channels, kernel_size)) {}
  explicit Conv2dImpl(Conv2dOptions options_);
  Tensor forward(const Tensor &input);

protected:
  Tensor _conv_forward(const Tensor &input, const Tensor &weight);
};
TORCH_MODULE(Conv2d);

class TORCH_API Conv3dImpl : public ConvNdImpl<3, Conv3dImpl> {
public:
  Conv3dImpl(int64_t input_channels, int64_t output_channels,
             ExpandingArray<3> kernel_size)
      : Conv3dImpl(
            Conv3dOptions(input_channels, output_channels, kernel_size)) {}
  explicit Conv3dImpl(Conv3dOptions options_);
  Tensor forward(const Tensor &input);
};
TORCH_MODULE(Conv3d);

/// Base class for all (dimension-specialized) convolution transpose modules.
template <size_t D, typename Derived>
class ConvTransposeNdImpl : public ConvNdImpl<D, Derived> {
public:
  using torch::nn::ConvNdImpl<D, Derived>::ConvNdImpl;
  explicit ConvTransposeNdImpl(detail::ConvNdOptions<D> options_)
      : ConvNdImpl<D, Derived>(options_) {}

  void pretty_print(std::ostream &stream) const override {
    stream << "torch::nn::ConvTranspose" << D << "d";
  }
};

class TORCH_API ConvTranspose2dImpl
    : public ConvTransposeNdImpl<2, ConvTranspose2dImpl> {
public:
  ConvTranspose2dImpl(int64_t input_channels, int64_t output_channels,
                      ExpandingArray<2> kernel_size)
      : ConvTranspose2dImpl(ConvTranspose2dOptions(
            input_channels, output_channels, kernel_size)) {}
  explicit ConvTranspose2dImpl(ConvTranspose2dOptions options_);
  Tensor forward(const Tensor &input,
                 const c10::optional<at::IntArrayRef> &output_size =
                     c10::nullopt);
};
TORCH_MODULE(ConvTranspose2d);

/// Base class for all (dimension-specialized) normalization modules.
template <size_t D, typename Derived, typename DerivedOptions>
class NormImplBase : public torch::nn::Cloneable<Derived> {
protected:
  virtual void _check_input_dim(const Tensor &input) = 0;

public:
  NormImplBase(const DerivedOptions &options_) : options(options_) {}

  void reset() override {}
  void reset_running_stats() {}
  void reset_parameters() {}

  /// The options with which this module was constructed.
  DerivedOptions options;
  Tensor weight;
  Tensor bias;
  Tensor running_mean;
  Tensor running_var;
  Tensor num_batches_tracked;
};

/// Base class for all (dimension-specialized) batchnorm modules.
template <size_t D, typename Derived>
class BatchNormImplBase : public NormImplBase<D, Derived, BatchNormOptions> {
public:
  using NormImplBase<D, Derived, BatchNormOptions>::NormImplBase;

  Tensor forward(const Tensor &input) { return input; }

  void pretty_print(std::ostream &stream) const override {
    stream << "torch::nn::BatchNorm" << D << "d";
  }
};

class TORCH_API BatchNorm1dImpl : public BatchNormImplBase<1, BatchNorm1dImpl> {
protected:
  void _check_input_dim(const Tensor &input) override;

public:
  using BatchNormImplBase<1, BatchNorm1dImpl>::BatchNormImplBase;
};
TORCH_MODULE(BatchNorm1d);

class TORCH_API BatchNorm2dImpl : public BatchNormImplBase<2, BatchNorm2dImpl> {
protected:
  void _check_input_dim(const Tensor &input) override;

public:
  using BatchNormImplBase<2, BatchNorm2dImpl>::BatchNormImplBase;
};
TORCH_MODULE(BatchNorm2d);

class TORCH_API BatchNorm3dImpl : public BatchNormImplBase<3, BatchNorm3dImpl> {
protected:
  void _check_input_dim(const Tensor &input) override;

public:
  using BatchNormImplBase<3, BatchNorm3dImpl>::BatchNormImplBase;
};
TORCH_MODULE(BatchNorm3d);

/// ReLU
class TORCH_API ReLUImpl : public torch::nn::Cloneable<ReLUImpl> {
public:
  explicit ReLUImpl(const ReLUOptions &options_ = {});
  Tensor forward(Tensor input);
  void reset() override;
  void pretty_print(std::ostream &stream) const override;
  ReLUOptions options;
};
TORCH_MODULE(ReLU);

/// Sigmoid
class TORCH_API SigmoidImpl : public torch::nn::Cloneable<SigmoidImpl> {
public:
  Tensor forward(const Tensor &input);
  void reset() override;
  void pretty_print(std::ostream &stream) const override;
};
TORCH_MODULE(Sigmoid);

/// Tanh
class TORCH_API TanhImpl : public torch::nn::Cloneable<TanhImpl> {
public:
  Tensor forward(const Tensor &input);
  void reset() override;
  void pretty_print(std::ostream &stream) const override;
};
TORCH_MODULE(Tanh);

namespace detail {

/// Base class for all dropout modules.
template <typename Derived>
class _DropoutNd : public torch::nn::Cloneable<Derived> {
public:
  _DropoutNd(double p) : _DropoutNd(DropoutOptions().p(p)){};

  explicit _DropoutNd(const DropoutOptions &options_ = {})
      : options(options_) {}

  void reset() override {}

  /// The options with which this `Module` was constructed.
  DropoutOptions options;
};

} // namespace detail

class TORCH_API DropoutImpl : public detail::_DropoutNd<DropoutImpl> {
public:
  using detail::_DropoutNd<DropoutImpl>::_DropoutNd;
  Tensor forward(Tensor input);
  void pretty_print(std::ostream &stream) const override;
};
TORCH_MODULE(Dropout);

class TORCH_API Dropout2dImpl : public detail::_DropoutNd<Dropout2dImpl> {
public:
  using detail::_DropoutNd<Dropout2dImpl>::_DropoutNd;
  Tensor forward(Tensor input);
  void pretty_print(std::ostream &stream) const override;
};
TORCH_MODULE(Dropout2d);

/// Embedding
class TORCH_API EmbeddingImpl : public torch::nn::Cloneable<EmbeddingImpl> {
public:
  EmbeddingImpl(int64_t num_embeddings, int64_t embedding_dim)
      : EmbeddingImpl(EmbeddingOptions(num_embeddings, embedding_dim)) {}
#if LIBTORCH_MOCK_VERSION_MAJOR >= 2
  explicit EmbeddingImpl(EmbeddingOptions options_);
#else
  explicit EmbeddingImpl(const EmbeddingOptions &options_);
#endif

  void reset() override;
  void reset_parameters();
  void pretty_print(std::ostream &stream) const override;
  Tensor forward(const Tensor &indices);

  EmbeddingOptions options;
  Tensor weight;
};

class Embedding : public torch::nn::ModuleHolder<EmbeddingImpl> {
public:
  using torch::nn::ModuleHolder<EmbeddingImpl>::ModuleHolder;
};

/// Base class for all (dimension-specialized) maxpool modules.
template <size_t D, typename Derived>
class TORCH_API MaxPoolImpl : public torch::nn::Cloneable<Derived> {
public:
  MaxPoolImpl(ExpandingArray<D> kernel_size)
      : MaxPoolImpl(MaxPoolOptions<D>(kernel_size)) {}
  explicit MaxPoolImpl(const MaxPoolOptions<D> &options_) : options(options_) {}

  void reset() override {}
  void pretty_print(std::ostream &stream) const override {
    stream << "torch::nn::MaxPool" << D << "d";
  }

  /// The options with which this `Module` was constructed.
  MaxPoolOptions<D> options;
};

class TORCH_API MaxPool2dImpl : public MaxPoolImpl<2, MaxPool2dImpl> {
public:
  using MaxPoolImpl<2, MaxPool2dImpl>::MaxPoolImpl;
  Tensor forward(const Tensor &input);
};
TORCH_MODULE(MaxPool2d);

namespace detail {
/// Base class for all RNN implementations (intended for code sharing).
template <typename Derived>
class TORCH_API RNNImplBase : public torch::nn::Cloneable<Derived> {
public:
  void reset() override {}
  void reset_parameters() {}
  void flatten_parameters() {}
  std::vector<Tensor> all_weights() const;
};
} // namespace detail

/// LSTM
class TORCH_API LSTMImpl : public detail::RNNImplBase<LSTMImpl> {
public:
  LSTMImpl(int64_t input_size, int64_t hidden_size)
      : LSTMImpl(LSTMOptions(input_size, hidden_size)) {}
  explicit LSTMImpl(const LSTMOptions &options_);

  std::tuple<Tensor, std::tuple<Tensor, Tensor>>
  forward(const Tensor &input,
          torch::optional<std::tuple<Tensor, Tensor>> hx_opt = {});

  LSTMOptions options;
};
TORCH_MODULE(LSTM);

/// Sequential
class SequentialImpl : public Cloneable<SequentialImpl> {
public:
  using Iterator = std::vector<AnyModule>::iterator;
  using ConstIterator = std::vector<AnyModule>::const_iterator;

  SequentialImpl() = default;

  /// Constructs the `Sequential` from a variadic list of modules.
  template <typename... Modules> explicit SequentialImpl(Modules &&...modules) {
    modules_.reserve(sizeof...(Modules));
    push_back(std::forward<Modules>(modules)...);
  }

  explicit SequentialImpl(
      torch::OrderedDict<std::string, AnyModule> &&ordered_dict);

  explicit SequentialImpl(std::initializer_list<NamedAnyModule> named_modules);

  std::shared_ptr<Module>
  clone(const optional<Device> &device = nullopt) const override;

  void reset() override {}

  void pretty_print(std::ostream &stream) const override {
    stream << "torch::nn::Sequential";
  }

  template <typename ReturnType = Tensor, typename... InputTypes>
  ReturnType forward(InputTypes &&...inputs) {
    auto iterator = modules_.begin();
    auto input = iterator->any_forward(std::forward<InputTypes>(inputs)...);
    return input.template get<ReturnType>();
  }

  template <typename ModuleType>
  void push_back(std::shared_ptr<ModuleType> module_ptr) {
    push_back(std::to_string(modules_.size()), std::move(module_ptr));
  }

  template <typename ModuleType>
  void push_back(std::string name, std::shared_ptr<ModuleType> module_ptr) {
    push_back(std::move(name), AnyModule(std::move(module_ptr)));
  }

  template <typename M, typename = torch::detail::enable_if_module_t<M>>
  void push_back(M &&module) {
    push_back(std::to_string(modules_.size()), std::forward<M>(module));
  }

  template <typename M, typename = torch::detail::enable_if_module_t<M>>
  void push_back(std::string name, M &&module) {
    using Type = typename std::remove_reference<M>::type;
    push_back(std::move(name), std::make_shared<Type>(std::forward<M>(module)));
  }

  template <typename M> void push_back(const ModuleHolder<M> &module_holder) {
    push_back(std::to_string(modules_.size()), module_holder);
  }

  template <typename M>
  void push_back(std::string name, const ModuleHolder<M> &module_holder) {
    push_back(std::move(name), module_holder.ptr());
  }

  template <typename Container> void extend(const Container &container) {
    for (const auto &module : container) {
      push_back(module);
    }
  }

  void push_back(AnyModule any_module);

  void push_back(std::string name, AnyModule any_module);

  Iterator begin() { return modules_.begin(); }
  ConstIterator begin() const { return modules_.begin(); }
  Iterator end() { return modules_.end(); }
  ConstIterator end() const { return modules_.end(); }

  template <typename T> T &at(size_t index) {
    return modules_[index].get<T>();
  }
  template <typename T> const T &at(size_t index) const {
    return modules_[index].get<T>();
  }

  std::shared_ptr<Module> ptr(size_t index) const {
    return modules_[index].ptr();
  }
  template <typename T> std::shared_ptr<T> ptr(size_t index) const {
    return modules_[index].ptr<T>();
  }

  std::shared_ptr<Module> operator[](size_t index) const { return ptr(index); }

  size_t size() const noexcept { return modules_.size(); }
  bool is_empty() const noexcept { return size() == 0; }

private:
#if LIBTORCH_MOCK_VERSION_MAJOR >= 2
  template <
      typename First, typename Second, typename... Rest,
      typename = std::enable_if_t<
          !std::is_same_v<First, std::string> &&
          !std::is_same_v<std::decay_t<First>, std::decay_t<const char (&)[]>>>>
#else
  template <typename First, typename Second, typename... Rest,
            typename = torch::disable_if_t<
                std::is_same<First, std::string>::value ||
                std::is_same<typename std::decay<First>::type,
                             std::decay<const char (&)[]>::type>::value>>
#endif
  void push_back(First &&first, Second &&second, Rest &&...rest) {
    push_back(std::forward<First>(first));
    push_back(std::forward<Second>(second), std::forward<Rest>(rest)...);
  }

  void push_back() {}

  std::vector<AnyModule> modules_;
};

class Sequential : public torch::nn::ModuleHolder<SequentialImpl> {
public:
  using torch::nn::ModuleHolder<SequentialImpl>::ModuleHolder;

  Sequential() : ModuleHolder() {}

  Sequential(std::initializer_list<NamedAnyModule> named_modules);
};

/// Functional: wraps a function as a module.
class TORCH_API FunctionalImpl : public torch::nn::Cloneable<FunctionalImpl> {
public:
  using Function = std::function<Tensor(Tensor)>;

  explicit FunctionalImpl(Function function);

#if LIBTORCH_MOCK_VERSION_MAJOR >= 2
  template <typename SomeFunction, typename... Args,
            typename = std::enable_if_t<(sizeof...(Args) > 0)>>
#else
  template <typename SomeFunction, typename... Args,
            typename = torch::enable_if_t<(sizeof...(Args) > 0)>>
#endif
  explicit FunctionalImpl(SomeFunction original_function, Args &&...args)
      : function_(std::bind(original_function,
                            /*input=*/std::placeholders::_1,
                            std::forward<Args>(args)...)) {
  }

  void reset() override;
  void pretty_print(std::ostream &stream) const override;
  Tensor forward(Tensor input);
  Tensor operator()(Tensor input);
  bool is_serializable() const override;

private:
  Function function_;
};
TORCH_MODULE(Functional);

} // namespace nn
} // namespace torch

// ---------------------------------------------------------------------------
// torch/nn/functional/*.h
// ---------------------------------------------------------------------------
namespace torch {
namespace nn {
namespace functional {

inline Tensor relu(Tensor input, const ReLUFuncOptions &options = {}) {
  return options.inplace() ? torch::relu_(input) : torch::relu(input);
}

inline Tensor leaky_relu(Tensor input,
                         const LeakyReLUFuncOptions &options = {}) {
  return torch::leaky_relu(input, options.negative_slope());
}

inline Tensor softmax(const Tensor &input, const SoftmaxFuncOptions &options) {
  return torch::softmax(input, options.dim(), options.dtype());
}

inline Tensor log_softmax(const Tensor &input,
                          const LogSoftmaxFuncOptions &options) {
  return torch::log_softmax(input, options.dim(), options.dtype());
}

inline Tensor dropout(Tensor input, const DropoutFuncOptions &options = {}) {
  return torch::dropout(input, options.p(), options.training());
}

inline Tensor max_pool2d(const Tensor &input,
                         const MaxPool2dFuncOptions &options) {
  return torch::max_pool2d(input, options.kernel_size(), options.stride(),
                           options.padding(), options.dilation(),
                           options.ceil_mode());
}

inline Tensor mse_loss(const Tensor &input, const Tensor &target,
                       const MSELossFuncOptions &options = {}) {
  return torch::mse_loss(input, target);
}

inline Tensor binary_cross_entropy(
    const Tensor &input, const Tensor &target,
    const BinaryCrossEntropyFuncOptions &options = {}) {
  return torch::binary_cross_entropy(input, target, options.weight());
}

inline Tensor nll_loss(const Tensor &input, const Tensor &target,
                       const NLLLossFuncOptions &options = {}) {
  return torch::nll_loss(input, target, options.weight(), at::Reduction::Mean,
                         options.ignore_index());
}

inline Tensor cross_entropy(const Tensor &input, const Tensor &target,
                            const CrossEntropyFuncOptions &options = {}) {
  return torch::cross_entropy_loss(input, target, options.weight(),
                                   at::Reduction::Mean, options.ignore_index(),
                                   options.label_smoothing());
}

} // namespace functional
} // namespace nn
} // namespace torch

// ---------------------------------------------------------------------------
// torch/nn/utils/clip_grad.h
// ---------------------------------------------------------------------------
namespace torch {
namespace nn {
namespace utils {

#if LIBTORCH_MOCK_VERSION_MAJOR >= 2
inline double clip_grad_norm_(const std::vector<Tensor> &parameters,
                              double max_norm, double norm_type = 2.0,
                              bool error_if_nonfinite = false) {
  return max_norm;
}
#else
inline double clip_grad_norm_(std::vector<Tensor> parameters, double max_norm,
                              double norm_type = 2.0,
                              bool error_if_nonfinite = false) {
  return max_norm;
}
#endif

inline double clip_grad_norm_(std::initializer_list<Tensor> parameters,
                              double max_norm, double norm_type = 2.0,
                              bool error_if_nonfinite = false) {
  return clip_grad_norm_(std::vector<Tensor>(parameters), max_norm, norm_type,
                         error_if_nonfinite);
}

inline double clip_grad_norm_(Tensor parameter, double max_norm,
                              double norm_type = 2.0,
                              bool error_if_nonfinite = false) {
  std::vector<Tensor> params = {parameter};
  return clip_grad_norm_(params, max_norm, norm_type, error_if_nonfinite);
}

#if LIBTORCH_MOCK_VERSION_MAJOR >= 2
inline void clip_grad_value_(const std::vector<Tensor> &parameters,
                             double clip_value) {}
#else
inline void clip_grad_value_(std::vector<Tensor> parameters,
                             double clip_value) {}
#endif

inline void clip_grad_value_(std::initializer_list<Tensor> parameters,
                             double clip_value) {
  clip_grad_value_(std::vector<Tensor>(parameters), clip_value);
}

inline void clip_grad_value_(Tensor parameter, double clip_value) {
  std::vector<Tensor> params = {parameter};
  clip_grad_value_(params, clip_value);
}

// ---------------------------------------------------------------------------
// torch/nn/utils/rnn.h: the lengths must be a CPU int64 tensor (ATen throws
// otherwise).
// ---------------------------------------------------------------------------
namespace rnn {

class PackedSequence {
public:
  explicit PackedSequence(Tensor data, Tensor batch_sizes,
                          Tensor sorted_indices = {},
                          Tensor unsorted_indices = {})
      : data_(std::move(data)), batch_sizes_(std::move(batch_sizes)) {}
  const Tensor &data() const { return data_; }
  const Tensor &batch_sizes() const { return batch_sizes_; }

private:
  Tensor data_;
  Tensor batch_sizes_;
};

inline PackedSequence pack_padded_sequence(Tensor input, Tensor lengths,
                                           bool batch_first = false,
                                           bool enforce_sorted = true) {
  return PackedSequence(input, lengths);
}

} // namespace rnn

} // namespace utils
} // namespace nn
} // namespace torch

#undef LIBTORCH_MOCK_VARIANT
