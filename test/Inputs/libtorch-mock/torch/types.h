// Mock of the torch:: core layer, for fast check tests.
//
// Mirrors (declarations and qualified names as in LibTorch 1.13):
//   torch/types.h           `namespace torch { using namespace at; }`,
//                           torch::Dtype, torch::kFloat32, ...
//   torch/csrc/autograd/generated/variable_factories.h
//                           torch::zeros/randn/... (they hide at::zeros/...),
//                           torch::tensor, torch::from_blob
//   torch/detail/TensorDataContainer.h
//   torch/utils.h           torch::NoGradGuard (= at::NoGradGuard =
//                           c10::NoGradGuard), `using at::manual_seed`
//   torch/csrc/autograd/{variable,function,grad_mode,autograd,
//                        anomaly_mode}.h  torch::autograd::...
//   torch/csrc/utils/variadic.h   torch::enable_if_t, torch::disable_if_t
//   torch/ordered_dict.h, torch/enum.h, torch/expanding_array.h
//   ATen/Parallel.h         at::set_num_threads, ...
#pragma once

#include <ATen/ATen.h>
#include <torch/arg.h>

// ---------------------------------------------------------------------------
// ATen/Parallel.h
// ---------------------------------------------------------------------------
namespace at {
TORCH_API void init_num_threads();
TORCH_API void set_num_threads(int);
TORCH_API int get_num_threads();
TORCH_API int get_thread_num();
TORCH_API bool in_parallel_region();
TORCH_API void set_num_interop_threads(int);
TORCH_API int get_num_interop_threads();
} // namespace at

// ---------------------------------------------------------------------------
// torch/csrc/utils/variadic.h, torch/csrc/utils/memory.h
// ---------------------------------------------------------------------------
#if LIBTORCH_MOCK_VERSION_MAJOR < 2
// 1.13 only: 2.15 has none of these (std::enable_if_t, std::make_unique).
namespace torch {

template <bool value, typename T = void>
using enable_if_t = typename std::enable_if<value, T>::type;

template <bool value, typename T = void>
using disable_if_t = enable_if_t<!value, T>;

template <typename T> using decay_t = typename std::decay<T>::type;

template <typename T, typename... Args>
typename std::enable_if<!std::is_array<T>::value, std::unique_ptr<T>>::type
make_unique(Args &&...args) {
  return std::unique_ptr<T>(new T(std::forward<Args>(args)...));
}

} // namespace torch
#endif

// ---------------------------------------------------------------------------
// torch/types.h
// ---------------------------------------------------------------------------
namespace torch {

using namespace at; // NOLINT

using c10::nullopt;
using c10::optional;

using Dtype = at::ScalarType;

/// Fixed width dtypes.
constexpr auto kUInt8 = at::kByte;
constexpr auto kInt8 = at::kChar;
constexpr auto kInt16 = at::kShort;
constexpr auto kInt32 = at::kInt;
constexpr auto kInt64 = at::kLong;
constexpr auto kFloat16 = at::kHalf;
constexpr auto kFloat32 = at::kFloat;
constexpr auto kFloat64 = at::kDouble;

/// Rust-style short dtypes.
constexpr auto kU8 = kUInt8;
constexpr auto kI8 = kInt8;
constexpr auto kI16 = kInt16;
constexpr auto kI32 = kInt32;
constexpr auto kI64 = kInt64;
constexpr auto kF16 = kFloat16;
constexpr auto kF32 = kFloat32;
constexpr auto kF64 = kFloat64;

} // namespace torch

// ---------------------------------------------------------------------------
// torch/csrc/autograd/variable.h, function.h, grad_mode.h, InferenceMode.h
// ---------------------------------------------------------------------------
namespace torch {
namespace autograd {

using Variable = at::Tensor;
using variable_list = std::vector<Variable>;

using GradMode = at::GradMode;
using AutoGradMode = at::AutoGradMode;

} // namespace autograd
} // namespace torch

