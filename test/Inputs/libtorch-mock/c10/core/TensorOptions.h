// Mock of LibTorch's c10 core types, for fast check tests.
//
// Mirrors (declarations and qualified names as in LibTorch 1.13):
//   c10/core/DeviceType.h   c10::DeviceType, c10::kCPU/kCUDA/...,
//                           `namespace torch { using c10::DeviceType; }`
//   c10/core/Device.h       c10::Device, c10::DeviceIndex
//   c10/core/ScalarType.h   c10::ScalarType, c10::kFloat/kDouble/...
//   c10/core/Layout.h, c10/core/MemoryFormat.h
//   c10/util/typeid.h       caffe2::TypeMeta (what Tensor::dtype() returns)
//   c10/core/ScalarTypeToTypeMeta.h
//   c10/core/Scalar.h       c10::Scalar
//   c10/core/TensorOptions.h c10::TensorOptions and c10::dtype/device/...
//   c10/core/GradMode.h     c10::GradMode, AutoGradMode, NoGradGuard
//   c10/core/InferenceMode.h c10::InferenceMode
#pragma once

#include <c10/util/Optional.h>

// ---------------------------------------------------------------------------
// c10/core/DeviceType.h
// ---------------------------------------------------------------------------
namespace c10 {

#if LIBTORCH_MOCK_VERSION_MAJOR >= 2
// LibTorch 2.15 (torch/headeronly/core/DeviceType.h): ORT is now MAIA, and
// MTIA comes before PrivateUse1.
enum class DeviceType : int8_t {
  CPU = 0,
  CUDA = 1,
  MKLDNN = 2,
  OPENGL = 3,
  OPENCL = 4,
  IDEEP = 5,
  HIP = 6,
  FPGA = 7,
  MAIA = 8,
  XLA = 9,
  Vulkan = 10,
  Metal = 11,
  XPU = 12,
  MPS = 13,
  Meta = 14,
  HPU = 15,
  VE = 16,
  Lazy = 17,
  IPU = 18,
  MTIA = 19,
  PrivateUse1 = 20,
  COMPILE_TIME_MAX_DEVICE_TYPES = 21,
};

constexpr DeviceType kCPU = DeviceType::CPU;
constexpr DeviceType kCUDA = DeviceType::CUDA;
constexpr DeviceType kHIP = DeviceType::HIP;
constexpr DeviceType kFPGA = DeviceType::FPGA;
constexpr DeviceType kMAIA = DeviceType::MAIA;
constexpr DeviceType kXLA = DeviceType::XLA;
constexpr DeviceType kMPS = DeviceType::MPS;
constexpr DeviceType kMeta = DeviceType::Meta;
constexpr DeviceType kVulkan = DeviceType::Vulkan;
constexpr DeviceType kMetal = DeviceType::Metal;
constexpr DeviceType kXPU = DeviceType::XPU;
constexpr DeviceType kHPU = DeviceType::HPU;
constexpr DeviceType kVE = DeviceType::VE;
constexpr DeviceType kLazy = DeviceType::Lazy;
constexpr DeviceType kIPU = DeviceType::IPU;
constexpr DeviceType kMTIA = DeviceType::MTIA;
constexpr DeviceType kPrivateUse1 = DeviceType::PrivateUse1;
#else
enum class DeviceType : int8_t {
  CPU = 0,
  CUDA = 1,
  MKLDNN = 2,
  OPENGL = 3,
  OPENCL = 4,
  IDEEP = 5,
  HIP = 6,
  FPGA = 7,
  ORT = 8,
  XLA = 9,
  Vulkan = 10,
  Metal = 11,
  XPU = 12,
  MPS = 13,
  Meta = 14,
  HPU = 15,
  VE = 16,
  Lazy = 17,
  IPU = 18,
  PrivateUse1 = 19,
  COMPILE_TIME_MAX_DEVICE_TYPES = 20,
};

constexpr DeviceType kCPU = DeviceType::CPU;
constexpr DeviceType kCUDA = DeviceType::CUDA;
constexpr DeviceType kHIP = DeviceType::HIP;
constexpr DeviceType kFPGA = DeviceType::FPGA;
constexpr DeviceType kORT = DeviceType::ORT;
constexpr DeviceType kXLA = DeviceType::XLA;
constexpr DeviceType kMPS = DeviceType::MPS;
constexpr DeviceType kMeta = DeviceType::Meta;
constexpr DeviceType kVulkan = DeviceType::Vulkan;
constexpr DeviceType kMetal = DeviceType::Metal;
constexpr DeviceType kXPU = DeviceType::XPU;
constexpr DeviceType kHPU = DeviceType::HPU;
constexpr DeviceType kVE = DeviceType::VE;
constexpr DeviceType kLazy = DeviceType::Lazy;
constexpr DeviceType kIPU = DeviceType::IPU;
constexpr DeviceType kPrivateUse1 = DeviceType::PrivateUse1;
#endif

constexpr int COMPILE_TIME_MAX_DEVICE_TYPES =
    static_cast<int>(DeviceType::COMPILE_TIME_MAX_DEVICE_TYPES);

C10_API std::string DeviceTypeName(DeviceType d, bool lower_case = false);
C10_API bool isValidDeviceType(DeviceType d);
C10_API std::ostream &operator<<(std::ostream &stream, DeviceType type);

} // namespace c10

