// Mock of LibTorch's ATen, for fast check tests.
//
// Mirrors (declarations and qualified names as in LibTorch 1.13):
//   ATen/core/ATen_fwd.h       at::TensorList, at::IntArrayRef, ...
//   ATen/core/TensorBase.h     at::TensorBase
//   ATen/core/TensorBody.h     at::Tensor (methods, `to` overloads, item,
//                              backward, cpu/cuda, operators[] and +=...)
//   ATen/core/TensorAccessor.h at::TensorAccessor
//   ATen/TensorIndexing.h      at::indexing::{Slice, None, Ellipsis, TensorIndex}
//   ATen/core/IListRef.h       c10::IListRef, at::ITensorListRef
//   ATen/core/Dimname.h, ATen/core/Generator.h, ATen/core/Reduction.h
//   ATen/ops/*.h               at::zeros, at::randn, at::cat, at::relu, ...
//   ATen/TensorOperators.h     at::operator+ / == / < ... (static inline)
//   ATen/core/Formatting.h     at::print, at::operator<<(ostream&, Tensor)
//   ATen/Context.h             at::Context, at::globalContext(),
//                              at::manual_seed (static inline)
//   ATen/core/grad_mode.h      at::GradMode, at::AutoGradMode, at::NoGradGuard
//
// LibTorch 2.15 (-DLIBTORCH_MOCK_VERSION_MAJOR=2) requires C++20, as the real
// ATen/ATen.h does.
#pragma once

#if defined(LIBTORCH_MOCK_VERSION_MAJOR) &&                                    \
    LIBTORCH_MOCK_VERSION_MAJOR >= 2 && __cplusplus < 202002L
#error C++20 or later compatible compiler is required to use ATen.
#endif

#include <c10/core/TensorOptions.h>

#include <tuple>

// ---------------------------------------------------------------------------
// ATen/core/ATen_fwd.h
// ---------------------------------------------------------------------------
namespace c10 {
template <typename T> class List;
template <typename T> class IListRef;
} // namespace c10

namespace at {

class Tensor;
class OptionalTensorRef;
#if LIBTORCH_MOCK_VERSION_MAJOR < 2
struct Dimname;
#endif
struct Generator;
using TensorList = c10::ArrayRef<Tensor>;
using ITensorListRef = c10::IListRef<Tensor>;
#if LIBTORCH_MOCK_VERSION_MAJOR < 2
using DimnameList = c10::ArrayRef<Dimname>;
#endif
using IntArrayRef = c10::ArrayRef<int64_t>;
using OptionalIntArrayRef = c10::OptionalArrayRef<int64_t>;

using c10::Scalar;
using c10::TensorOptions;

} // namespace at

// ---------------------------------------------------------------------------
// ATen/core/grad_mode.h
// ---------------------------------------------------------------------------
namespace at {
using GradMode = c10::GradMode;
using AutoGradMode = c10::AutoGradMode;
using NoGradGuard = c10::NoGradGuard;
} // namespace at

// ---------------------------------------------------------------------------
// ATen/core/Dimname.h, ATen/core/Generator.h, ATen/core/Reduction.h
// ---------------------------------------------------------------------------
namespace at {

#if LIBTORCH_MOCK_VERSION_MAJOR < 2
struct TORCH_API Dimname {
  static Dimname fromSymbol(int64_t name);
  static Dimname wildcard();
  bool isBasic() const;
  bool isWildcard() const;

private:
  Dimname() = default;
  int64_t name_ = 0;
};

#endif
struct TORCH_API Generator {
  Generator() {}
  bool defined() const;
  void set_current_seed(uint64_t seed);
  uint64_t current_seed() const;
  Device device() const;
};

namespace Reduction {
enum Reduction { None, Mean, Sum, END };
} // namespace Reduction

} // namespace at

// ---------------------------------------------------------------------------
// ATen/core/TensorAccessor.h
// ---------------------------------------------------------------------------
#if LIBTORCH_MOCK_VERSION_MAJOR >= 2

// LibTorch 2.15: torch/headeronly/core/TensorAccessor.h holds the accessors,
// parameterized on the ArrayRef class; ATen's names are alias templates.
namespace torch::headeronly {

template <typename T> struct DefaultPtrTraits {
  using PtrType = T *;
};

namespace detail {

template <class ArrayRefCls, typename T, size_t N,
          template <typename U> class PtrTraits = DefaultPtrTraits,
          typename index_t = int64_t>
class TensorAccessorBase {
public:
  using PtrType = typename PtrTraits<T>::PtrType;

  TensorAccessorBase(PtrType data_, const index_t *sizes_,
                     const index_t *strides_)
      : data_(data_), sizes_(sizes_), strides_(strides_) {}
  ArrayRefCls sizes() const { return ArrayRefCls(sizes_, N); }
  ArrayRefCls strides() const { return ArrayRefCls(strides_, N); }
  index_t stride(index_t i) const { return strides_[i]; }
  index_t size(index_t i) const { return sizes_[i]; }
  PtrType data() { return data_; }
  const PtrType data() const { return data_; }

protected:
  PtrType data_;
  const index_t *sizes_;
  const index_t *strides_;
};

template <class ArrayRefCls, typename T, size_t N,
          template <typename U> class PtrTraits = DefaultPtrTraits,
          typename index_t = int64_t>
class TensorAccessor
    : public TensorAccessorBase<ArrayRefCls, T, N, PtrTraits, index_t> {
public:
  using PtrType = typename PtrTraits<T>::PtrType;

  TensorAccessor(PtrType data_, const index_t *sizes_, const index_t *strides_)
      : TensorAccessorBase<ArrayRefCls, T, N, PtrTraits, index_t>(data_, sizes_,
                                                                  strides_) {}

  TensorAccessor<ArrayRefCls, T, N - 1, PtrTraits, index_t>
  operator[](index_t i) {
    return TensorAccessor<ArrayRefCls, T, N - 1, PtrTraits, index_t>(
        this->data_ + this->strides_[0] * i, this->sizes_ + 1,
        this->strides_ + 1);
  }

  const TensorAccessor<ArrayRefCls, T, N - 1, PtrTraits, index_t>
  operator[](index_t i) const {
    return TensorAccessor<ArrayRefCls, T, N - 1, PtrTraits, index_t>(
        this->data_ + this->strides_[0] * i, this->sizes_ + 1,
        this->strides_ + 1);
  }
};

template <class ArrayRefCls, typename T, template <typename U> class PtrTraits,
          typename index_t>
class TensorAccessor<ArrayRefCls, T, 1, PtrTraits, index_t>
    : public TensorAccessorBase<ArrayRefCls, T, 1, PtrTraits, index_t> {
public:
  using PtrType = typename PtrTraits<T>::PtrType;

  TensorAccessor(PtrType data_, const index_t *sizes_, const index_t *strides_)
      : TensorAccessorBase<ArrayRefCls, T, 1, PtrTraits, index_t>(data_, sizes_,
                                                                  strides_) {}
  T &operator[](index_t i) { return this->data_[this->strides_[0] * i]; }
  const T &operator[](index_t i) const {
    return this->data_[this->strides_[0] * i];
  }
};

} // namespace detail
} // namespace torch::headeronly

namespace at {

using torch::headeronly::DefaultPtrTraits;

template <typename T, size_t N,
          template <typename U> class PtrTraits = DefaultPtrTraits,
          typename index_t = int64_t>
using TensorAccessorBase =
    torch::headeronly::detail::TensorAccessorBase<c10::IntArrayRef, T, N,
                                                  PtrTraits, index_t>;
template <typename T, size_t N,
          template <typename U> class PtrTraits = DefaultPtrTraits,
          typename index_t = int64_t>
using TensorAccessor =
    torch::headeronly::detail::TensorAccessor<c10::IntArrayRef, T, N, PtrTraits,
                                              index_t>;

} // namespace at

#else // LibTorch 1.13

namespace at {

template <typename T> struct DefaultPtrTraits {
  typedef T *PtrType;
};

template <typename T, size_t N,
          template <typename U> class PtrTraits = DefaultPtrTraits,
          typename index_t = int64_t>
class TensorAccessorBase {
public:
  typedef typename PtrTraits<T>::PtrType PtrType;