// ---------------------------------------------------------------------------
// torch/detail/TensorDataContainer.h
// ---------------------------------------------------------------------------
namespace torch {
namespace detail {

enum class TensorDataContainerType { Scalar, InitList, Tensor };

struct TensorDataContainer {
  TensorDataContainer();
#define TORCH_MOCK_TENSOR(T, S) TensorDataContainer(T value);
  TORCH_MOCK_TENSOR(uint8_t, Byte)
  TORCH_MOCK_TENSOR(int8_t, Char)
  TORCH_MOCK_TENSOR(int16_t, Short)
  TORCH_MOCK_TENSOR(int, Int)
  TORCH_MOCK_TENSOR(int64_t, Long)
  TORCH_MOCK_TENSOR(float, Float)
  TORCH_MOCK_TENSOR(double, Double)
  TORCH_MOCK_TENSOR(bool, Bool)
  TORCH_MOCK_TENSOR(c10::Half, Half)
  TORCH_MOCK_TENSOR(c10::BFloat16, BFloat16)
  TORCH_MOCK_TENSOR(c10::complex<float>, ComplexFloat)
  TORCH_MOCK_TENSOR(c10::complex<double>, ComplexDouble)
#undef TORCH_MOCK_TENSOR
  TensorDataContainer(std::initializer_list<TensorDataContainer> init_list);

#define TORCH_MOCK_TENSOR(T, S) TensorDataContainer(at::ArrayRef<T> values);
  TORCH_MOCK_TENSOR(uint8_t, Byte)
  TORCH_MOCK_TENSOR(int8_t, Char)
  TORCH_MOCK_TENSOR(int16_t, Short)
  TORCH_MOCK_TENSOR(int, Int)
  TORCH_MOCK_TENSOR(int64_t, Long)
  TORCH_MOCK_TENSOR(float, Float)
  TORCH_MOCK_TENSOR(double, Double)
  TORCH_MOCK_TENSOR(bool, Bool)
  TORCH_MOCK_TENSOR(c10::Half, Half)
  TORCH_MOCK_TENSOR(c10::BFloat16, BFloat16)
  TORCH_MOCK_TENSOR(c10::complex<float>, ComplexFloat)
  TORCH_MOCK_TENSOR(c10::complex<double>, ComplexDouble)
#undef TORCH_MOCK_TENSOR

#define TORCH_MOCK_TENSOR(T, S) TensorDataContainer(const std::vector<T> &values);
  TORCH_MOCK_TENSOR(uint8_t, Byte)
  TORCH_MOCK_TENSOR(int8_t, Char)
  TORCH_MOCK_TENSOR(int16_t, Short)
  TORCH_MOCK_TENSOR(int, Int)
  TORCH_MOCK_TENSOR(int64_t, Long)
  TORCH_MOCK_TENSOR(float, Float)
  TORCH_MOCK_TENSOR(double, Double)
  TORCH_MOCK_TENSOR(c10::Half, Half)
  TORCH_MOCK_TENSOR(c10::BFloat16, BFloat16)
  TORCH_MOCK_TENSOR(c10::complex<float>, ComplexFloat)
  TORCH_MOCK_TENSOR(c10::complex<double>, ComplexDouble)
#undef TORCH_MOCK_TENSOR

  bool is_scalar() const { return type_ == TensorDataContainerType::Scalar; }
  const c10::Scalar &scalar() const { return scalar_; }
  bool is_init_list() const {
    return type_ == TensorDataContainerType::InitList;
  }
  const std::initializer_list<TensorDataContainer> &init_list() const {
    return init_list_;
  }
  bool is_tensor() const { return type_ == TensorDataContainerType::Tensor; }
  const at::Tensor &tensor() const { return tensor_; }
  const std::vector<int64_t> &sizes() const { return sizes_; }
  const c10::ScalarType &scalar_type() const { return scalar_type_; }
  at::Tensor convert_to_tensor(at::TensorOptions options) const;
  void pretty_print_recursive(std::ostream &stream) const;

private:
  std::vector<int64_t> sizes_;
  c10::ScalarType scalar_type_ = at::kFloat;
  TensorDataContainerType type_;
  c10::Scalar scalar_;
  std::initializer_list<TensorDataContainer> init_list_;
  at::Tensor tensor_;
};

inline std::ostream &operator<<(std::ostream &stream,
                                const TensorDataContainer &tensor_data_container);

} // namespace detail
} // namespace torch