namespace torch {
using c10::DeviceType;
}

// ---------------------------------------------------------------------------
// c10/core/Device.h
// ---------------------------------------------------------------------------
namespace c10 {

using DeviceIndex = int8_t;

struct C10_API Device final {
  using Type = DeviceType;

  /* implicit */ Device(DeviceType type, DeviceIndex index = -1)
      : type_(type), index_(index) {}

  /* implicit */ Device(const std::string &device_string);

  bool operator==(const Device &other) const noexcept {
    return this->type_ == other.type_ && this->index_ == other.index_;
  }
  bool operator!=(const Device &other) const noexcept {
    return !(*this == other);
  }
  void set_index(DeviceIndex index) { index_ = index; }
  DeviceType type() const noexcept { return type_; }
  DeviceIndex index() const noexcept { return index_; }
  bool has_index() const noexcept { return index_ != -1; }
  bool is_cuda() const noexcept { return type_ == DeviceType::CUDA; }
  bool is_mps() const noexcept { return type_ == DeviceType::MPS; }
  bool is_hip() const noexcept { return type_ == DeviceType::HIP; }
  bool is_xpu() const noexcept { return type_ == DeviceType::XPU; }
  bool is_meta() const noexcept { return type_ == DeviceType::Meta; }
  bool is_cpu() const noexcept { return type_ == DeviceType::CPU; }
  std::string str() const;

private:
  DeviceType type_;
  DeviceIndex index_ = -1;
};

C10_API std::ostream &operator<<(std::ostream &stream, const Device &device);

} // namespace c10