  TensorAccessorBase(PtrType data_, const index_t *sizes_,
                     const index_t *strides_)
      : data_(data_), sizes_(sizes_), strides_(strides_) {}
  IntArrayRef sizes() const { return IntArrayRef(sizes_, N); }
  IntArrayRef strides() const { return IntArrayRef(strides_, N); }
  index_t stride(index_t i) const { return strides_[i]; }
  index_t size(index_t i) const { return sizes_[i]; }
  PtrType data() { return data_; }
  const PtrType data() const { return data_; }

protected:
  PtrType data_;
  const index_t *sizes_;
  const index_t *strides_;
};

template <typename T, size_t N,
          template <typename U> class PtrTraits = DefaultPtrTraits,
          typename index_t = int64_t>
class TensorAccessor : public TensorAccessorBase<T, N, PtrTraits, index_t> {
public:
  typedef typename PtrTraits<T>::PtrType PtrType;

  TensorAccessor(PtrType data_, const index_t *sizes_, const index_t *strides_)
      : TensorAccessorBase<T, N, PtrTraits, index_t>(data_, sizes_, strides_) {}

  TensorAccessor<T, N - 1, PtrTraits, index_t> operator[](index_t i) {
    return TensorAccessor<T, N - 1, PtrTraits, index_t>(
        this->data_ + this->strides_[0] * i, this->sizes_ + 1,
        this->strides_ + 1);
  }

  const TensorAccessor<T, N - 1, PtrTraits, index_t>
  operator[](index_t i) const {
    return TensorAccessor<T, N - 1, PtrTraits, index_t>(
        this->data_ + this->strides_[0] * i, this->sizes_ + 1,
        this->strides_ + 1);
  }
};

template <typename T, template <typename U> class PtrTraits, typename index_t>
class TensorAccessor<T, 1, PtrTraits, index_t>
    : public TensorAccessorBase<T, 1, PtrTraits, index_t> {
public:
  typedef typename PtrTraits<T>::PtrType PtrType;

  TensorAccessor(PtrType data_, const index_t *sizes_, const index_t *strides_)
      : TensorAccessorBase<T, 1, PtrTraits, index_t>(data_, sizes_, strides_) {}
  T &operator[](index_t i) { return this->data_[this->strides_[0] * i]; }
  const T &operator[](index_t i) const {
    return this->data_[this->strides_[0] * i];
  }
};

} // namespace at

#endif // LIBTORCH_MOCK_VERSION_MAJOR >= 2

// ---------------------------------------------------------------------------
// ATen/core/TensorBase.h
// ---------------------------------------------------------------------------
namespace at {

class TORCH_API TensorBase {
public:
  TensorBase() = default;
  TensorBase(const TensorBase &) = default;
  TensorBase(TensorBase &&) = default;

  int64_t dim() const;
  int64_t storage_offset() const;

  TensorBase
  contiguous(MemoryFormat memory_format = MemoryFormat::Contiguous) const;

  const TensorBase &fill_(const c10::Scalar &scalar) const;
  const TensorBase &zero_() const;

  TensorBase to(at::TensorOptions options = {}, bool non_blocking = false,
                bool copy = false,
                c10::optional<at::MemoryFormat> memory_format =
                    c10::nullopt) const;

  bool is_complex() const;
  bool is_floating_point() const;
  bool is_signed() const;

  int64_t size(int64_t dim) const;
  int64_t stride(int64_t dim) const;

  bool defined() const;
  void reset();

  TensorBase &operator=(const TensorBase &x) &;
  TensorBase &operator=(TensorBase &&x) &;
  TensorBase &operator=(const TensorBase &) && = delete;
  TensorBase &operator=(TensorBase &&) && = delete;

  bool is_same(const TensorBase &other) const noexcept;
  size_t use_count() const noexcept;

  IntArrayRef sizes() const;
  IntArrayRef strides() const;
  int64_t ndimension() const;
  bool is_contiguous(
      at::MemoryFormat memory_format = at::MemoryFormat::Contiguous) const;
  size_t nbytes() const;
  int64_t numel() const;
  size_t itemsize() const;
  int64_t element_size() const;
  ScalarType scalar_type() const;
  Layout layout() const;
  caffe2::TypeMeta dtype() const;
  inline Device device() const;
  int64_t get_device() const;
  bool is_cpu() const;
  bool is_cuda() const;
  bool is_sparse() const;
  bool is_mps() const;
  bool is_meta() const;
  bool is_quantized() const;
  bool is_inference() const;

  TensorOptions options() const;

  void *data_ptr() const;

  template <typename T> T *data_ptr() const;

  void print() const;

  template <typename T, size_t N> TensorAccessor<T, N> accessor() const & {
    return TensorAccessor<T, N>(data_ptr<T>(), sizes().data(),
                                strides().data());
  }
  template <typename T, size_t N> TensorAccessor<T, N> accessor() && = delete;

  const TensorBase &set_requires_grad(bool requires_grad) const;
  bool requires_grad() const;

  at::TensorBase tensor_data() const;
  at::TensorBase variable_data() const;

  bool is_leaf() const;
  int64_t output_nr() const;
  void set_data(const TensorBase &new_data) const;
  TensorBase data() const;
  int64_t _version() const;
  void retain_grad() const;
  bool retains_grad() const;
  const TensorBase &requires_grad_(bool _requires_grad = true) const;

  std::string toString() const;

protected:
  std::shared_ptr<void> impl_;
};

inline Device TensorBase::device() const { return Device(kCPU); }

} // namespace at

// ---------------------------------------------------------------------------
// ATen/TensorIndexing.h (declarations used by Tensor::index)
// ---------------------------------------------------------------------------
namespace at {
namespace indexing {

const int64_t INDEX_MAX = INT64_MAX;
const int64_t INDEX_MIN = INT64_MIN;

#if LIBTORCH_MOCK_VERSION_MAJOR >= 2
enum class TensorIndexType { None, Ellipsis, SymInt, Boolean, Slice, Tensor };
#else
enum class TensorIndexType { None, Ellipsis, Integer, Boolean, Slice, Tensor };
#endif

constexpr c10::nullopt_t None = c10::nullopt;

struct TORCH_API EllipsisIndexType final {
  EllipsisIndexType() {}
};
TORCH_API extern const EllipsisIndexType Ellipsis;

#if LIBTORCH_MOCK_VERSION_MAJOR >= 2
struct TORCH_API Slice final {
public:
  Slice(std::optional<c10::SymInt> start_index = std::nullopt,
        std::optional<c10::SymInt> stop_index = std::nullopt,
        std::optional<c10::SymInt> step_index = std::nullopt) {}
  inline c10::SymInt start() const { return start_; }
  inline c10::SymInt stop() const { return stop_; }
  inline c10::SymInt step() const { return step_; }

private:
  c10::SymInt start_;
  c10::SymInt stop_;
  c10::SymInt step_;
};
#else
struct TORCH_API Slice final {
public:
  Slice(c10::optional<int64_t> start_index = c10::nullopt,
        c10::optional<int64_t> stop_index = c10::nullopt,
        c10::optional<int64_t> step_index = c10::nullopt);
  inline int64_t start() const;
  inline int64_t stop() const;
  inline int64_t step() const;

private:
  int64_t start_;
  int64_t stop_;
  int64_t step_;
};
#endif

TORCH_API std::ostream &operator<<(std::ostream &stream, const Slice &slice);

} // namespace indexing
} // namespace at

// ---------------------------------------------------------------------------
// ATen/core/TensorBody.h
// ---------------------------------------------------------------------------
namespace at {
namespace indexing {
struct TensorIndex;
} // namespace indexing

using TensorList = ArrayRef<Tensor>;

class TORCH_API Tensor : public TensorBase {
public:
  Tensor() = default;
  Tensor(const Tensor &tensor) = default;
  Tensor(Tensor &&tensor) = default;

  explicit Tensor(const TensorBase &base) : TensorBase(base) {}
  /*implicit*/ Tensor(TensorBase &&base) : TensorBase(std::move(base)) {}