// ---------------------------------------------------------------------------
// torch/csrc/autograd/generated/variable_factories.h
// ---------------------------------------------------------------------------
namespace torch {

/// Creates a tensor from (nested) braced-init-lists, scalars, ArrayRefs and
/// std::vectors; always host data.
inline at::Tensor tensor(detail::TensorDataContainer tensor_data_container,
                         const at::TensorOptions &options = {}) {
  return tensor_data_container.convert_to_tensor(
      options.requires_grad(c10::nullopt));
}

/// A generic deleter function.
using Deleter = std::function<void(void *)>;
using at::MemoryFormat;

TORCH_API at::Tensor
from_blob(void *data, at::IntArrayRef sizes, at::IntArrayRef strides,
          const Deleter &deleter,
          const at::TensorOptions &options = at::TensorOptions());
TORCH_API at::Tensor
from_blob(void *data, at::IntArrayRef sizes, at::IntArrayRef strides,
          const at::TensorOptions &options = at::TensorOptions());
TORCH_API at::Tensor
from_blob(void *data, at::IntArrayRef sizes, const Deleter &deleter,
          const at::TensorOptions &options = at::TensorOptions());
TORCH_API at::Tensor
from_blob(void *data, at::IntArrayRef sizes,
          const at::TensorOptions &options = at::TensorOptions());

TORCH_API at::Tensor arange(const at::Scalar &end,
                            at::TensorOptions options = {});
TORCH_API at::Tensor arange(const at::Scalar &start, const at::Scalar &end,
                            at::TensorOptions options = {});
TORCH_API at::Tensor arange(const at::Scalar &start, const at::Scalar &end,
                            const at::Scalar &step,
                            at::TensorOptions options = {});
#if LIBTORCH_MOCK_VERSION_MAJOR < 2
TORCH_API at::Tensor empty(at::IntArrayRef size,
                           c10::optional<at::DimnameList> names,
                           at::TensorOptions options = {},
                           c10::optional<at::MemoryFormat> memory_format =
                               c10::nullopt);
#endif
TORCH_API at::Tensor empty(at::IntArrayRef size,
                           at::TensorOptions options = {},
                           c10::optional<at::MemoryFormat> memory_format =
                               c10::nullopt);
TORCH_API at::Tensor empty_like(const at::Tensor &self,
                                at::TensorOptions options = {},
                                c10::optional<at::MemoryFormat> memory_format =
                                    c10::nullopt);
TORCH_API at::Tensor empty_strided(at::IntArrayRef size,
                                   at::IntArrayRef stride,
                                   at::TensorOptions options = {});
TORCH_API at::Tensor eye(int64_t n, at::TensorOptions options = {});
TORCH_API at::Tensor eye(int64_t n, int64_t m, at::TensorOptions options = {});
#if LIBTORCH_MOCK_VERSION_MAJOR < 2
TORCH_API at::Tensor full(at::IntArrayRef size, const at::Scalar &fill_value,
                          c10::optional<at::DimnameList> names,
                          at::TensorOptions options = {});
#endif
TORCH_API at::Tensor full(at::IntArrayRef size, const at::Scalar &fill_value,
                          at::TensorOptions options = {});
TORCH_API at::Tensor full_like(const at::Tensor &self,
                               const at::Scalar &fill_value,
                               at::TensorOptions options = {},
                               c10::optional<at::MemoryFormat> memory_format =
                                   c10::nullopt);
TORCH_API at::Tensor linspace(const at::Scalar &start, const at::Scalar &end,
                              int64_t steps, at::TensorOptions options = {});
TORCH_API at::Tensor logspace(const at::Scalar &start, const at::Scalar &end,
                              int64_t steps, double base = 10.0,
                              at::TensorOptions options = {});
#if LIBTORCH_MOCK_VERSION_MAJOR < 2
TORCH_API at::Tensor ones(at::IntArrayRef size,
                          c10::optional<at::DimnameList> names,
                          at::TensorOptions options = {});
#endif
TORCH_API at::Tensor ones(at::IntArrayRef size,
                          at::TensorOptions options = {});
TORCH_API at::Tensor ones_like(const at::Tensor &self,
                               at::TensorOptions options = {},
                               c10::optional<at::MemoryFormat> memory_format =
                                   c10::nullopt);
TORCH_API at::Tensor scalar_tensor(const at::Scalar &s,
                                   at::TensorOptions options = {});
#if LIBTORCH_MOCK_VERSION_MAJOR < 2
TORCH_API at::Tensor rand(at::IntArrayRef size,
                          c10::optional<at::DimnameList> names,
                          at::TensorOptions options = {});
#endif
#if LIBTORCH_MOCK_VERSION_MAJOR < 2
TORCH_API at::Tensor rand(at::IntArrayRef size,
                          c10::optional<at::Generator> generator,
                          c10::optional<at::DimnameList> names,
                          at::TensorOptions options = {});
#endif
TORCH_API at::Tensor rand(at::IntArrayRef size,
                          at::TensorOptions options = {});
TORCH_API at::Tensor rand(at::IntArrayRef size,
                          c10::optional<at::Generator> generator,
                          at::TensorOptions options = {});
TORCH_API at::Tensor rand_like(const at::Tensor &self,
                               at::TensorOptions options = {},
                               c10::optional<at::MemoryFormat> memory_format =
                                   c10::nullopt);
TORCH_API at::Tensor randint(int64_t high, at::IntArrayRef size,
                             at::TensorOptions options = at::kLong);
TORCH_API at::Tensor randint(int64_t high, at::IntArrayRef size,
                             c10::optional<at::Generator> generator,
                             at::TensorOptions options = at::kLong);
TORCH_API at::Tensor randint(int64_t low, int64_t high, at::IntArrayRef size,
                             at::TensorOptions options = at::kLong);
TORCH_API at::Tensor randint(int64_t low, int64_t high, at::IntArrayRef size,
                             c10::optional<at::Generator> generator,
                             at::TensorOptions options = at::kLong);
TORCH_API at::Tensor randint_like(const at::Tensor &self, int64_t high,
                                  at::TensorOptions options = {},
                                  c10::optional<at::MemoryFormat>
                                      memory_format = c10::nullopt);
TORCH_API at::Tensor randint_like(const at::Tensor &self, int64_t low,
                                  int64_t high, at::TensorOptions options = {},
                                  c10::optional<at::MemoryFormat>
                                      memory_format = c10::nullopt);
TORCH_API at::Tensor randn(at::IntArrayRef size,
                           at::TensorOptions options = {});
TORCH_API at::Tensor randn(at::IntArrayRef size,
                           c10::optional<at::Generator> generator,
                           at::TensorOptions options = {});
#if LIBTORCH_MOCK_VERSION_MAJOR < 2
TORCH_API at::Tensor randn(at::IntArrayRef size,
                           c10::optional<at::DimnameList> names,
                           at::TensorOptions options = {});
#endif
#if LIBTORCH_MOCK_VERSION_MAJOR < 2
TORCH_API at::Tensor randn(at::IntArrayRef size,
                           c10::optional<at::Generator> generator,
                           c10::optional<at::DimnameList> names,
                           at::TensorOptions options = {});
#endif
TORCH_API at::Tensor randn_like(const at::Tensor &self,
                                at::TensorOptions options = {},
                                c10::optional<at::MemoryFormat> memory_format =
                                    c10::nullopt);
TORCH_API at::Tensor randperm(int64_t n, at::TensorOptions options = at::kLong);
TORCH_API at::Tensor randperm(int64_t n,
                              c10::optional<at::Generator> generator,
                              at::TensorOptions options = at::kLong);
TORCH_API at::Tensor range(const at::Scalar &start, const at::Scalar &end,
                           const at::Scalar &step = 1,
                           at::TensorOptions options = {});
TORCH_API at::Tensor range(const at::Scalar &start, const at::Scalar &end,
                           at::TensorOptions options = {});
#if LIBTORCH_MOCK_VERSION_MAJOR < 2
TORCH_API at::Tensor zeros(at::IntArrayRef size,
                           c10::optional<at::DimnameList> names,
                           at::TensorOptions options = {});
#endif
TORCH_API at::Tensor zeros(at::IntArrayRef size,
                           at::TensorOptions options = {});
TORCH_API at::Tensor zeros_like(const at::Tensor &self,
                                at::TensorOptions options = {},
                                c10::optional<at::MemoryFormat> memory_format =
                                    c10::nullopt);

} // namespace torch