// ---------------------------------------------------------------------------
// c10/core/ScalarType.h
// ---------------------------------------------------------------------------
namespace c10 {

enum class ScalarType : int8_t {
  Byte,
  Char,
  Short,
  Int,
  Long,
  Half,
  Float,
  Double,
  ComplexHalf,
  ComplexFloat,
  ComplexDouble,
  Bool,
  QInt8,
  QUInt8,
  QInt32,
  BFloat16,
  QUInt4x2,
  QUInt2x4,
  Undefined,
  NumOptions
};

constexpr ScalarType kByte = ScalarType::Byte;
constexpr ScalarType kChar = ScalarType::Char;
constexpr ScalarType kShort = ScalarType::Short;
constexpr ScalarType kInt = ScalarType::Int;
constexpr ScalarType kLong = ScalarType::Long;
constexpr ScalarType kHalf = ScalarType::Half;
constexpr ScalarType kFloat = ScalarType::Float;
constexpr ScalarType kDouble = ScalarType::Double;
constexpr ScalarType kComplexHalf = ScalarType::ComplexHalf;
constexpr ScalarType kComplexFloat = ScalarType::ComplexFloat;
constexpr ScalarType kComplexDouble = ScalarType::ComplexDouble;
constexpr ScalarType kBool = ScalarType::Bool;
constexpr ScalarType kQInt8 = ScalarType::QInt8;
constexpr ScalarType kQUInt8 = ScalarType::QUInt8;
constexpr ScalarType kQInt32 = ScalarType::QInt32;
constexpr ScalarType kBFloat16 = ScalarType::BFloat16;
constexpr ScalarType kQUInt4x2 = ScalarType::QUInt4x2;
constexpr ScalarType kQUInt2x4 = ScalarType::QUInt2x4;

static inline const char *toString(ScalarType t) {
  switch (t) {
  case ScalarType::Float:
    return "Float";
  case ScalarType::Double:
    return "Double";
  case ScalarType::Half:
    return "Half";
  case ScalarType::BFloat16:
    return "BFloat16";
  case ScalarType::Long:
    return "Long";
  case ScalarType::Int:
    return "Int";
  case ScalarType::Bool:
    return "Bool";
  default:
    return "UNKNOWN_SCALAR";
  }
}

static inline bool isFloatingType(ScalarType t) {
  return (t == ScalarType::Double || t == ScalarType::Float ||
          t == ScalarType::Half || t == ScalarType::BFloat16);
}

static inline bool isIntegralType(ScalarType t, bool includeBool) {
  bool isIntegral =
      (t == ScalarType::Byte || t == ScalarType::Char || t == ScalarType::Int ||
       t == ScalarType::Long || t == ScalarType::Short);
  return isIntegral || (includeBool && t == ScalarType::Bool);
}

static inline std::ostream &operator<<(std::ostream &stream,
                                       at::ScalarType scalar_type) {
  return stream << toString(scalar_type);
}

} // namespace c10

// ---------------------------------------------------------------------------
// c10/core/Layout.h, c10/core/MemoryFormat.h
// ---------------------------------------------------------------------------
namespace c10 {

enum class Layout : int8_t {
  Strided,
  Sparse,
  SparseCsr,
  Mkldnn,
  SparseCsc,
  SparseBsr,
  SparseBsc,
  NumOptions
};

constexpr auto kStrided = Layout::Strided;
constexpr auto kSparse = Layout::Sparse;
constexpr auto kSparseCsr = Layout::SparseCsr;
constexpr auto kMkldnn = Layout::Mkldnn;
constexpr auto kSparseCsc = Layout::SparseCsc;
constexpr auto kSparseBsr = Layout::SparseBsr;
constexpr auto kSparseBsc = Layout::SparseBsc;

inline std::ostream &operator<<(std::ostream &stream, at::Layout layout) {
  return stream << static_cast<int>(layout);
}

enum class MemoryFormat : int8_t {
  Contiguous,
  Preserve,
  ChannelsLast,
  ChannelsLast3d,
  NumOptions
};

inline MemoryFormat get_contiguous_memory_format() {
  return MemoryFormat::Contiguous;
}

inline std::ostream &operator<<(std::ostream &stream,
                                at::MemoryFormat memory_format) {
  return stream << static_cast<int>(memory_format);
}

} // namespace c10

// ---------------------------------------------------------------------------
// c10/util/typeid.h, c10/core/ScalarTypeToTypeMeta.h
// ---------------------------------------------------------------------------
namespace caffe2 {

class C10_API TypeMeta final {
public:
  TypeMeta() noexcept;
  TypeMeta(const TypeMeta &src) noexcept = default;
  TypeMeta &operator=(const TypeMeta &src) noexcept = default;
  TypeMeta(TypeMeta &&rhs) noexcept = default;
  inline TypeMeta &operator=(ScalarType scalar_type) noexcept {
    index_ = static_cast<uint16_t>(scalar_type);
    return *this;
  }

  inline size_t itemsize() const noexcept;
  bool isScalarType() const noexcept { return index_ < 18; }
  bool isScalarType(ScalarType scalar_type) const noexcept {
    return index_ == static_cast<uint16_t>(scalar_type);
  }
#if LIBTORCH_MOCK_VERSION_MAJOR >= 2
  friend bool operator==(const TypeMeta &lhs, const TypeMeta &rhs) noexcept;
#else
  friend bool operator==(const TypeMeta lhs, const TypeMeta rhs) noexcept;
#endif