  Tensor contiguous(MemoryFormat memory_format = MemoryFormat::Contiguous) const {
    return Tensor(TensorBase::contiguous(memory_format));
  }

  Tensor conj() const;

  using TensorBase::size;
  using TensorBase::stride;

  Tensor &operator=(const TensorBase &x) &;
  Tensor &operator=(TensorBase &&x) &;
  Tensor &operator=(const Tensor &x) &;
  Tensor &operator=(Tensor &&x) &;
#if LIBTORCH_MOCK_VERSION_MAJOR >= 2
  Tensor &operator=(const Scalar &v) &&;
#else
  Tensor &operator=(Scalar v) &&;
#endif
  Tensor &operator=(const Tensor &rhs) &&;
  Tensor &operator=(Tensor &&rhs) &&;

  template <typename T> T item() const;

  Tensor operator~() const;
  Tensor operator-() const;
  Tensor &operator+=(const Tensor &other);
#if LIBTORCH_MOCK_VERSION_MAJOR >= 2
  Tensor &operator+=(const Scalar &other);
  Tensor &operator-=(const Tensor &other);
  Tensor &operator-=(const Scalar &other);
  Tensor &operator*=(const Tensor &other);
  Tensor &operator*=(const Scalar &other);
  Tensor &operator/=(const Tensor &other);
  Tensor &operator/=(const Scalar &other);
#else
  Tensor &operator+=(Scalar other);
  Tensor &operator-=(const Tensor &other);
  Tensor &operator-=(Scalar other);
  Tensor &operator*=(const Tensor &other);
  Tensor &operator*=(Scalar other);
  Tensor &operator/=(const Tensor &other);
  Tensor &operator/=(Scalar other);
#endif
  Tensor &operator&=(const Tensor &other);
  Tensor &operator|=(const Tensor &other);
  Tensor &operator^=(const Tensor &other);
  Tensor operator[](const Scalar &index) const;
  Tensor operator[](const Tensor &index) const;
  Tensor operator[](int64_t index) const;

  Tensor index(ArrayRef<at::indexing::TensorIndex> indices) const;
  Tensor index(std::initializer_list<at::indexing::TensorIndex> indices) const;

  Tensor &index_put_(ArrayRef<at::indexing::TensorIndex> indices,
                     Tensor const &rhs);
  Tensor &index_put_(ArrayRef<at::indexing::TensorIndex> indices,
                     const Scalar &v);
  Tensor &index_put_(std::initializer_list<at::indexing::TensorIndex> indices,
                     Tensor const &rhs);
  Tensor &index_put_(std::initializer_list<at::indexing::TensorIndex> indices,
                     const Scalar &v);

  Tensor toType(ScalarType t) const {
    return to(options().dtype(t), /*non_blocking*/ false, /*copy*/ false);
  }

  Tensor cpu() const {
    return to(options().device(DeviceType::CPU), /*non_blocking*/ false,
              /*copy*/ false);
  }

  // TODO: The Python version also accepts arguments
  Tensor cuda() const {
    return to(options().device(DeviceType::CUDA), /*non_blocking*/ false,
              /*copy*/ false);
  }

  Tensor hip() const;

  void backward(const Tensor &gradient = {},
                c10::optional<bool> retain_graph = c10::nullopt,
                bool create_graph = false,
                c10::optional<TensorList> inputs = c10::nullopt) const;

  const Tensor &set_requires_grad(bool requires_grad) const {
    TensorBase::set_requires_grad(requires_grad);
    return *this;
  }

  Tensor &mutable_grad() const;
  const Tensor &grad() const;