// ---------------------------------------------------------------------------
// torch/utils.h
// ---------------------------------------------------------------------------
namespace torch {

using NoGradGuard = at::NoGradGuard;

using AutoGradMode = at::AutoGradMode;

using at::manual_seed;

using at::init_num_threads;

using at::get_num_threads;

using at::set_num_threads;

using at::get_num_interop_threads;

using at::set_num_interop_threads;

#if LIBTORCH_MOCK_VERSION_MAJOR >= 2
inline bool equal_if_defined(const Tensor &t1, const Tensor &t2) {
  return ((!t1.defined() && !t2.defined()) ||
          (t1.defined() && t2.defined() && torch::equal(t1, t2)));
}
#else
inline bool equal_if_defined(Tensor t1, Tensor t2) {
  return ((!t1.defined() && !t2.defined()) ||
          (t1.defined() && t2.defined() && torch::equal(t1, t2)));
}
#endif

} // namespace torch

// ---------------------------------------------------------------------------
// torch/csrc/autograd/autograd.h, torch/csrc/autograd/anomaly_mode.h
// ---------------------------------------------------------------------------
namespace torch {
namespace autograd {

TORCH_API void backward(const variable_list &tensors,
                        const variable_list &grad_tensors = {},
                        c10::optional<bool> retain_graph = c10::nullopt,
                        bool create_graph = false,
                        const variable_list &inputs = {});

TORCH_API variable_list grad(const variable_list &outputs,
                             const variable_list &inputs,
                             const variable_list &grad_outputs = {},
                             c10::optional<bool> retain_graph = c10::nullopt,
                             bool create_graph = false,
                             bool allow_unused = false);

struct Node;

struct TORCH_API AnomalyMode {
  static bool is_enabled() { return _enabled; }
  static bool should_check_nan() { return _check_nan; }
  static void set_enabled(bool enabled, bool check_nan = true) {
    _enabled = enabled;
    _check_nan = check_nan;
  }

private:
  static bool _enabled;
  static bool _check_nan;
};

class TORCH_API DetectAnomalyGuard {
public:
  DetectAnomalyGuard(bool check_nan = true);
  ~DetectAnomalyGuard();

private:
  bool prev_check_nan_;
};

} // namespace autograd
} // namespace torch