  template <class T> static TypeMeta Make() { return TypeMeta(); }
  static inline TypeMeta fromScalarType(ScalarType scalar_type) {
    TypeMeta meta;
    meta = scalar_type;
    return meta;
  }
#if LIBTORCH_MOCK_VERSION_MAJOR >= 2
  inline ScalarType toScalarType() const {
    return static_cast<ScalarType>(index_);
  }
#else
  inline ScalarType toScalarType() {
    return static_cast<ScalarType>(index_);
  }
#endif

private:
  uint16_t index_;
};

#if LIBTORCH_MOCK_VERSION_MAJOR >= 2
inline bool operator==(const TypeMeta &lhs, const TypeMeta &rhs) noexcept {
  return (lhs.index_ == rhs.index_);
}
inline bool operator!=(const TypeMeta &lhs, const TypeMeta &rhs) noexcept {
  return !operator==(lhs, rhs);
}
#else
inline bool operator==(const TypeMeta lhs, const TypeMeta rhs) noexcept {
  return (lhs.index_ == rhs.index_);
}
inline bool operator!=(const TypeMeta lhs, const TypeMeta rhs) noexcept {
  return !operator==(lhs, rhs);
}
#endif

inline std::ostream &operator<<(std::ostream &stream,
                                caffe2::TypeMeta typeMeta);

} // namespace caffe2

namespace c10 {

static inline caffe2::TypeMeta scalarTypeToTypeMeta(ScalarType scalar_type) {
  return caffe2::TypeMeta::fromScalarType(scalar_type);
}
static inline ScalarType typeMetaToScalarType(caffe2::TypeMeta dtype) {
  return dtype.toScalarType();
}
static inline bool operator==(ScalarType t, caffe2::TypeMeta m) {
  return m.isScalarType(t);
}
static inline bool operator==(caffe2::TypeMeta m, ScalarType t) {
  return t == m;
}
static inline bool operator!=(ScalarType t, caffe2::TypeMeta m) {
  return !(t == m);
}
static inline bool operator!=(caffe2::TypeMeta m, ScalarType t) {
  return !(t == m);
}

} // namespace c10

// ---------------------------------------------------------------------------
// c10/core/Scalar.h
// ---------------------------------------------------------------------------
namespace c10 {

class C10_API Scalar {
public:
  Scalar() : Scalar(int64_t(0)) {}
  ~Scalar() {}

#define C10_MOCK_DEFINE_IMPLICIT_CTOR(type, name)                              \
  Scalar(type vv) : Scalar(vv, true) {}
  C10_MOCK_DEFINE_IMPLICIT_CTOR(uint8_t, Byte)
  C10_MOCK_DEFINE_IMPLICIT_CTOR(int8_t, Char)
  C10_MOCK_DEFINE_IMPLICIT_CTOR(int16_t, Short)
  C10_MOCK_DEFINE_IMPLICIT_CTOR(int, Int)
  C10_MOCK_DEFINE_IMPLICIT_CTOR(int64_t, Long)
  C10_MOCK_DEFINE_IMPLICIT_CTOR(float, Float)
  C10_MOCK_DEFINE_IMPLICIT_CTOR(double, Double)
  C10_MOCK_DEFINE_IMPLICIT_CTOR(c10::Half, Half)
  C10_MOCK_DEFINE_IMPLICIT_CTOR(c10::BFloat16, BFloat16)
  C10_MOCK_DEFINE_IMPLICIT_CTOR(c10::complex<c10::Half>, ComplexHalf)
  C10_MOCK_DEFINE_IMPLICIT_CTOR(c10::complex<float>, ComplexFloat)
  C10_MOCK_DEFINE_IMPLICIT_CTOR(c10::complex<double>, ComplexDouble)
#undef C10_MOCK_DEFINE_IMPLICIT_CTOR

#if LIBTORCH_MOCK_VERSION_MAJOR >= 2
  template <typename T,
            typename std::enable_if_t<std::is_same_v<T, bool>, bool> * =
                nullptr>
  Scalar(T vv) : tag(Tag::HAS_b) {
    v.i = static_cast<int64_t>(vv);
  }
#else
  template <typename T,
            typename std::enable_if<std::is_same<T, bool>::value,
                                    bool>::type * = nullptr>
  Scalar(T vv) : tag(Tag::HAS_b) {
    v.i = static_cast<int64_t>(vv);
  }
#endif

#define C10_MOCK_DEFINE_ACCESSOR(type, name) type to##name() const;
  C10_MOCK_DEFINE_ACCESSOR(uint8_t, Byte)
  C10_MOCK_DEFINE_ACCESSOR(int8_t, Char)
  C10_MOCK_DEFINE_ACCESSOR(int16_t, Short)
  C10_MOCK_DEFINE_ACCESSOR(int, Int)
  C10_MOCK_DEFINE_ACCESSOR(int64_t, Long)
  C10_MOCK_DEFINE_ACCESSOR(at::Half, Half)
  C10_MOCK_DEFINE_ACCESSOR(float, Float)
  C10_MOCK_DEFINE_ACCESSOR(double, Double)
  C10_MOCK_DEFINE_ACCESSOR(c10::complex<c10::Half>, ComplexHalf)
  C10_MOCK_DEFINE_ACCESSOR(c10::complex<float>, ComplexFloat)
  C10_MOCK_DEFINE_ACCESSOR(c10::complex<double>, ComplexDouble)
  C10_MOCK_DEFINE_ACCESSOR(bool, Bool)
  C10_MOCK_DEFINE_ACCESSOR(at::BFloat16, BFloat16)
#undef C10_MOCK_DEFINE_ACCESSOR