  // Generated methods (ATen/core/TensorBody.h, LibTorch 1.13), a subset.
  at::Tensor abs() const;
  at::Tensor &abs_() const;
  at::Tensor add(const at::Tensor &other, const at::Scalar &alpha = 1) const;
  at::Tensor &add_(const at::Tensor &other, const at::Scalar &alpha = 1) const;
  at::Tensor add(const at::Scalar &other, const at::Scalar &alpha = 1) const;
  at::Tensor &add_(const at::Scalar &other, const at::Scalar &alpha = 1) const;
  at::Tensor all() const;
  bool allclose(const at::Tensor &other, double rtol = 1e-05,
                double atol = 1e-08, bool equal_nan = false) const;
  at::Tensor any() const;
  at::Tensor argmax(c10::optional<int64_t> dim = c10::nullopt,
                    bool keepdim = false) const;
  at::Tensor argmin(c10::optional<int64_t> dim = c10::nullopt,
                    bool keepdim = false) const;
  ::std::vector<at::Tensor> chunk(int64_t chunks, int64_t dim = 0) const;
  at::Tensor clamp(const c10::optional<at::Scalar> &min,
                   const c10::optional<at::Scalar> &max = c10::nullopt) const;
  at::Tensor clamp(const c10::optional<at::Tensor> &min = {},
                   const c10::optional<at::Tensor> &max = {}) const;
  at::Tensor &copy_(const at::Tensor &src, bool non_blocking = false) const;
  at::Tensor &set_(const at::Tensor &source) const;
  at::Tensor div(const at::Tensor &other) const;
  at::Tensor &div_(const at::Tensor &other) const;
  at::Tensor div(const at::Scalar &other) const;
  at::Tensor &div_(const at::Scalar &other) const;
  at::Tensor exp() const;
  at::Tensor expand(at::IntArrayRef size, bool implicit = false) const;
  at::Tensor expand_as(const at::Tensor &other) const;
  at::Tensor flatten(int64_t start_dim = 0, int64_t end_dim = -1) const;
#if LIBTORCH_MOCK_VERSION_MAJOR < 2
  at::Tensor flatten(int64_t start_dim, int64_t end_dim,
                     at::Dimname out_dim) const;
  at::Tensor flatten(at::Dimname start_dim, at::Dimname end_dim,
                     at::Dimname out_dim) const;
  at::Tensor flatten(at::DimnameList dims, at::Dimname out_dim) const;
#endif
  at::Tensor &fill_(const at::Scalar &value) const;
  at::Tensor &fill_(const at::Tensor &value) const;
  at::Tensor index(const c10::List<c10::optional<at::Tensor>> &indices) const;
  at::Tensor index_select(int64_t dim, const at::Tensor &index) const;
#if LIBTORCH_MOCK_VERSION_MAJOR < 2
  at::Tensor index_select(at::Dimname dim, const at::Tensor &index) const;
#endif
  bool is_nonzero() const;
  at::Tensor log() const;
  at::Tensor log_softmax(int64_t dim,
                         c10::optional<at::ScalarType> dtype = c10::nullopt) const;
#if LIBTORCH_MOCK_VERSION_MAJOR < 2
  at::Tensor log_softmax(at::Dimname dim,
                         c10::optional<at::ScalarType> dtype = c10::nullopt) const;
#endif
  at::Tensor matmul(const at::Tensor &other) const;
  ::std::tuple<at::Tensor, at::Tensor> max(int64_t dim,
                                           bool keepdim = false) const;
#if LIBTORCH_MOCK_VERSION_MAJOR < 2
  ::std::tuple<at::Tensor, at::Tensor> max(at::Dimname dim,
                                           bool keepdim = false) const;
#endif
  at::Tensor mean(c10::optional<at::ScalarType> dtype = c10::nullopt) const;
  at::Tensor mean(at::OptionalIntArrayRef dim, bool keepdim = false,
                  c10::optional<at::ScalarType> dtype = c10::nullopt) const;
#if LIBTORCH_MOCK_VERSION_MAJOR < 2
  at::Tensor mean(at::DimnameList dim, bool keepdim = false,
                  c10::optional<at::ScalarType> dtype = c10::nullopt) const;
#endif
  ::std::tuple<at::Tensor, at::Tensor> min(int64_t dim,
                                           bool keepdim = false) const;
  at::Tensor mm(const at::Tensor &mat2) const;
  at::Tensor mul(const at::Tensor &other) const;
  at::Tensor &mul_(const at::Tensor &other) const;
  at::Tensor mul(const at::Scalar &other) const;
  at::Tensor &mul_(const at::Scalar &other) const;
  at::Tensor narrow(int64_t dim, int64_t start, int64_t length) const;
  at::Tensor permute(at::IntArrayRef dims) const;
  bool is_pinned(c10::optional<at::Device> device = c10::nullopt) const;
  at::Tensor pin_memory(c10::optional<at::Device> device = c10::nullopt) const;
  at::Tensor neg() const;
  at::Tensor repeat(at::IntArrayRef repeats) const;
  at::Tensor repeat_interleave(const at::Tensor &repeats,
                               c10::optional<int64_t> dim = c10::nullopt,
                               c10::optional<int64_t> output_size =
                                   c10::nullopt) const;
  at::Tensor repeat_interleave(int64_t repeats,
                               c10::optional<int64_t> dim = c10::nullopt,
                               c10::optional<int64_t> output_size =
                                   c10::nullopt) const;
  at::Tensor bincount(const c10::optional<at::Tensor> &weights = {},
                      int64_t minlength = 0) const;
  at::Tensor histc(int64_t bins = 100, const at::Scalar &min = 0,
                   const at::Scalar &max = 0) const;
  at::Tensor reshape(at::IntArrayRef shape) const;
  at::Tensor reshape_as(const at::Tensor &other) const;
  at::Tensor relu() const;
  at::Tensor &relu_() const;
  at::Tensor select(int64_t dim, int64_t index) const;
  at::Tensor sigmoid() const;
  at::Tensor sin() const;
  at::Tensor cos() const;
  at::Tensor sign() const;
  at::Tensor floor() const;
  at::Tensor ceil() const;
  at::Tensor round() const;
  at::Tensor square() const;
  at::Tensor log1p() const;
  at::Tensor expm1() const;
  at::Tensor detach() const;
  at::Tensor &detach_() const;
#if LIBTORCH_MOCK_VERSION_MAJOR < 2
  int64_t size(at::Dimname dim) const;
#endif
  at::Tensor slice(int64_t dim = 0, c10::optional<int64_t> start = c10::nullopt,
                   c10::optional<int64_t> end = c10::nullopt,
                   int64_t step = 1) const;
  at::Tensor softmax(int64_t dim,
                     c10::optional<at::ScalarType> dtype = c10::nullopt) const;
#if LIBTORCH_MOCK_VERSION_MAJOR < 2
  at::Tensor softmax(at::Dimname dim,
                     c10::optional<at::ScalarType> dtype = c10::nullopt) const;
#endif
  ::std::vector<at::Tensor> split(int64_t split_size, int64_t dim = 0) const;
  at::Tensor squeeze() const;
  at::Tensor squeeze(int64_t dim) const;
#if LIBTORCH_MOCK_VERSION_MAJOR < 2
  at::Tensor squeeze(at::Dimname dim) const;
#endif
  at::Tensor &squeeze_() const;
  at::Tensor &squeeze_(int64_t dim) const;
  at::Tensor sum(c10::optional<at::ScalarType> dtype = c10::nullopt) const;
  at::Tensor sum(at::OptionalIntArrayRef dim, bool keepdim = false,
                 c10::optional<at::ScalarType> dtype = c10::nullopt) const;
#if LIBTORCH_MOCK_VERSION_MAJOR < 2
  at::Tensor sum(at::DimnameList dim, bool keepdim = false,
                 c10::optional<at::ScalarType> dtype = c10::nullopt) const;
#endif
  at::Tensor sqrt() const;
  at::Tensor std(bool unbiased = true) const;
  at::Tensor t() const;
  at::Tensor tanh() const;
  at::Tensor transpose(int64_t dim0, int64_t dim1) const;
  at::Tensor type_as(const at::Tensor &other) const;
  at::Tensor unsqueeze(int64_t dim) const;
  at::Tensor &unsqueeze_(int64_t dim) const;
  at::Tensor var(bool unbiased = true) const;
  at::Tensor view_as(const at::Tensor &other) const;
  at::Tensor where(const at::Tensor &condition, const at::Tensor &other) const;
  at::Tensor norm(const at::Scalar &p = 2) const;
  at::Tensor clone(c10::optional<at::MemoryFormat> memory_format =
                       c10::nullopt) const;
  at::Tensor &zero_() const;
  at::Tensor sub(const at::Tensor &other, const at::Scalar &alpha = 1) const;
  at::Tensor &sub_(const at::Tensor &other, const at::Scalar &alpha = 1) const;
  at::Tensor sub(const at::Scalar &other, const at::Scalar &alpha = 1) const;
  at::Tensor &sub_(const at::Scalar &other, const at::Scalar &alpha = 1) const;
  at::Tensor to(at::TensorOptions options = {}, bool non_blocking = false,
                bool copy = false,
                c10::optional<at::MemoryFormat> memory_format =
                    c10::nullopt) const;
  at::Tensor to(c10::optional<at::ScalarType> dtype,
                c10::optional<at::Layout> layout,
                c10::optional<at::Device> device,
                c10::optional<bool> pin_memory, bool non_blocking, bool copy,
                c10::optional<at::MemoryFormat> memory_format) const;
  at::Tensor to(at::Device device, at::ScalarType dtype,
                bool non_blocking = false, bool copy = false,
                c10::optional<at::MemoryFormat> memory_format =
                    c10::nullopt) const;
  at::Tensor to(at::ScalarType dtype, bool non_blocking = false,
                bool copy = false,
                c10::optional<at::MemoryFormat> memory_format =
                    c10::nullopt) const;
  at::Tensor to(const at::Tensor &other, bool non_blocking = false,
                bool copy = false,
                c10::optional<at::MemoryFormat> memory_format =
                    c10::nullopt) const;
  at::Scalar item() const;
  at::Tensor view(at::IntArrayRef size) const;
  at::Tensor view(at::ScalarType dtype) const;
  at::Tensor eq(const at::Scalar &other) const;
  at::Tensor eq(const at::Tensor &other) const;
  at::Tensor ne(const at::Scalar &other) const;
  at::Tensor ne(const at::Tensor &other) const;
  at::Tensor ge(const at::Scalar &other) const;
  at::Tensor ge(const at::Tensor &other) const;
  at::Tensor le(const at::Scalar &other) const;
  at::Tensor le(const at::Tensor &other) const;
  at::Tensor gt(const at::Scalar &other) const;
  at::Tensor gt(const at::Tensor &other) const;
  at::Tensor lt(const at::Scalar &other) const;
  at::Tensor lt(const at::Tensor &other) const;
  at::Tensor masked_select(const at::Tensor &mask) const;
  at::Tensor nonzero() const;
  at::Tensor &uniform_(double from = 0, double to = 1,
                       c10::optional<at::Generator> generator =
                           c10::nullopt) const;
  at::Tensor max() const;
  at::Tensor max(const at::Tensor &other) const;
  at::Tensor min() const;
  bool equal(const at::Tensor &other) const;
  at::Tensor pow(const at::Tensor &exponent) const;
  at::Tensor pow(const at::Scalar &exponent) const;
  at::Tensor &normal_(double mean = 0, double std = 1,
                      c10::optional<at::Generator> generator =
                          c10::nullopt) const;
  at::Tensor remainder(const at::Scalar &other) const;
  at::Tensor remainder(const at::Tensor &other) const;
  at::Tensor bitwise_and(const at::Tensor &other) const;
  at::Tensor bitwise_or(const at::Tensor &other) const;
  at::Tensor bitwise_xor(const at::Tensor &other) const;
  at::Tensor bitwise_and(const at::Scalar &other) const;
  at::Tensor bitwise_or(const at::Scalar &other) const;
  at::Tensor bitwise_xor(const at::Scalar &other) const;

  inline Tensor to(caffe2::TypeMeta type_meta, bool non_blocking = false,
                   bool copy = false) const {
    return this->to(/*scalar_type=*/typeMetaToScalarType(type_meta),
                    non_blocking, copy);
  }
  inline Tensor to(Device device, caffe2::TypeMeta type_meta,
                   bool non_blocking = false, bool copy = false) const {
    return this->to(device, /*scalar_type=*/typeMetaToScalarType(type_meta),
                    non_blocking, copy);
  }