// ---------------------------------------------------------------------------
// torch/enum.h
// ---------------------------------------------------------------------------
#define TORCH_ENUM_DECLARE(name)                                               \
  namespace torch {                                                            \
  namespace enumtype {                                                         \
  struct k##name {                                                             \
    k##name() {}                                                               \
  };                                                                           \
  }                                                                            \
  TORCH_API extern const enumtype::k##name k##name;                            \
  }

TORCH_ENUM_DECLARE(Linear)
TORCH_ENUM_DECLARE(Conv1D)
TORCH_ENUM_DECLARE(Conv2D)
TORCH_ENUM_DECLARE(Conv3D)
TORCH_ENUM_DECLARE(ConvTranspose1D)
TORCH_ENUM_DECLARE(ConvTranspose2D)
TORCH_ENUM_DECLARE(ConvTranspose3D)
TORCH_ENUM_DECLARE(Sigmoid)
TORCH_ENUM_DECLARE(Tanh)
TORCH_ENUM_DECLARE(ReLU)
TORCH_ENUM_DECLARE(GELU)
TORCH_ENUM_DECLARE(SiLU)
TORCH_ENUM_DECLARE(Mish)
TORCH_ENUM_DECLARE(LeakyReLU)
TORCH_ENUM_DECLARE(FanIn)
TORCH_ENUM_DECLARE(FanOut)
TORCH_ENUM_DECLARE(Constant)
TORCH_ENUM_DECLARE(Reflect)
TORCH_ENUM_DECLARE(Replicate)
TORCH_ENUM_DECLARE(Circular)
TORCH_ENUM_DECLARE(Nearest)
TORCH_ENUM_DECLARE(Bilinear)
TORCH_ENUM_DECLARE(Bicubic)
TORCH_ENUM_DECLARE(Trilinear)
TORCH_ENUM_DECLARE(Area)
TORCH_ENUM_DECLARE(NearestExact)
TORCH_ENUM_DECLARE(Sum)
TORCH_ENUM_DECLARE(Mean)
TORCH_ENUM_DECLARE(Max)
TORCH_ENUM_DECLARE(None)
TORCH_ENUM_DECLARE(BatchMean)
TORCH_ENUM_DECLARE(Zeros)
TORCH_ENUM_DECLARE(Border)
TORCH_ENUM_DECLARE(Reflection)
TORCH_ENUM_DECLARE(RNN_TANH)
TORCH_ENUM_DECLARE(RNN_RELU)
TORCH_ENUM_DECLARE(LSTM)
TORCH_ENUM_DECLARE(GRU)
TORCH_ENUM_DECLARE(Valid)
TORCH_ENUM_DECLARE(Same)