  template <typename T> T to() const = delete;

  const void *data_ptr() const { return static_cast<const void *>(&v); }
  bool isFloatingPoint() const { return Tag::HAS_d == tag; }
  bool isIntegral(bool includeBool) const {
    return Tag::HAS_i == tag || (includeBool && isBoolean());
  }
  bool isComplex() const { return Tag::HAS_z == tag; }
  bool isBoolean() const { return Tag::HAS_b == tag; }

  Scalar &operator=(Scalar &&other) = default;
  Scalar &operator=(const Scalar &other) = default;
  Scalar(Scalar &&rhs) noexcept = default;
  Scalar(const Scalar &rhs) = default;

  Scalar operator-() const;
  Scalar conj() const;
  Scalar log() const;

  ScalarType type() const;

private:
#if LIBTORCH_MOCK_VERSION_MAJOR >= 2
  template <typename T,
            typename std::enable_if_t<
                std::is_integral_v<T> && !std::is_same_v<T, bool>, bool> * =
                nullptr>
  Scalar(T vv, bool /*unused*/) : tag(Tag::HAS_i) {
    v.i = static_cast<int64_t>(vv);
  }

  template <typename T,
            typename std::enable_if_t<
                !std::is_integral_v<T> && !c10::is_complex<T>::value, bool> * =
                nullptr>
  Scalar(T vv, bool /*unused*/) : tag(Tag::HAS_d) {
    v.d = static_cast<double>(static_cast<float>(0));
    (void)vv;
  }

  template <typename T,
            typename std::enable_if_t<c10::is_complex<T>::value, bool> * =
                nullptr>
  Scalar(T vv, bool /*unused*/) : tag(Tag::HAS_z) {
    (void)vv;
  }
#else
  template <typename T,
            typename std::enable_if<std::is_integral<T>::value &&
                                        !std::is_same<T, bool>::value,
                                    bool>::type * = nullptr>
  Scalar(T vv, bool) : tag(Tag::HAS_i) {
    v.i = static_cast<int64_t>(vv);
  }

  template <typename T,
            typename std::enable_if<!std::is_integral<T>::value, bool>::type * =
                nullptr>
  Scalar(T vv, bool) : tag(Tag::HAS_d) {
    v.d = static_cast<double>(static_cast<float>(0));
    (void)vv;
  }
#endif