  template <typename F, typename... Args>
  decltype(auto) m(F func, Args &&...params) const {
    return func(*this, std::forward<Args>(params)...);
  }

  const Tensor &requires_grad_(bool _requires_grad = true) const {
    TensorBase::requires_grad_(_requires_grad);
    return *this;
  }
};

} // namespace at

// ---------------------------------------------------------------------------
// ATen/TensorIndexing.h: TensorIndex (needs the complete Tensor)
// ---------------------------------------------------------------------------
namespace at {
namespace indexing {

struct TORCH_API TensorIndex final {
  TensorIndex(c10::nullopt_t) : type_(TensorIndexType::None) {}
  TensorIndex(at::indexing::EllipsisIndexType)
      : type_(TensorIndexType::Ellipsis) {}
  TensorIndex(const char *str) : TensorIndex(at::indexing::Ellipsis) {}
#if LIBTORCH_MOCK_VERSION_MAJOR >= 2
  TensorIndex(SymInt integer)
      : integer_(std::move(integer)), type_(TensorIndexType::SymInt) {}
  TensorIndex(int64_t integer) : TensorIndex(SymInt(integer)) {}
  TensorIndex(int integer) : TensorIndex(SymInt(integer)) {}
  template <class T, class = std::enable_if_t<std::is_same_v<bool, T>>>
  TensorIndex(T boolean) : boolean_(boolean), type_(TensorIndexType::Boolean) {}
#else
  TensorIndex(int64_t integer)
      : integer_(integer), type_(TensorIndexType::Integer) {}
  TensorIndex(int integer) : TensorIndex((int64_t)integer) {}
  template <class T, class = typename std::enable_if<
                         std::is_same<bool, T>::value>::type>
  TensorIndex(T boolean) : boolean_(boolean), type_(TensorIndexType::Boolean) {}
#endif
  TensorIndex(Slice slice)
      : slice_(std::move(slice)), type_(TensorIndexType::Slice) {}
  TensorIndex(Tensor tensor)
      : tensor_(std::move(tensor)), type_(TensorIndexType::Tensor) {}

  inline bool is_none() const { return type_ == TensorIndexType::None; }
  inline bool is_tensor() const { return type_ == TensorIndexType::Tensor; }
  inline const Tensor &tensor() const { return tensor_; }

private:
#if LIBTORCH_MOCK_VERSION_MAJOR >= 2
  SymInt integer_;
#else
  int64_t integer_ = 0;
#endif
  bool boolean_ = false;
  Slice slice_;
  Tensor tensor_;
  TensorIndexType type_;
};

} // namespace indexing
} // namespace at