// ---------------------------------------------------------------------------
// torch/expanding_array.h
// ---------------------------------------------------------------------------
namespace torch {

template <size_t D, typename T = int64_t> class ExpandingArray {
public:
  /*implicit*/ ExpandingArray(std::initializer_list<T> list)
      : ExpandingArray(at::ArrayRef<T>(list)) {}
  /*implicit*/ ExpandingArray(std::vector<T> vec)
      : ExpandingArray(at::ArrayRef<T>(vec)) {}
  /*implicit*/ ExpandingArray(at::ArrayRef<T> values) {
    for (size_t i = 0; i < D && i < values.size(); ++i)
      values_[i] = values[i];
  }
  /*implicit*/ ExpandingArray(T single_size) { values_.fill(single_size); }
  /*implicit*/ ExpandingArray(const std::array<T, D> &values)
      : values_(values) {}

  std::array<T, D> &operator*() { return values_; }
  const std::array<T, D> &operator*() const { return values_; }
  std::array<T, D> *operator->() { return &values_; }
  const std::array<T, D> *operator->() const { return &values_; }
  operator at::ArrayRef<T>() const { return values_; }
  size_t size() const noexcept { return D; }

protected:
  std::array<T, D> values_;
};

template <size_t D, typename T>
std::ostream &operator<<(std::ostream &stream,
                         const ExpandingArray<D, T> &expanding_array);

template <size_t D, typename T = int64_t>
class ExpandingArrayWithOptionalElem
    : public ExpandingArray<D, c10::optional<T>> {
public:
  using ExpandingArray<D, c10::optional<T>>::ExpandingArray;
};

} // namespace torch

// ---------------------------------------------------------------------------
// torch/ordered_dict.h
// ---------------------------------------------------------------------------
namespace torch {

template <typename Key, typename Value> class OrderedDict {
public:
  class Item;

  using Iterator = typename std::vector<Item>::iterator;
  using ConstIterator = typename std::vector<Item>::const_iterator;

  explicit OrderedDict(std::string key_description = "Key")
      : key_description_(std::move(key_description)) {}
  OrderedDict(const OrderedDict &other) = default;
  OrderedDict &operator=(const OrderedDict &other) = default;
  OrderedDict(OrderedDict &&other) = default;
  OrderedDict &operator=(OrderedDict &&other) = default;
  ~OrderedDict() = default;
  /*implicit */ OrderedDict(std::initializer_list<Item> initializer_list);

  const std::string &key_description() const noexcept {
    return key_description_;
  }
  Item &front() { return items_.front(); }
  const Item &front() const { return items_.front(); }
  Item &back() { return items_.back(); }
  const Item &back() const { return items_.back(); }
  Item &operator[](size_t index) { return items_[index]; }
  const Item &operator[](size_t index) const { return items_[index]; }
  Value &operator[](const Key &key);
  const Value &operator[](const Key &key) const;
  Value *find(const Key &key) noexcept;
  const Value *find(const Key &key) const noexcept;
  bool contains(const Key &key) const noexcept;
  Iterator begin() { return items_.begin(); }
  ConstIterator begin() const { return items_.begin(); }
  Iterator end() { return items_.end(); }
  ConstIterator end() const { return items_.end(); }
  size_t size() const noexcept { return items_.size(); }
  bool is_empty() const noexcept { return items_.empty(); }
  void reserve(size_t requested_capacity) {
    items_.reserve(requested_capacity);
  }
  template <typename K, typename V> Value &insert(K &&key, V &&value);
  Value &insert(Key key, Value &&value);
  void update(OrderedDict &&other);
  void update(const OrderedDict &other);
  void erase(const Key &key);
  void clear() { items_.clear(); }
  const std::vector<Item> &items() const noexcept { return items_; }
  ::std::vector<Key> keys() const;
  ::std::vector<Value> values() const;
  ::std::vector<std::pair<Key, Value>> pairs() const;

private:
  std::vector<Item> items_;
  std::string key_description_{"Key"};
};

template <typename Key, typename Value> class OrderedDict<Key, Value>::Item {
public:
  Item(Key key, Value value) : pair_(std::move(key), std::move(value)) {}
  Value &operator*() { return pair_.second; }
  const Value &operator*() const { return pair_.second; }
  Value *operator->() { return &pair_.second; }
  const Value *operator->() const { return &pair_.second; }
  const Key &key() const noexcept { return pair_.first; }
  Value &value() noexcept { return pair_.second; }
  const Value &value() const noexcept { return pair_.second; }
  const std::pair<Key, Value> &pair() const noexcept { return pair_; }

private:
  ::std::pair<Key, Value> pair_;
};

} // namespace torch

// ---------------------------------------------------------------------------
// torch/serialize/archive.h (forward declarations; see torch/serialize.h)
// ---------------------------------------------------------------------------
namespace torch {
namespace serialize {
class OutputArchive;
class InputArchive;
} // namespace serialize
} // namespace torch