  enum class Tag { HAS_d, HAS_i, HAS_z, HAS_b, HAS_sd, HAS_si };
  Tag tag;
  union v_t {
    double d{};
    int64_t i;
    v_t() {}
  } v;
};

using OptionalScalarRef = const Scalar *;

#define C10_MOCK_DEFINE_TO(T, name)                                            \
  template <> inline T Scalar::to<T>() const { return to##name(); }
C10_MOCK_DEFINE_TO(uint8_t, Byte)
C10_MOCK_DEFINE_TO(int8_t, Char)
C10_MOCK_DEFINE_TO(int16_t, Short)
C10_MOCK_DEFINE_TO(int, Int)
C10_MOCK_DEFINE_TO(int64_t, Long)
C10_MOCK_DEFINE_TO(at::Half, Half)
C10_MOCK_DEFINE_TO(float, Float)
C10_MOCK_DEFINE_TO(double, Double)
C10_MOCK_DEFINE_TO(c10::complex<c10::Half>, ComplexHalf)
C10_MOCK_DEFINE_TO(c10::complex<float>, ComplexFloat)
C10_MOCK_DEFINE_TO(c10::complex<double>, ComplexDouble)
C10_MOCK_DEFINE_TO(bool, Bool)
C10_MOCK_DEFINE_TO(at::BFloat16, BFloat16)
#undef C10_MOCK_DEFINE_TO

} // namespace c10

// ---------------------------------------------------------------------------
// c10/core/TensorOptions.h
// ---------------------------------------------------------------------------
namespace c10 {

inline ScalarType dtype_or_default(c10::optional<ScalarType> dtype) {
  return dtype.has_value() ? *dtype : ScalarType::Float;
}
inline Layout layout_or_default(c10::optional<Layout> layout) {
  return layout.has_value() ? *layout : kStrided;
}
inline Device device_or_default(c10::optional<Device> device) {
  return device.has_value() ? *device : Device(kCPU);
}
inline bool pinned_memory_or_default(c10::optional<bool> pinned_memory) {
  return pinned_memory.has_value() ? *pinned_memory : false;
}

struct C10_API TensorOptions {
  TensorOptions()
      : requires_grad_(false), pinned_memory_(false), has_device_(false),
        has_dtype_(false), has_layout_(false), has_requires_grad_(false),
        has_pinned_memory_(false), has_memory_format_(false) {}

  /// Constructs a `TensorOptions` object with the given layout.
  /* implicit */ TensorOptions(Layout layout) : TensorOptions() {
    this->set_layout(layout);
  }

  /// Constructs a `TensorOptions` object with the given device.
  template <typename T, typename = std::enable_if_t<
                            std::is_same<std::decay_t<T>, Device>::value>>
  /* implicit */ TensorOptions(T &&device) : TensorOptions() {
    this->set_device(std::forward<T>(device));
  }

  /// Constructs a `TensorOptions` object from arguments allowed in `Device`
  /// constructors (e.g. a `DeviceType` such as `kCUDA`).
  template <typename... Args,
            typename = std::enable_if_t<
                std::is_constructible<Device, Args &&...>::value>>
  /* implicit */ TensorOptions(Args &&...args)
      : TensorOptions(Device(std::forward<Args>(args)...)) {}

  /// Constructs a `TensorOptions` object with the given dtype.
  /* implicit */ TensorOptions(caffe2::TypeMeta dtype) : TensorOptions() {
    this->set_dtype(dtype);
  }

  /// legacy constructor to support ScalarType
  /* implicit */ TensorOptions(ScalarType dtype) : TensorOptions() {
    this->set_dtype(dtype);
  }

  /// Constructs a `TensorOptions` object with the given memory format.
  /* implicit */ TensorOptions(MemoryFormat memory_format) : TensorOptions() {
    set_memory_format(memory_format);
  }

  C10_NODISCARD TensorOptions
  device(c10::optional<Device> device) const noexcept {
    TensorOptions r = *this;
    r.set_device(device);
    return r;
  }

  template <typename... Args>
  C10_NODISCARD TensorOptions device(Args &&...args) const noexcept {
#if LIBTORCH_MOCK_VERSION_MAJOR >= 2
    return device(
        std::optional<Device>(std::in_place, std::forward<Args>(args)...));
#else
    return device(
        c10::optional<Device>(c10::in_place, std::forward<Args>(args)...));
#endif
  }

  C10_NODISCARD TensorOptions
  device_index(c10::DeviceIndex device_index) const noexcept {
    return device(Device::Type::CUDA, device_index);
  }