// ---------------------------------------------------------------------------
// ATen/core/IListRef.h (the unboxed form: views over ArrayRef<T>)
// ---------------------------------------------------------------------------
namespace c10 {

#if LIBTORCH_MOCK_VERSION_MAJOR >= 2
// 2.15: the unboxed list type comes from detail::IListRefTagImpl.
enum class IListRefTag { Unboxed, Boxed, Materialized, None };

namespace detail {
template <IListRefTag TAG, typename T> class IListRefTagImpl {};
template <typename T> class IListRefTagImpl<IListRefTag::Unboxed, T> {
public:
  using list_type = c10::ArrayRef<T>;
};
} // namespace detail

template <typename T> class IListRef {
public:
  using unboxed_type =
      typename detail::IListRefTagImpl<IListRefTag::Unboxed, T>::list_type;
#else
template <typename T> class IListRef {
public:
  using unboxed_type = c10::ArrayRef<T>;
#endif
  using iterator = typename unboxed_type::iterator;
  using const_iterator = typename unboxed_type::const_iterator;
  using value_type = T;

  IListRef() {}

  IListRef(const unboxed_type &unboxed) : unboxed_(unboxed) {}

  IListRef(const std::initializer_list<T> &list)
      : unboxed_(at::ArrayRef<T>(list)) {}

  template <typename... UnboxedConstructorArgs,
            typename = std::enable_if_t<std::is_constructible<
                unboxed_type, UnboxedConstructorArgs...>::value>>
  IListRef(UnboxedConstructorArgs &&...args)
      : unboxed_(std::forward<UnboxedConstructorArgs>(args)...) {}

  size_t size() const { return unboxed_.size(); }
  bool empty() const { return size() == 0; }
  iterator begin() const { return unboxed_.begin(); }
  iterator end() const { return unboxed_.end(); }
  const T &front() const { return *begin(); }
  std::vector<std::reference_wrapper<const T>> materialize() const;

private:
  unboxed_type unboxed_;
};

} // namespace c10

// ---------------------------------------------------------------------------
// ATen/ops/*.h: free functions (at::zeros, at::randn, at::cat, ...)
// ---------------------------------------------------------------------------
namespace at {

// Factories (ATen/ops/{zeros,ones,empty,full,rand,randn,randint,arange,eye,
// linspace,*_like}.h).
TORCH_API at::Tensor zeros(at::IntArrayRef size, at::TensorOptions options = {});
TORCH_API at::Tensor zeros(at::IntArrayRef size,
                        c10::optional<at::ScalarType> dtype,
                        c10::optional<at::Layout> layout,
                        c10::optional<at::Device> device,
                        c10::optional<bool> pin_memory);
#if LIBTORCH_MOCK_VERSION_MAJOR < 2
TORCH_API at::Tensor zeros(at::IntArrayRef size,
                        c10::optional<at::DimnameList> names,
                        at::TensorOptions options = {});
#endif
TORCH_API at::Tensor ones(at::IntArrayRef size, at::TensorOptions options = {});
TORCH_API at::Tensor ones(at::IntArrayRef size,
                       c10::optional<at::ScalarType> dtype,
                       c10::optional<at::Layout> layout,
                       c10::optional<at::Device> device,
                       c10::optional<bool> pin_memory);
#if LIBTORCH_MOCK_VERSION_MAJOR < 2
TORCH_API at::Tensor ones(at::IntArrayRef size,
                       c10::optional<at::DimnameList> names,
                       at::TensorOptions options = {});
#endif
TORCH_API at::Tensor empty(at::IntArrayRef size, at::TensorOptions options = {},
                        c10::optional<at::MemoryFormat> memory_format =
                            c10::nullopt);
TORCH_API at::Tensor empty(at::IntArrayRef size,
                        c10::optional<at::ScalarType> dtype,
                        c10::optional<at::Layout> layout,
                        c10::optional<at::Device> device,
                        c10::optional<bool> pin_memory,
                        c10::optional<at::MemoryFormat> memory_format);
TORCH_API at::Tensor full(at::IntArrayRef size, const at::Scalar &fill_value,
                       at::TensorOptions options = {});
TORCH_API at::Tensor full(at::IntArrayRef size, const at::Scalar &fill_value,
                       c10::optional<at::ScalarType> dtype,
                       c10::optional<at::Layout> layout,
                       c10::optional<at::Device> device,
                       c10::optional<bool> pin_memory);
TORCH_API at::Tensor rand(at::IntArrayRef size, at::TensorOptions options = {});
TORCH_API at::Tensor rand(at::IntArrayRef size,
                       c10::optional<at::ScalarType> dtype,
                       c10::optional<at::Layout> layout,
                       c10::optional<at::Device> device,
                       c10::optional<bool> pin_memory);
TORCH_API at::Tensor rand(at::IntArrayRef size,
                       c10::optional<at::Generator> generator,
                       at::TensorOptions options = {});
TORCH_API at::Tensor randn(at::IntArrayRef size, at::TensorOptions options = {});
TORCH_API at::Tensor randn(at::IntArrayRef size,
                        c10::optional<at::ScalarType> dtype,
                        c10::optional<at::Layout> layout,
                        c10::optional<at::Device> device,
                        c10::optional<bool> pin_memory);
TORCH_API at::Tensor randn(at::IntArrayRef size,
                        c10::optional<at::Generator> generator,
                        at::TensorOptions options = {});
TORCH_API at::Tensor randint(int64_t high, at::IntArrayRef size,
                          at::TensorOptions options = at::kLong);
TORCH_API at::Tensor randint(int64_t low, int64_t high, at::IntArrayRef size,
                          at::TensorOptions options = at::kLong);
TORCH_API at::Tensor arange(const at::Scalar &end, at::TensorOptions options = {});
TORCH_API at::Tensor arange(const at::Scalar &start, const at::Scalar &end,
                         at::TensorOptions options = {});
TORCH_API at::Tensor arange(const at::Scalar &start, const at::Scalar &end,
                         const at::Scalar &step,
                         at::TensorOptions options = {});
TORCH_API at::Tensor eye(int64_t n, at::TensorOptions options = {});
TORCH_API at::Tensor eye(int64_t n, int64_t m, at::TensorOptions options = {});
TORCH_API at::Tensor linspace(const at::Scalar &start, const at::Scalar &end,
                           int64_t steps, at::TensorOptions options = {});
TORCH_API at::Tensor zeros_like(const at::Tensor &self,
                             at::TensorOptions options = {},
                             c10::optional<at::MemoryFormat> memory_format =
                                 c10::nullopt);
TORCH_API at::Tensor ones_like(const at::Tensor &self,
                            at::TensorOptions options = {},
                            c10::optional<at::MemoryFormat> memory_format =
                                c10::nullopt);
TORCH_API at::Tensor empty_like(const at::Tensor &self,
                             at::TensorOptions options = {},
                             c10::optional<at::MemoryFormat> memory_format =
                                 c10::nullopt);
TORCH_API at::Tensor randn_like(const at::Tensor &self,
                             at::TensorOptions options = {},
                             c10::optional<at::MemoryFormat> memory_format =
                                 c10::nullopt);
TORCH_API at::Tensor rand_like(const at::Tensor &self,
                            at::TensorOptions options = {},
                            c10::optional<at::MemoryFormat> memory_format =
                                c10::nullopt);
TORCH_API at::Tensor full_like(const at::Tensor &self,
                            const at::Scalar &fill_value,
                            at::TensorOptions options = {},
                            c10::optional<at::MemoryFormat> memory_format =
                                c10::nullopt);

// ATen/ops/from_blob.h
TORCH_API Tensor from_blob(void *data, IntArrayRef sizes, IntArrayRef strides,
                        const std::function<void(void *)> &deleter,
                        const TensorOptions &options = {},
                        const c10::optional<Device> target_device =
                            c10::nullopt);
TORCH_API Tensor from_blob(void *data, IntArrayRef sizes, IntArrayRef strides,
                        int64_t storage_offset,
                        const std::function<void(void *)> &deleter,
                        const TensorOptions &options = {},
                        const c10::optional<Device> target_device =
                            c10::nullopt);
#if LIBTORCH_MOCK_VERSION_MAJOR >= 2
TORCH_API Tensor from_blob(void *data, IntArrayRef sizes,
                           std::function<void(void *)> deleter,
                           const TensorOptions &options = {},
                           const std::optional<Device> target_device =
                               std::nullopt);
#else
TORCH_API Tensor from_blob(void *data, IntArrayRef sizes,
                        const std::function<void(void *)> &deleter,
                        const TensorOptions &options = {});
#endif
TORCH_API Tensor from_blob(void *data, IntArrayRef sizes, IntArrayRef strides,
                        const TensorOptions &options = {});
TORCH_API Tensor from_blob(void *data, IntArrayRef sizes,
                        const TensorOptions &options = {});

// ATen/ops/tensor.h (the typed overloads used by torch::tensor)
#define AT_MOCK_TENSOR(T, S)                                                   \
  TORCH_API Tensor tensor(ArrayRef<T> values, const TensorOptions &options);   \
  inline Tensor tensor(std::initializer_list<T> values,                        \
                       const TensorOptions &options) {                         \
    return at::tensor(ArrayRef<T>(values), options);                           \
  }                                                                            \
  inline Tensor tensor(T value, const TensorOptions &options) {                \
    return at::tensor(ArrayRef<T>(value), options);                            \
  }                                                                            \
  inline Tensor tensor(ArrayRef<T> values) {                                   \
    return at::tensor(std::move(values), at::dtype(k##S));                     \
  }                                                                            \
  inline Tensor tensor(std::initializer_list<T> values) {                      \
    return at::tensor(ArrayRef<T>(values));                                    \
  }                                                                            \
  inline Tensor tensor(T value) { return at::tensor(ArrayRef<T>(value)); }
AT_MOCK_TENSOR(uint8_t, Byte)
AT_MOCK_TENSOR(int8_t, Char)
AT_MOCK_TENSOR(int16_t, Short)
AT_MOCK_TENSOR(int, Int)
AT_MOCK_TENSOR(int64_t, Long)
AT_MOCK_TENSOR(float, Float)
AT_MOCK_TENSOR(double, Double)
AT_MOCK_TENSOR(bool, Bool)
AT_MOCK_TENSOR(c10::Half, Half)
AT_MOCK_TENSOR(c10::BFloat16, BFloat16)
AT_MOCK_TENSOR(c10::complex<float>, ComplexFloat)
AT_MOCK_TENSOR(c10::complex<double>, ComplexDouble)
#undef AT_MOCK_TENSOR

// Activations, losses, reductions, joins.
TORCH_API at::Tensor relu(const at::Tensor &self);
TORCH_API at::Tensor &relu_(at::Tensor &self);
TORCH_API at::Tensor leaky_relu(const at::Tensor &self,
                             const at::Scalar &negative_slope = 0.01);
TORCH_API at::Tensor sigmoid(const at::Tensor &self);
TORCH_API at::Tensor &sigmoid_(at::Tensor &self);
TORCH_API at::Tensor tanh(const at::Tensor &self);
TORCH_API at::Tensor &tanh_(at::Tensor &self);
TORCH_API at::Tensor softmax(const at::Tensor &self, int64_t dim,
                          c10::optional<at::ScalarType> dtype = c10::nullopt);
TORCH_API at::Tensor log_softmax(const at::Tensor &self, int64_t dim,
                              c10::optional<at::ScalarType> dtype =
                                  c10::nullopt);
TORCH_API at::Tensor dropout(const at::Tensor &input, double p, bool train);
TORCH_API at::Tensor max_pool2d(const at::Tensor &self,
                             at::IntArrayRef kernel_size,
                             at::IntArrayRef stride = {},
                             at::IntArrayRef padding = 0,
                             at::IntArrayRef dilation = 1,
                             bool ceil_mode = false);
TORCH_API at::Tensor nll_loss(const at::Tensor &self, const at::Tensor &target,
                           const c10::optional<at::Tensor> &weight = {},
                           int64_t reduction = at::Reduction::Mean,
                           int64_t ignore_index = -100);
TORCH_API at::Tensor cross_entropy_loss(
    const at::Tensor &self, const at::Tensor &target,
    const c10::optional<at::Tensor> &weight = {},
    int64_t reduction = at::Reduction::Mean, int64_t ignore_index = -100,
    double label_smoothing = 0.0);
TORCH_API at::Tensor mse_loss(const at::Tensor &self, const at::Tensor &target,
                           int64_t reduction = at::Reduction::Mean);
TORCH_API at::Tensor binary_cross_entropy(
    const at::Tensor &self, const at::Tensor &target,
    const c10::optional<at::Tensor> &weight = {},
    int64_t reduction = at::Reduction::Mean);
TORCH_API at::Tensor cat(const at::ITensorListRef &tensors, int64_t dim = 0);
TORCH_API at::Tensor stack(at::TensorList tensors, int64_t dim = 0);
TORCH_API at::Tensor matmul(const at::Tensor &self, const at::Tensor &other);
TORCH_API at::Tensor mm(const at::Tensor &self, const at::Tensor &mat2);
TORCH_API at::Tensor bmm(const at::Tensor &self, const at::Tensor &mat2);
TORCH_API at::Tensor transpose(const at::Tensor &self, int64_t dim0,
                               int64_t dim1);
TORCH_API at::Tensor permute(const at::Tensor &self, at::IntArrayRef dims);
TORCH_API at::Tensor sin(const at::Tensor &self);
TORCH_API at::Tensor cos(const at::Tensor &self);
TORCH_API at::Tensor exp(const at::Tensor &self);
TORCH_API at::Tensor log(const at::Tensor &self);
TORCH_API at::Tensor sqrt(const at::Tensor &self);
TORCH_API at::Tensor abs(const at::Tensor &self);
TORCH_API at::Tensor neg(const at::Tensor &self);
TORCH_API at::Tensor sign(const at::Tensor &self);
TORCH_API at::Tensor floor(const at::Tensor &self);
TORCH_API at::Tensor ceil(const at::Tensor &self);
TORCH_API at::Tensor round(const at::Tensor &self);
TORCH_API at::Tensor square(const at::Tensor &self);
TORCH_API at::Tensor log1p(const at::Tensor &self);
TORCH_API at::Tensor expm1(const at::Tensor &self);
TORCH_API at::Tensor silu(const at::Tensor &self);
TORCH_API at::Tensor softplus(const at::Tensor &self,
                              const at::Scalar &beta = 1,
                              const at::Scalar &threshold = 20);
TORCH_API at::Tensor logsumexp(const at::Tensor &self, at::IntArrayRef dim,
                               bool keepdim = false);
TORCH_API at::Tensor clamp(const at::Tensor &self,
                           const c10::optional<at::Scalar> &min,
                           const c10::optional<at::Scalar> &max =
                               c10::nullopt);
TORCH_API at::Tensor clamp(const at::Tensor &self,
                           const c10::optional<at::Tensor> &min = {},
                           const c10::optional<at::Tensor> &max = {});
TORCH_API at::Tensor pow(const at::Tensor &self, const at::Tensor &exponent);
TORCH_API at::Tensor pow(const at::Scalar &self, const at::Tensor &exponent);
TORCH_API at::Tensor pow(const at::Tensor &self, const at::Scalar &exponent);
TORCH_API at::Tensor add(const at::Tensor &self, const at::Tensor &other,
                         const at::Scalar &alpha = 1);
TORCH_API at::Tensor add(const at::Tensor &self, const at::Scalar &other,
                         const at::Scalar &alpha = 1);
TORCH_API at::Tensor sub(const at::Tensor &self, const at::Tensor &other,
                         const at::Scalar &alpha = 1);
TORCH_API at::Tensor sub(const at::Tensor &self, const at::Scalar &other,
                         const at::Scalar &alpha = 1);
TORCH_API at::Tensor mul(const at::Tensor &self, const at::Tensor &other);
TORCH_API at::Tensor mul(const at::Tensor &self, const at::Scalar &other);
TORCH_API at::Tensor div(const at::Tensor &self, const at::Tensor &other);
TORCH_API at::Tensor div(const at::Tensor &self, const at::Scalar &other);
TORCH_API at::Tensor where(const at::Tensor &condition, const at::Tensor &self,
                        const at::Tensor &other);
TORCH_API at::Tensor where(const at::Tensor &condition, const at::Scalar &self,
                           const at::Tensor &other);
TORCH_API at::Tensor where(const at::Tensor &condition, const at::Tensor &self,
                           const at::Scalar &other);
TORCH_API at::Tensor where(const at::Tensor &condition, const at::Scalar &self,
                           const at::Scalar &other);
TORCH_API ::std::vector<at::Tensor> where(const at::Tensor &condition);
TORCH_API at::Tensor repeat_interleave(const at::Tensor &repeats,
                                       c10::optional<int64_t> output_size =
                                           c10::nullopt);
TORCH_API at::Tensor repeat_interleave(const at::Tensor &self,
                                       const at::Tensor &repeats,
                                       c10::optional<int64_t> dim = c10::nullopt,
                                       c10::optional<int64_t> output_size =
                                           c10::nullopt);
TORCH_API at::Tensor repeat_interleave(const at::Tensor &self, int64_t repeats,
                                       c10::optional<int64_t> dim = c10::nullopt,
                                       c10::optional<int64_t> output_size =
                                           c10::nullopt);
TORCH_API at::Tensor bincount(const at::Tensor &self,
                              const c10::optional<at::Tensor> &weights = {},
                              int64_t minlength = 0);
TORCH_API at::Tensor histc(const at::Tensor &self, int64_t bins = 100,
                           const at::Scalar &min = 0,
                           const at::Scalar &max = 0);
TORCH_API at::Tensor mean(const at::Tensor &self,
                       c10::optional<at::ScalarType> dtype = c10::nullopt);
TORCH_API at::Tensor mean(const at::Tensor &self, at::OptionalIntArrayRef dim,
                          bool keepdim = false,
                          c10::optional<at::ScalarType> dtype = c10::nullopt);
TORCH_API at::Tensor sum(const at::Tensor &self,
                      c10::optional<at::ScalarType> dtype = c10::nullopt);
TORCH_API at::Tensor sum(const at::Tensor &self, at::OptionalIntArrayRef dim,
                         bool keepdim = false,
                         c10::optional<at::ScalarType> dtype = c10::nullopt);
TORCH_API at::Tensor max(const at::Tensor &self);
TORCH_API ::std::tuple<at::Tensor, at::Tensor>
max(const at::Tensor &self, int64_t dim, bool keepdim = false);
TORCH_API at::Tensor max(const at::Tensor &self, const at::Tensor &other);
TORCH_API at::Tensor min(const at::Tensor &self);
TORCH_API ::std::tuple<at::Tensor, at::Tensor>
min(const at::Tensor &self, int64_t dim, bool keepdim = false);
TORCH_API at::Tensor min(const at::Tensor &self, const at::Tensor &other);
TORCH_API at::Tensor argmax(const at::Tensor &self,
                         c10::optional<int64_t> dim = c10::nullopt,
                         bool keepdim = false);
TORCH_API at::Tensor nonzero(const at::Tensor &self);
TORCH_API at::Tensor masked_select(const at::Tensor &self,
                                const at::Tensor &mask);
TORCH_API bool is_nonzero(const at::Tensor &self);
TORCH_API bool equal(const at::Tensor &self, const at::Tensor &other);
TORCH_API bool allclose(const at::Tensor &self, const at::Tensor &other,
                     double rtol = 1e-05, double atol = 1e-08,
                     bool equal_nan = false);
TORCH_API ::std::tuple<at::Tensor, at::Tensor>
_unique(const at::Tensor &self, bool sorted = true,
        bool return_inverse = false);
TORCH_API ::std::tuple<at::Tensor, at::Tensor, at::Tensor>
_unique2(const at::Tensor &self, bool sorted = true,
         bool return_inverse = false, bool return_counts = false);
TORCH_API ::std::tuple<at::Tensor, at::Tensor, at::Tensor>
unique_dim(const at::Tensor &self, int64_t dim, bool sorted = true,
           bool return_inverse = false, bool return_counts = false);
TORCH_API ::std::tuple<at::Tensor, at::Tensor, at::Tensor>
unique_consecutive(const at::Tensor &self, bool return_inverse = false,
                   bool return_counts = false,
                   c10::optional<int64_t> dim = c10::nullopt);

} // namespace at

// ---------------------------------------------------------------------------
// ATen/TensorOperators.h
// ---------------------------------------------------------------------------
namespace at {

#define AT_FORALL_BINARY_OPS(_)                                                \
  _(+, x.add(y), y.add(x))                                                     \
  _(*, x.mul(y), y.mul(x))                                                     \
  _(-, x.sub(y), ::at::empty_like(y, at::MemoryFormat::Preserve).sub_(y))      \
  _(/, x.div(y), ::at::empty_like(y, at::MemoryFormat::Preserve).div_(y))      \
  _(%, x.remainder(y), ::at::empty_like(y, at::MemoryFormat::Preserve))        \
  _(&, x.bitwise_and(y), y.bitwise_and(x))                                     \
  _(|, x.bitwise_or(y), y.bitwise_or(x))                                       \
  _(^, x.bitwise_xor(y), y.bitwise_xor(x))                                     \
  _(<, x.lt(y), y.gt(x))                                                       \
  _(<=, x.le(y), y.ge(x))                                                      \
  _(>, x.gt(y), y.lt(x))                                                       \
  _(>=, x.ge(y), y.le(x))                                                      \
  _(==, x.eq(y), y.eq(x))                                                      \
  _(!=, x.ne(y), y.ne(x))

#define DEFINE_OPERATOR(op, body, reverse_scalar_body)                         \
  static inline Tensor operator op(const Tensor &x, const Tensor &y) {         \
    return body;                                                               \
  }                                                                            \
  static inline Tensor operator op(const Tensor &x, const Scalar &y) {         \
    return body;                                                               \
  }                                                                            \
  static inline Tensor operator op(const Scalar &x, const Tensor &y) {         \
    return reverse_scalar_body;                                                \
  }

AT_FORALL_BINARY_OPS(DEFINE_OPERATOR)
#undef DEFINE_OPERATOR
#undef AT_FORALL_BINARY_OPS

} // namespace at

// ---------------------------------------------------------------------------
// ATen/core/Formatting.h
// ---------------------------------------------------------------------------
#if LIBTORCH_MOCK_VERSION_MAJOR >= 2
namespace c10 {
TORCH_API std::ostream &operator<<(std::ostream &out, const Scalar &s);
TORCH_API std::string toString(const Scalar &s);
} // namespace c10
#else
namespace c10 {
TORCH_API std::ostream &operator<<(std::ostream &out, Scalar s);
TORCH_API std::string toString(Scalar s);
} // namespace c10
#endif
namespace at {

TORCH_API std::ostream &print(std::ostream &stream, const Tensor &tensor,
                              int64_t linesize);
static inline std::ostream &operator<<(std::ostream &out, const Tensor &t) {
  return print(out, t, 80);
}
TORCH_API void print(const Tensor &t, int64_t linesize = 80);

} // namespace at

// ---------------------------------------------------------------------------
// ATen/Context.h
// ---------------------------------------------------------------------------
#if LIBTORCH_MOCK_VERSION_MAJOR >= 2

// LibTorch 2.15: setFloat32MatmulPrecision takes only a string, TF32 is also
// set per backend and op (setFloat32Precision), the reduced-precision
// reduction knobs take allow_splitk, and the free functions are no longer
// `static`.
namespace at {

enum class TORCH_API Float32MatmulPrecision { HIGHEST, HIGH, MEDIUM };

enum class CuBLASReductionOption : uint8_t {
  AllowReducedPrecisionWithSplitK = 0,
  DisallowReducedPrecisionAllowSplitK = 1,
  DisallowReducedPrecisionDisallowSplitK = 2,
};
enum class TORCH_API Float32Backend { GENERIC, CUDA, MKLDNN };
enum class TORCH_API Float32Op { ALL, CONV, RNN, MATMUL };
enum class TORCH_API Float32Precision {
  NONE,
  IEEE,
  TF32,
  BF16,
  DEFAULT,
  BF16X9
};

TORCH_API Float32Backend str2backend(const std::string &name);
TORCH_API Float32Op str2op(const std::string &name);
TORCH_API Float32Precision str2precision(const std::string &name);
TORCH_API std::string precision2str(Float32Precision prec);

class TORCH_API Context {
public:
  Context();

  const Generator &defaultGenerator(Device device);
  Device getDeviceFromPtr(void *data, c10::DeviceType device_type);
  bool isPinnedPtr(const void *data,
                   std::optional<c10::DeviceType> device_type = std::nullopt);
  static bool hasOpenMP();
  static bool hasMKL();
  static bool hasLAPACK();
  static bool hasMKLDNN();
  static bool hasMAGMA();
  static bool hasCUDA();
  static bool hasCUDART();
  static long versionCUDART();
  static bool hasCuDNN();
  static long versionCuDNN();
  static bool hasCuSOLVER();
  static bool hasHIP();
  static bool hasMPS();
  static bool hasIPU();
  static bool hasXLA();
  static bool hasXPU();
  static bool hasLazy();
  static bool setFlushDenormal(bool on);

  bool userEnabledCuDNN() const;
  void setUserEnabledCuDNN(bool e);
  bool userEnabledMkldnn() const;
  void setUserEnabledMkldnn(bool e);
  bool benchmarkCuDNN() const;
  void setBenchmarkCuDNN(bool /*b*/);
  int benchmarkLimitCuDNN() const;
  void setBenchmarkLimitCuDNN(int /*b*/);
  bool deterministicCuDNN() const;
  void setDeterministicCuDNN(bool /*b*/);
  bool deterministicAlgorithms() const;
  bool deterministicAlgorithmsWarnOnly() const;
  void setDeterministicAlgorithms(bool /*b*/, bool /*warn_only*/);
  void setFloat32MatmulPrecision(const std::string &s);
  void setFloat32Precision(Float32Backend backend, Float32Op op,
                           Float32Precision p);
  bool allowTF32CuDNN(std::optional<Float32Op> op = std::nullopt) const;
  void setAllowTF32CuDNN(bool /*b*/);
  bool allowTF32OneDNN() const;
  void setAllowTF32OneDNN(bool /*b*/);
  bool allowTF32CuBLAS() const;
  void setAllowTF32CuBLAS(bool /*b*/);
  Float32MatmulPrecision float32MatmulPrecision() const;
  Float32Precision float32Precision(Float32Backend backend, Float32Op op) const;
  CuBLASReductionOption allowFP16ReductionCuBLAS() const;
  void setAllowFP16ReductionCuBLAS(bool allow_reduced_precision,
                                   bool allow_splitk = true);
  CuBLASReductionOption allowBF16ReductionCuBLAS() const;
  void setAllowBF16ReductionCuBLAS(bool allow_reduced_precision,
                                   bool allow_splitk = true);
};

TORCH_API Context &globalContext();

inline void init() { globalContext(); }

inline bool hasCUDA() { return globalContext().hasCUDA(); }

inline void manual_seed(uint64_t seed) { (void)seed; }

} // namespace at

#else // LibTorch 1.13

namespace at {

enum class TORCH_API Float32MatmulPrecision { HIGHEST, HIGH, MEDIUM };

class TORCH_API Context {
public:
  Context();

  const Generator &defaultGenerator(Device device);
  Device getDeviceFromPtr(void *data, DeviceType device_type);
  static bool isPinnedPtr(void *data);
  static bool hasOpenMP();
  static bool hasMKL();
  static bool hasLAPACK();
  static bool hasMKLDNN();
  static bool hasMAGMA();
  static bool hasCUDA();
  static bool hasCUDART();
  static long versionCUDART();
  static bool hasCuDNN();
  static long versionCuDNN();
  static bool hasCuSOLVER();
  static bool hasHIP();
  static bool hasMPS();
  static bool hasIPU();
  static bool hasXLA();
  static bool hasLazy();
  static bool hasORT();

  bool userEnabledCuDNN() const;
  void setUserEnabledCuDNN(bool e);
  bool userEnabledMkldnn() const;
  void setUserEnabledMkldnn(bool e);
  bool benchmarkCuDNN() const;
  void setBenchmarkCuDNN(bool);
  int benchmarkLimitCuDNN() const;
  void setBenchmarkLimitCuDNN(int);
  bool deterministicCuDNN() const;
  void setDeterministicCuDNN(bool);
  void setDeterministicAlgorithms(bool, bool);
  bool deterministicAlgorithms() const;
  bool deterministicAlgorithmsWarnOnly() const;
  bool allowTF32CuDNN() const;
  void setAllowTF32CuDNN(bool);
  bool allowTF32CuBLAS() const;
  void setAllowTF32CuBLAS(bool);
  Float32MatmulPrecision float32MatmulPrecision() const;
  void setFloat32MatmulPrecision(Float32MatmulPrecision p);
  void setFloat32MatmulPrecision(const std::string &s);
  bool allowFP16ReductionCuBLAS() const;
  void setAllowFP16ReductionCuBLAS(bool);
  bool allowBF16ReductionCuBLAS() const;
  void setAllowBF16ReductionCuBLAS(bool);
  void setFlushDenormal(bool);
};

TORCH_API Context &globalContext();

static inline void init() { globalContext(); }

static inline bool hasCUDA() { return globalContext().hasCUDA(); }

static inline void manual_seed(uint64_t seed) { (void)seed; }

} // namespace at

#endif // LIBTORCH_MOCK_VERSION_MAJOR >= 2