  C10_NODISCARD TensorOptions
  dtype(c10::optional<caffe2::TypeMeta> dtype) const noexcept {
    TensorOptions r = *this;
    r.set_dtype(dtype);
    return r;
  }

  // legacy function to support ScalarType
  C10_NODISCARD TensorOptions
  dtype(c10::optional<ScalarType> dtype) const noexcept {
    TensorOptions r = *this;
    r.set_dtype(dtype);
    return r;
  }

  // Since dtype is taken...
  template <typename T> TensorOptions &dtype() {
    dtype_ = caffe2::TypeMeta::Make<T>();
    has_dtype_ = true;
    return *this;
  }

  C10_NODISCARD TensorOptions
  layout(c10::optional<Layout> layout) const noexcept {
    TensorOptions r = *this;
    r.set_layout(layout);
    return r;
  }

  C10_NODISCARD TensorOptions
  requires_grad(c10::optional<bool> requires_grad) const noexcept {
    TensorOptions r = *this;
    r.set_requires_grad(requires_grad);
    return r;
  }

  C10_NODISCARD TensorOptions
  pinned_memory(c10::optional<bool> pinned_memory) const noexcept {
    TensorOptions r = *this;
    r.set_pinned_memory(pinned_memory);
    return r;
  }

  C10_NODISCARD TensorOptions
  memory_format(c10::optional<MemoryFormat> memory_format) const noexcept {
    TensorOptions r = *this;
    r.set_memory_format(memory_format);
    return r;
  }

  Device device() const noexcept { return device_or_default(device_opt()); }
  bool has_device() const noexcept { return has_device_; }
  c10::optional<Device> device_opt() const noexcept {
    return has_device_ ? c10::make_optional(device_) : c10::nullopt;
  }
  int32_t device_index() const noexcept { return device().index(); }

  caffe2::TypeMeta dtype() const noexcept { return dtype_; }
  bool has_dtype() const noexcept { return has_dtype_; }
  c10::optional<caffe2::TypeMeta> dtype_opt() const noexcept {
    return has_dtype_ ? c10::make_optional(dtype_) : c10::nullopt;
  }

  Layout layout() const noexcept { return layout_or_default(layout_opt()); }
  bool has_layout() const noexcept { return has_layout_; }
  c10::optional<Layout> layout_opt() const noexcept {
    return has_layout_ ? c10::make_optional(layout_) : c10::nullopt;
  }

  bool requires_grad() const noexcept {
    return has_requires_grad_ ? requires_grad_ : false;
  }
  bool has_requires_grad() const noexcept { return has_requires_grad_; }
  c10::optional<bool> requires_grad_opt() const noexcept {
    return has_requires_grad_ ? c10::make_optional(requires_grad_)
                              : c10::nullopt;
  }

  bool pinned_memory() const noexcept {
    return pinned_memory_or_default(pinned_memory_opt());
  }
  bool has_pinned_memory() const noexcept { return has_pinned_memory_; }
  c10::optional<bool> pinned_memory_opt() const noexcept {
    return has_pinned_memory_ ? c10::make_optional(pinned_memory_)
                              : c10::nullopt;
  }

  bool has_memory_format() const noexcept { return has_memory_format_; }
  c10::optional<MemoryFormat> memory_format_opt() const noexcept {
    return has_memory_format_ ? c10::make_optional(memory_format_)
                              : c10::nullopt;
  }

  TensorOptions merge_in(TensorOptions options) const noexcept;

private:
  void set_device(c10::optional<Device> device) & noexcept {
    if (device) {
      device_ = *device;
      has_device_ = true;
    } else {
      has_device_ = false;
    }
  }
  void set_dtype(c10::optional<caffe2::TypeMeta> dtype) & noexcept {
    if (dtype) {
      dtype_ = *dtype;
      has_dtype_ = true;
    } else {
      has_dtype_ = false;
    }
  }
  void set_dtype(c10::optional<ScalarType> dtype) & noexcept {
    if (dtype) {
      dtype_ = scalarTypeToTypeMeta(*dtype);
      has_dtype_ = true;
    } else {
      has_dtype_ = false;
    }
  }
  void set_layout(c10::optional<Layout> layout) & noexcept {
    if (layout) {
      layout_ = *layout;
      has_layout_ = true;
    } else {
      has_layout_ = false;
    }
  }
  void set_requires_grad(c10::optional<bool> requires_grad) & noexcept {
    if (requires_grad) {
      requires_grad_ = *requires_grad;
      has_requires_grad_ = true;
    } else {
      has_requires_grad_ = false;
    }
  }
  void set_pinned_memory(c10::optional<bool> pinned_memory) & noexcept {
    if (pinned_memory) {
      pinned_memory_ = *pinned_memory;
      has_pinned_memory_ = true;
    } else {
      has_pinned_memory_ = false;
    }
  }
  void set_memory_format(c10::optional<MemoryFormat> memory_format) & noexcept {
    if (memory_format) {
      memory_format_ = *memory_format;
      has_memory_format_ = true;
    } else {
      has_memory_format_ = false;
    }
  }

  Device device_ = at::kCPU;
  caffe2::TypeMeta dtype_ = caffe2::TypeMeta::fromScalarType(ScalarType::Float);
  Layout layout_ = at::kStrided;
  MemoryFormat memory_format_ = MemoryFormat::Contiguous;
  bool requires_grad_ : 1;
  bool pinned_memory_ : 1;
  bool has_device_ : 1;
  bool has_dtype_ : 1;
  bool has_layout_ : 1;
  bool has_requires_grad_ : 1;
  bool has_pinned_memory_ : 1;
  bool has_memory_format_ : 1;
};

inline TensorOptions dtype(caffe2::TypeMeta dtype) {
  return TensorOptions().dtype(dtype);
}
inline TensorOptions dtype(ScalarType dtype) {
  return TensorOptions().dtype(scalarTypeToTypeMeta(dtype));
}
inline TensorOptions layout(Layout layout) {
  return TensorOptions().layout(layout);
}
inline TensorOptions device(Device device) {
  return TensorOptions().device(std::move(device));
}
#if LIBTORCH_MOCK_VERSION_MAJOR >= 2
inline TensorOptions device_index(c10::DeviceIndex device_index) {
  return TensorOptions().device_index(device_index);
}
#else
inline TensorOptions device_index(int16_t device_index) {
  return TensorOptions().device_index(
      static_cast<c10::DeviceIndex>(device_index));
}
#endif
inline TensorOptions requires_grad(bool requires_grad = true) {
  return TensorOptions().requires_grad(requires_grad);
}
inline TensorOptions memory_format(MemoryFormat memory_format) {
  return TensorOptions().memory_format(memory_format);
}

C10_API std::ostream &operator<<(std::ostream &stream,
                                 const TensorOptions &options);

template <typename T> inline TensorOptions dtype() {
  return dtype(caffe2::TypeMeta::Make<T>());
}

#if LIBTORCH_MOCK_VERSION_MAJOR >= 2
inline std::string toString(const TensorOptions &options);
#else
inline std::string toString(const TensorOptions options);
#endif

} // namespace c10

// ---------------------------------------------------------------------------
// c10/core/GradMode.h, c10/core/InferenceMode.h
// ---------------------------------------------------------------------------
namespace c10 {

struct TORCH_API GradMode {
  static bool is_enabled();
  static void set_enabled(bool enabled);
};

struct TORCH_API AutoGradMode {
  AutoGradMode(bool enabled) : prev_mode(GradMode::is_enabled()) {
    GradMode::set_enabled(enabled);
  }
  ~AutoGradMode() { GradMode::set_enabled(prev_mode); }
  bool prev_mode;
};

struct TORCH_API NoGradGuard : public AutoGradMode {
  NoGradGuard() : AutoGradMode(/*enabled=*/false) {}
};

struct TORCH_API AutoFwGradMode {
  AutoFwGradMode(bool enabled);
  ~AutoFwGradMode();
  bool prev_mode;
};

struct TORCH_API InferenceMode {
  InferenceMode(bool enabled = true);
  ~InferenceMode();
  static bool is_enabled();

private:
  bool prev_mode;
};

} // namespace c10
