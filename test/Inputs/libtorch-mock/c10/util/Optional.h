// Mock of LibTorch's c10 utility layer, for fast check tests.
//
// Mirrors (declarations and qualified names as in LibTorch 1.13):
//   c10/macros/Macros.h        C10_API/TORCH_API, C10_NODISCARD, the
//                              `namespace at { using namespace c10; }` export
//   c10/util/Exception.h       TORCH_CHECK, TORCH_INTERNAL_ASSERT, AT_ASSERT,
//                              AT_ERROR (c10::detail::torchCheckFail, ...)
//   c10/util/StringUtil.h      c10::str
//   c10/util/in_place.h        c10::in_place_t, c10::in_place
//   c10/util/Optional.h        c10::optional, c10::nullopt_t, c10::nullopt
//   c10/util/ArrayRef.h        c10::ArrayRef, c10::IntArrayRef
//   c10/util/OptionalArrayRef.h c10::OptionalArrayRef
//   c10/util/variant.h         c10::variant (its converting constructor)
//   c10/util/Half.h, BFloat16.h, complex.h
//
// With -DLIBTORCH_MOCK_VERSION_MAJOR=2 (LibTorch 2.15), as in the real 2.15
// headers: c10::optional and friends are aliases of their std:: counterparts
// (c10/util/in_place.h and c10/util/variant.h are gone: std::in_place,
// std::variant), c10::ArrayRef inherits its constructors from
// c10::HeaderOnlyArrayRef (torch/headeronly/util/HeaderOnlyArrayRef.h), and
// c10::SymInt (c10/core/SymInt.h) exists.
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <functional>
#include <initializer_list>
#include <memory>
#include <ostream>
#include <string>
#include <type_traits>
#include <utility>
#include <vector>

/// Defined by every mock header; real LibTorch never defines it.
#define LIBTORCH_MOCK 1
#ifndef LIBTORCH_MOCK_VERSION_MAJOR
#define LIBTORCH_MOCK_VERSION_MAJOR 1
#endif

// ---------------------------------------------------------------------------
// c10/macros/Macros.h, c10/macros/Export.h
// ---------------------------------------------------------------------------
#define C10_API
#define TORCH_API
#define C10_NODISCARD [[nodiscard]]
#define C10_DEPRECATED_MESSAGE(message) [[deprecated(message)]]
#define C10_UNUSED __attribute__((__unused__))
#define C10_LIKELY(expr) (__builtin_expect(static_cast<bool>(expr), 1))
#define C10_UNLIKELY(expr) (__builtin_expect(static_cast<bool>(expr), 0))
#define C10_STRINGIZE_IMPL(x) #x
#define C10_STRINGIZE(x) C10_STRINGIZE_IMPL(x)
#define C10_EXPAND_MSVC_WORKAROUND(x) x
#define C10_UNLIKELY_OR_CONST(e) C10_UNLIKELY(e)

namespace c10 {} // namespace c10
namespace c10 {
namespace cuda {}
} // namespace c10
namespace c10 {
namespace hip {}
} // namespace c10

namespace caffe2 {
using namespace c10;
}
namespace at {
using namespace c10;
}
namespace at {
namespace cuda {
using namespace c10::cuda;
}
} // namespace at
namespace at {
namespace cuda {
using namespace c10::hip;
}
} // namespace at

// ---------------------------------------------------------------------------
// c10/util/StringUtil.h
// ---------------------------------------------------------------------------
namespace c10 {
namespace detail {

struct CompileTimeEmptyString {
  operator const std::string &() const {
    static const std::string empty_string_literal;
    return empty_string_literal;
  }
  operator const char *() const { return ""; }
};

template <typename T> struct CanonicalizeStrTypes {
  using type = const T &;
};

template <size_t N> struct CanonicalizeStrTypes<char[N]> {
  using type = const char *;
};

inline std::ostream &_str(std::ostream &ss) { return ss; }

template <typename T> inline std::ostream &_str(std::ostream &ss, const T &t) {
  ss << t;
  return ss;
}

template <>
inline std::ostream &_str<CompileTimeEmptyString>(
    std::ostream &ss, const CompileTimeEmptyString &) {
  return ss;
}

template <typename T, typename... Args>
inline std::ostream &_str(std::ostream &ss, const T &t, const Args &...args) {
  return _str(_str(ss, t), args...);
}

template <typename... Args> struct _str_wrapper final {
  static std::string call(const Args &...args);
};

template <> struct _str_wrapper<std::string> final {
  static const std::string &call(const std::string &str) { return str; }
};

template <> struct _str_wrapper<const char *> final {
  static const char *call(const char *str) { return str; }
};

template <> struct _str_wrapper<> final {
  static CompileTimeEmptyString call() { return CompileTimeEmptyString(); }
};

} // namespace detail

template <typename... Args> inline decltype(auto) str(const Args &...args) {
  return detail::_str_wrapper<
      typename detail::CanonicalizeStrTypes<Args>::type...>::call(args...);
}

} // namespace c10

// ---------------------------------------------------------------------------
// c10/util/Exception.h
// ---------------------------------------------------------------------------
namespace c10 {
namespace detail {
template <typename... Args>
decltype(auto) torchCheckMsgImpl(const char * /*msg*/, const Args &...args) {
  return ::c10::str(args...);
}
inline C10_API const char *torchCheckMsgImpl(const char *msg) { return msg; }
inline C10_API const char *torchCheckMsgImpl(const char * /*msg*/,
                                             const char *args) {
  return args;
}

[[noreturn]] C10_API void torchCheckFail(const char *func, const char *file,
                                         uint32_t line, const std::string &msg);
[[noreturn]] C10_API void torchCheckFail(const char *func, const char *file,
                                         uint32_t line, const char *msg);
[[noreturn]] C10_API void torchInternalAssertFail(const char *func,
                                                  const char *file,
                                                  uint32_t line,
                                                  const char *condMsg,
                                                  const char *userMsg);
[[noreturn]] inline C10_API void
torchInternalAssertFail(const char *func, const char *file, uint32_t line,
                        const char *condMsg,
                        ::c10::detail::CompileTimeEmptyString /*userMsg*/) {
  torchCheckFail(func, file, line, condMsg);
}
[[noreturn]] C10_API void torchInternalAssertFail(const char *func,
                                                  const char *file,
                                                  uint32_t line,
                                                  const char *condMsg,
                                                  const std::string &userMsg);

inline void deprecated_AT_ERROR() {}
inline void deprecated_AT_ASSERT() {}
inline void deprecated_AT_ASSERTM() {}
} // namespace detail
} // namespace c10

#define TORCH_CHECK_MSG(cond, type, ...)                                       \
  (::c10::detail::torchCheckMsgImpl(                                           \
      "Expected " #cond " to be true, but got false.  "                        \
      "(Could this error message be improved?  If so, "                        \
      "please report an enhancement request to PyTorch.)",                     \
      ##__VA_ARGS__))

#define TORCH_CHECK(cond, ...)                                                 \
  if (C10_UNLIKELY_OR_CONST(!(cond))) {                                        \
    ::c10::detail::torchCheckFail(__func__, __FILE__,                          \
                                  static_cast<uint32_t>(__LINE__),             \
                                  TORCH_CHECK_MSG(cond, "", ##__VA_ARGS__));   \
  }

#define TORCH_INTERNAL_ASSERT(cond, ...)                                       \
  if (C10_UNLIKELY_OR_CONST(!(cond))) {                                        \
    ::c10::detail::torchInternalAssertFail(                                    \
        __func__, __FILE__, static_cast<uint32_t>(__LINE__),                   \
        #cond " INTERNAL ASSERT FAILED at " C10_STRINGIZE(                     \
            __FILE__) ":" C10_STRINGIZE(__LINE__) ", please report a bug to "  \
                                                  "PyTorch. ",                 \
        c10::str(__VA_ARGS__));                                                \
  }

#define AT_ASSERT(...)                                                         \
  do {                                                                         \
    ::c10::detail::deprecated_AT_ASSERT();                                     \
    C10_EXPAND_MSVC_WORKAROUND(TORCH_INTERNAL_ASSERT(__VA_ARGS__));            \
  } while (false)

#define AT_ASSERTM(cond, ...)                                                  \
  do {                                                                         \
    ::c10::detail::deprecated_AT_ASSERTM();                                    \
    C10_EXPAND_MSVC_WORKAROUND(TORCH_INTERNAL_ASSERT(cond, __VA_ARGS__));      \
  } while (false)

#define AT_ERROR(...)                                                          \
  do {                                                                         \
    ::c10::detail::deprecated_AT_ERROR();                                      \
    C10_EXPAND_MSVC_WORKAROUND(TORCH_CHECK(false, ::c10::str(__VA_ARGS__)));   \
  } while (false)

// ---------------------------------------------------------------------------
// c10/util/in_place.h and c10/util/Optional.h
// ---------------------------------------------------------------------------
#if LIBTORCH_MOCK_VERSION_MAJOR >= 2

// LibTorch 2.15: c10/util/Optional.h re-exports std::optional; there is no
// c10/util/in_place.h.
#include <optional>
namespace c10 {
using std::bad_optional_access;
using std::make_optional;
using std::nullopt;
using std::nullopt_t;
using std::optional;
} // namespace c10

#else

namespace c10 {

struct in_place_t {
  explicit in_place_t() = default;
};

template <std::size_t I> struct in_place_index_t {
  explicit in_place_index_t() = default;
};

template <typename T> struct in_place_type_t {
  explicit in_place_type_t() = default;
};

constexpr in_place_t in_place{};

} // namespace c10

#define TR2_OPTIONAL_REQUIRES(...)                                             \
  typename std::enable_if<__VA_ARGS__::value, bool>::type = false

namespace c10 {

template <class T> class optional;

struct nullopt_t {
  constexpr explicit nullopt_t(int) {}
};
constexpr nullopt_t nullopt{0};

class bad_optional_access : public std::logic_error {
public:
  explicit bad_optional_access(const std::string &what_arg)
      : logic_error{what_arg} {}
  explicit bad_optional_access(const char *what_arg) : logic_error{what_arg} {}
};

// The interface (constructors, observers) is declared as in c10/util/Optional.h
// (1.13); the storage is a plain byte buffer: the mock is only ever parsed.
template <class T> class optional {
  alignas(T) unsigned char storage_[sizeof(T)] = {};
  bool init_ = false;

  constexpr const T *dataptr() const {
    return reinterpret_cast<const T *>(storage_);
  }
  constexpr T *dataptr() { return reinterpret_cast<T *>(storage_); }

public:
  typedef T value_type;

  // 20.5.5.1, constructors
  constexpr optional() noexcept {};
  constexpr optional(nullopt_t) noexcept {};

  optional(const optional &rhs) = default;
  optional(optional &&rhs) = default;

  // 8 - implicit move construct from value
  template <typename U = T,
            TR2_OPTIONAL_REQUIRES(
                std::is_constructible<T, U &&>::value &&
                !std::is_same<typename std::decay<U>::type, in_place_t>::value &&
                !std::is_same<typename std::decay<U>::type, optional<T>>::value &&
                std::is_convertible<U &&, T>)>
  constexpr optional(U &&u) : init_(true) {}

  // 8 - explicit move construct from value
  template <typename U = T,
            TR2_OPTIONAL_REQUIRES(
                std::is_constructible<T, U &&>::value &&
                !std::is_same<typename std::decay<U>::type, in_place_t>::value &&
                !std::is_same<typename std::decay<U>::type, optional<T>>::value &&
                !std::is_convertible<U &&, T>)>
  explicit constexpr optional(U &&u) : init_(true) {}

  template <class... Args>
  explicit constexpr optional(in_place_t, Args &&...args) : init_(true) {}

  template <class U, class... Args,
            TR2_OPTIONAL_REQUIRES(
                std::is_constructible<T, std::initializer_list<U>>)>
  constexpr explicit optional(in_place_t, std::initializer_list<U> il,
                              Args &&...args)
      : init_(true) {}

  // 20.5.4.2, Destructor
  ~optional() = default;

  // 20.5.4.3, assignment
  optional &operator=(nullopt_t) noexcept {
    init_ = false;
    return *this;
  }

  optional &operator=(const optional &rhs) = default;

  optional &operator=(optional &&rhs) = default;

  template <class U = T>
  auto operator=(U &&v) -> typename std::enable_if<
      std::is_constructible<T, U>::value &&
          !std::is_same<typename std::decay<U>::type, optional<T>>::value &&
          (std::is_scalar<T>::value ||
           std::is_same<typename std::decay<U>::type, T>::value) &&
          std::is_assignable<T &, U>::value,
      optional &>::type {
    init_ = true;
    return *this;
  }

  template <class... Args> void emplace(Args &&...args) { init_ = true; }

  template <class U, class... Args>
  void emplace(std::initializer_list<U> il, Args &&...args) {
    init_ = true;
  }

  // 20.5.4.4, Swap
  void swap(optional<T> &rhs) noexcept {}

  // 20.5.4.5, Observers
  explicit constexpr operator bool() const noexcept { return init_; }
  constexpr bool has_value() const noexcept { return init_; }

  constexpr T const *operator->() const { return dataptr(); }
  constexpr T *operator->() { return dataptr(); }
  constexpr T const &operator*() const & { return *dataptr(); }
  constexpr T &operator*() & { return *dataptr(); }
  constexpr T &&operator*() && { return std::move(*dataptr()); }

  constexpr T const &value() const & { return *dataptr(); }
  constexpr T &value() & { return *dataptr(); }
  constexpr T &&value() && { return std::move(*dataptr()); }

  template <class V> constexpr T value_or(V &&v) const & {
    return *this ? **this : static_cast<T>(std::forward<V>(v));
  }
  template <class V> constexpr T value_or(V &&v) && {
    return *this ? std::move(**this) : static_cast<T>(std::forward<V>(v));
  }

  // 20.6.3.6, modifiers
  void reset() noexcept { init_ = false; }
};

template <class T>
constexpr bool operator==(const optional<T> &x, const optional<T> &y) {
  return bool(x) != bool(y) ? false : bool(x) == false ? true : *x == *y;
}
template <class T>
constexpr bool operator!=(const optional<T> &x, const optional<T> &y) {
  return !(x == y);
}
template <class T>
constexpr bool operator==(const optional<T> &x, nullopt_t) noexcept {
  return (!x);
}
template <class T>
constexpr bool operator==(nullopt_t, const optional<T> &x) noexcept {
  return (!x);
}
template <class T>
constexpr bool operator!=(const optional<T> &x, nullopt_t) noexcept {
  return bool(x);
}
template <class T>
constexpr bool operator!=(nullopt_t, const optional<T> &x) noexcept {
  return bool(x);
}
template <class T, class U>
constexpr bool operator==(const optional<T> &x, const U &v) {
  return bool(x) ? *x == v : false;
}
template <class T, class U>
constexpr bool operator==(const U &v, const optional<T> &x) {
  return bool(x) ? v == *x : false;
}
template <class T, class U>
constexpr bool operator!=(const optional<T> &x, const U &v) {
  return bool(x) ? *x != v : true;
}
template <class T, class U>
constexpr bool operator!=(const U &v, const optional<T> &x) {
  return bool(x) ? v != *x : true;
}

template <class T>
constexpr optional<typename std::decay<T>::type> make_optional(T &&v) {
  return optional<typename std::decay<T>::type>(std::forward<T>(v));
}

} // namespace c10

#endif // LIBTORCH_MOCK_VERSION_MAJOR >= 2

// ---------------------------------------------------------------------------
// c10/util/ArrayRef.h
// ---------------------------------------------------------------------------
namespace c10 {

#if LIBTORCH_MOCK_VERSION_MAJOR >= 2

// LibTorch 2.15: torch/headeronly/util/HeaderOnlyArrayRef.h holds what
// ArrayRef was, and ArrayRef inherits its constructors (inherited
// constructor calls are not references of their own).
template <typename T> class HeaderOnlyArrayRef {
public:
  using iterator = const T *;
  using const_iterator = const T *;
  using size_type = size_t;
  using value_type = T;
  using reverse_iterator = std::reverse_iterator<iterator>;

protected:
  const T *Data;
  size_type Length;

public:
  /* implicit */ constexpr HeaderOnlyArrayRef() : Data(nullptr), Length(0) {}
  constexpr HeaderOnlyArrayRef(const T &OneElt) : Data(&OneElt), Length(1) {}
  constexpr HeaderOnlyArrayRef(const T *data, size_t length)
      : Data(data), Length(length) {}
  constexpr HeaderOnlyArrayRef(const T *begin, const T *end)
      : Data(begin), Length(end - begin) {}

  template <typename Container,
            typename U = decltype(std::declval<Container>().data()),
            typename = std::enable_if_t<(std::is_same_v<U, T *> ||
                                         std::is_same_v<U, T const *>)>>
  /* implicit */ HeaderOnlyArrayRef(const Container &container)
      : Data(container.data()), Length(container.size()) {}

  template <typename A>
  /* implicit */ HeaderOnlyArrayRef(const std::vector<T, A> &Vec)
      : Data(Vec.data()), Length(Vec.size()) {}

  template <size_t N>
  /* implicit */ constexpr HeaderOnlyArrayRef(const std::array<T, N> &Arr)
      : Data(Arr.data()), Length(N) {}

  template <size_t N>
  /* implicit */ constexpr HeaderOnlyArrayRef(const T (&Arr)[N])
      : Data(Arr), Length(N) {}

  /* implicit */ constexpr HeaderOnlyArrayRef(
      const std::initializer_list<T> &Vec)
      : Data(std::begin(Vec) == std::end(Vec) ? static_cast<T *>(nullptr)
                                              : std::begin(Vec)),
        Length(Vec.size()) {}

  constexpr iterator begin() const { return this->Data; }
  constexpr iterator end() const { return this->Data + this->Length; }
  constexpr const_iterator cbegin() const { return this->Data; }
  constexpr const_iterator cend() const { return this->Data + this->Length; }
  constexpr reverse_iterator rbegin() const { return reverse_iterator(end()); }
  constexpr reverse_iterator rend() const { return reverse_iterator(begin()); }
  constexpr bool empty() const { return this->Length == 0; }
  constexpr const T *data() const { return this->Data; }
  constexpr size_t size() const { return this->Length; }
  constexpr const T &front() const { return this->Data[0]; }
  constexpr const T &back() const { return this->Data[this->Length - 1]; }
  constexpr bool equals(HeaderOnlyArrayRef RHS) const {
    if (this->Length != RHS.Length)
      return false;
    for (size_t i = 0; i < this->Length; ++i)
      if (!(this->Data[i] == RHS.Data[i]))
        return false;
    return true;
  }
  constexpr HeaderOnlyArrayRef<T> slice(size_t N, size_t M) const {
    return HeaderOnlyArrayRef<T>(this->data() + N, M);
  }
  constexpr HeaderOnlyArrayRef<T> slice(size_t N) const {
    return slice(N, this->size() - N);
  }
  constexpr const T &operator[](size_t Index) const {
    return this->Data[Index];
  }
  constexpr const T &at(size_t Index) const { return this->Data[Index]; }

  template <typename U>
  std::enable_if_t<std::is_same_v<U, T>, HeaderOnlyArrayRef<T>> &
  operator=(U &&Temporary) = delete;

  template <typename U>
  std::enable_if_t<std::is_same_v<U, T>, HeaderOnlyArrayRef<T>> &
  operator=(std::initializer_list<U>) = delete;

  std::vector<T> vec() const {
    return std::vector<T>(this->Data, this->Data + this->Length);
  }

  friend bool operator==(HeaderOnlyArrayRef a1, HeaderOnlyArrayRef a2) {
    return a1.equals(a2);
  }
  friend bool operator!=(HeaderOnlyArrayRef a1, HeaderOnlyArrayRef a2) {
    return !a1.equals(a2);
  }
};

template <typename T> class ArrayRef : public HeaderOnlyArrayRef<T> {
public:
  using HeaderOnlyArrayRef<T>::HeaderOnlyArrayRef;

  [[nodiscard]] constexpr const T &front() const { return this->Data[0]; }
  [[nodiscard]] constexpr const T &back() const {
    return this->Data[this->Length - 1];
  }
  [[nodiscard]] constexpr ArrayRef<T> slice(size_t N, size_t M) const {
    return ArrayRef<T>(this->data() + N, M);
  }
  [[nodiscard]] constexpr ArrayRef<T> slice(size_t N) const {
    return slice(N, this->size() - N);
  }
  [[nodiscard]] constexpr const T &at(size_t Index) const {
    return this->Data[Index];
  }

  template <typename U>
  std::enable_if_t<std::is_same_v<U, T>, ArrayRef<T>> &
  operator=(U &&Temporary) = delete;

  template <typename U>
  std::enable_if_t<std::is_same_v<U, T>, ArrayRef<T>> &
  operator=(std::initializer_list<U>) = delete;
};

template <typename T> ArrayRef(const T &) -> ArrayRef<T>;
template <typename T> ArrayRef(const T *, size_t) -> ArrayRef<T>;
template <typename T> ArrayRef(const T *, const T *) -> ArrayRef<T>;
template <typename Container>
ArrayRef(const Container &) -> ArrayRef<
    std::remove_pointer_t<decltype(std::declval<Container>().data())>>;
template <typename T, typename A>
ArrayRef(const std::vector<T, A> &) -> ArrayRef<T>;
template <typename T, size_t N>
ArrayRef(const std::array<T, N> &) -> ArrayRef<T>;
template <typename T, size_t N> ArrayRef(const T (&)[N]) -> ArrayRef<T>;
template <typename T> ArrayRef(const std::initializer_list<T> &) -> ArrayRef<T>;

#else // LibTorch 1.13

template <typename T> class ArrayRef final {
public:
  using iterator = const T *;
  using const_iterator = const T *;
  using size_type = size_t;
  using value_type = T;
  using reverse_iterator = std::reverse_iterator<iterator>;

private:
  const T *Data;
  size_type Length;

public:
  /* implicit */ constexpr ArrayRef() : Data(nullptr), Length(0) {}
  constexpr ArrayRef(const T &OneElt) : Data(&OneElt), Length(1) {}
  ArrayRef(const T *data, size_t length) : Data(data), Length(length) {}
  ArrayRef(const T *begin, const T *end) : Data(begin), Length(end - begin) {}

  template <typename Container,
            typename = std::enable_if_t<std::is_same<
                std::remove_const_t<decltype(std::declval<Container>().data())>,
                T *>::value>>
  /* implicit */ ArrayRef(const Container &container)
      : Data(container.data()), Length(container.size()) {}

  template <typename A>
  /* implicit */ ArrayRef(const std::vector<T, A> &Vec)
      : Data(Vec.data()), Length(Vec.size()) {}

  template <size_t N>
  /* implicit */ constexpr ArrayRef(const std::array<T, N> &Arr)
      : Data(Arr.data()), Length(N) {}

  template <size_t N>
  /* implicit */ constexpr ArrayRef(const T (&Arr)[N]) : Data(Arr), Length(N) {}

  /* implicit */ constexpr ArrayRef(const std::initializer_list<T> &Vec)
      : Data(Vec.begin() == Vec.end() ? static_cast<T *>(nullptr)
                                      : Vec.begin()),
        Length(Vec.size()) {}

  constexpr iterator begin() const { return Data; }
  constexpr iterator end() const { return Data + Length; }
  constexpr const_iterator cbegin() const { return Data; }
  constexpr const_iterator cend() const { return Data + Length; }
  constexpr reverse_iterator rbegin() const { return reverse_iterator(end()); }
  constexpr reverse_iterator rend() const { return reverse_iterator(begin()); }
  constexpr bool empty() const { return Length == 0; }
  constexpr const T *data() const { return Data; }
  constexpr size_t size() const { return Length; }
  const T &front() const { return Data[0]; }
  const T &back() const { return Data[Length - 1]; }
  constexpr bool equals(ArrayRef RHS) const {
    if (Length != RHS.Length)
      return false;
    for (size_t i = 0; i < Length; ++i)
      if (!(Data[i] == RHS.Data[i]))
        return false;
    return true;
  }
  ArrayRef<T> slice(size_t N, size_t M) const {
    return ArrayRef<T>(data() + N, M);
  }
  constexpr ArrayRef<T> slice(size_t N) const {
    return ArrayRef<T>(data() + N, Length - N);
  }
  constexpr const T &operator[](size_t Index) const { return Data[Index]; }
  const T &at(size_t Index) const { return Data[Index]; }

  template <typename U>
  typename std::enable_if<std::is_same<U, T>::value, ArrayRef<T>>::type &
  operator=(U &&Temporary) = delete;

  template <typename U>
  typename std::enable_if<std::is_same<U, T>::value, ArrayRef<T>>::type &
  operator=(std::initializer_list<U>) = delete;

  std::vector<T> vec() const { return std::vector<T>(Data, Data + Length); }
};

#endif // LIBTORCH_MOCK_VERSION_MAJOR >= 2

template <typename T>
std::ostream &operator<<(std::ostream &out, ArrayRef<T> list) {
  int i = 0;
  out << "[";
  for (const auto &e : list) {
    if (i++ > 0)
      out << ", ";
    out << e;
  }
  out << "]";
  return out;
}

template <typename T> ArrayRef<T> makeArrayRef(const T &OneElt) {
  return OneElt;
}
template <typename T> ArrayRef<T> makeArrayRef(const std::vector<T> &Vec) {
  return Vec;
}

#if LIBTORCH_MOCK_VERSION_MAJOR < 2
// 2.15: only HeaderOnlyArrayRef's hidden friends operator== and operator!=.
template <typename T> bool operator==(c10::ArrayRef<T> a1, c10::ArrayRef<T> a2) {
  return a1.equals(a2);
}
template <typename T> bool operator!=(c10::ArrayRef<T> a1, c10::ArrayRef<T> a2) {
  return !a1.equals(a2);
}
template <typename T> bool operator==(const std::vector<T> &a1, c10::ArrayRef<T> a2) {
  return c10::ArrayRef<T>(a1).equals(a2);
}
template <typename T> bool operator!=(const std::vector<T> &a1, c10::ArrayRef<T> a2) {
  return !c10::ArrayRef<T>(a1).equals(a2);
}
template <typename T> bool operator==(c10::ArrayRef<T> a1, const std::vector<T> &a2) {
  return a1.equals(c10::ArrayRef<T>(a2));
}
template <typename T> bool operator!=(c10::ArrayRef<T> a1, const std::vector<T> &a2) {
  return !a1.equals(c10::ArrayRef<T>(a2));
}
#endif

using IntArrayRef = ArrayRef<int64_t>;

} // namespace c10

#if LIBTORCH_MOCK_VERSION_MAJOR >= 2
namespace torch::headeronly {
using c10::HeaderOnlyArrayRef;
using IntHeaderOnlyArrayRef = HeaderOnlyArrayRef<int64_t>;
} // namespace torch::headeronly
#endif

// ---------------------------------------------------------------------------
// c10/util/OptionalArrayRef.h
// ---------------------------------------------------------------------------
namespace c10 {

#if LIBTORCH_MOCK_VERSION_MAJOR >= 2

template <typename T> class OptionalArrayRef final {
public:
  constexpr OptionalArrayRef() noexcept = default;
  constexpr OptionalArrayRef(std::nullopt_t /*unused*/) noexcept {}
  OptionalArrayRef(const OptionalArrayRef &other) = default;
  OptionalArrayRef(OptionalArrayRef &&other) noexcept = default;
  constexpr OptionalArrayRef(const std::optional<ArrayRef<T>> &other) noexcept
      : wrapped_opt_array_ref(other) {}
  constexpr OptionalArrayRef(std::optional<ArrayRef<T>> &&other) noexcept
      : wrapped_opt_array_ref(std::move(other)) {}
  constexpr OptionalArrayRef(const T &value) noexcept
      : wrapped_opt_array_ref(value) {}

  template <
      typename U = ArrayRef<T>,
      std::enable_if_t<!std::is_same_v<std::decay_t<U>, OptionalArrayRef> &&
                           !std::is_same_v<std::decay_t<U>, std::in_place_t> &&
                           std::is_constructible_v<ArrayRef<T>, U &&> &&
                           std::is_convertible_v<U &&, ArrayRef<T>> &&
                           !std::is_convertible_v<U &&, T>,
                       bool> = false>
  constexpr OptionalArrayRef(U &&value) noexcept(
      std::is_nothrow_constructible_v<ArrayRef<T>, U &&>)
      : wrapped_opt_array_ref(std::forward<U>(value)) {}

  template <
      typename U = ArrayRef<T>,
      std::enable_if_t<!std::is_same_v<std::decay_t<U>, OptionalArrayRef> &&
                           !std::is_same_v<std::decay_t<U>, std::in_place_t> &&
                           std::is_constructible_v<ArrayRef<T>, U &&> &&
                           !std::is_convertible_v<U &&, ArrayRef<T>>,
                       bool> = false>
  constexpr explicit OptionalArrayRef(U &&value) noexcept(
      std::is_nothrow_constructible_v<ArrayRef<T>, U &&>)
      : wrapped_opt_array_ref(std::forward<U>(value)) {}

  template <typename... Args>
  constexpr explicit OptionalArrayRef(std::in_place_t ip,
                                      Args &&...args) noexcept
      : wrapped_opt_array_ref(ip, std::forward<Args>(args)...) {}

  template <typename U, typename... Args>
  constexpr explicit OptionalArrayRef(std::in_place_t ip,
                                      std::initializer_list<U> il,
                                      Args &&...args)
      : wrapped_opt_array_ref(ip, il, std::forward<Args>(args)...) {}

  constexpr OptionalArrayRef(const std::initializer_list<T> &Vec)
      : wrapped_opt_array_ref(ArrayRef<T>(Vec)) {}

  ~OptionalArrayRef() = default;

  constexpr OptionalArrayRef &operator=(std::nullopt_t /*unused*/) noexcept {
    wrapped_opt_array_ref = std::nullopt;
    return *this;
  }
  OptionalArrayRef &operator=(const OptionalArrayRef &other) = default;
  OptionalArrayRef &operator=(OptionalArrayRef &&other) noexcept = default;

  [[nodiscard]] constexpr const ArrayRef<T> &operator*() const & noexcept {
    return wrapped_opt_array_ref.value();
  }
  [[nodiscard]] constexpr explicit operator bool() const noexcept {
    return wrapped_opt_array_ref.has_value();
  }
  [[nodiscard]] constexpr bool has_value() const noexcept {
    return wrapped_opt_array_ref.has_value();
  }
  [[nodiscard]] constexpr const ArrayRef<T> &value() const & {
    return wrapped_opt_array_ref.value();
  }
  [[nodiscard]] friend bool operator==(OptionalArrayRef a1, ArrayRef<T> other) {
    if (!a1.has_value()) {
      return false;
    }
    return a1.value() == other;
  }

private:
  std::optional<ArrayRef<T>> wrapped_opt_array_ref;
};

#else // LibTorch 1.13

template <typename T> class OptionalArrayRef final {
public:
  constexpr OptionalArrayRef() noexcept {}
  constexpr OptionalArrayRef(nullopt_t) noexcept {}
  OptionalArrayRef(const OptionalArrayRef &other) = default;
  OptionalArrayRef(OptionalArrayRef &&other) = default;
  constexpr OptionalArrayRef(const optional<ArrayRef<T>> &other) noexcept
      : wrapped_opt_array_ref(other) {}
  constexpr OptionalArrayRef(optional<ArrayRef<T>> &&other) noexcept
      : wrapped_opt_array_ref(other) {}
  constexpr OptionalArrayRef(const T &value) noexcept
      : wrapped_opt_array_ref(value) {}

  template <typename U = ArrayRef<T>,
            std::enable_if_t<
                !std::is_same<std::decay_t<U>, OptionalArrayRef>::value &&
                    !std::is_same<std::decay_t<U>, in_place_t>::value &&
                    std::is_constructible<ArrayRef<T>, U &&>::value &&
                    std::is_convertible<U &&, ArrayRef<T>>::value &&
                    !std::is_convertible<U &&, T>::value,
                bool> = false>
  constexpr OptionalArrayRef(U &&value) noexcept(
      std::is_nothrow_constructible<ArrayRef<T>, U &&>::value)
      : wrapped_opt_array_ref(value) {}

  template <typename U = ArrayRef<T>,
            std::enable_if_t<
                !std::is_same<std::decay_t<U>, OptionalArrayRef>::value &&
                    !std::is_same<std::decay_t<U>, in_place_t>::value &&
                    std::is_constructible<ArrayRef<T>, U &&>::value &&
                    !std::is_convertible<U &&, ArrayRef<T>>::value,
                bool> = false>
  constexpr explicit OptionalArrayRef(U &&value) noexcept(
      std::is_nothrow_constructible<ArrayRef<T>, U &&>::value)
      : wrapped_opt_array_ref(value) {}

  constexpr OptionalArrayRef(const std::initializer_list<T> &Vec)
      : wrapped_opt_array_ref(ArrayRef<T>(Vec)) {}

  ~OptionalArrayRef() = default;

  OptionalArrayRef &operator=(nullopt_t) noexcept {
    wrapped_opt_array_ref = nullopt;
    return *this;
  }
  OptionalArrayRef &operator=(const OptionalArrayRef &other) = default;
  OptionalArrayRef &operator=(OptionalArrayRef &&other) = default;

  constexpr bool has_value() const noexcept {
    return wrapped_opt_array_ref.has_value();
  }
  constexpr explicit operator bool() const noexcept { return has_value(); }
  constexpr const ArrayRef<T> &value() const & {
    return wrapped_opt_array_ref.value();
  }
  constexpr ArrayRef<T> operator*() const noexcept {
    return *wrapped_opt_array_ref;
  }

private:
  optional<ArrayRef<T>> wrapped_opt_array_ref;
};

#endif // LIBTORCH_MOCK_VERSION_MAJOR >= 2

using OptionalIntArrayRef = OptionalArrayRef<int64_t>;

} // namespace c10

// ---------------------------------------------------------------------------
// c10/util/variant.h (1.13: c10's own copy of mpark::variant; the converting
// constructor below has the same template head as the real one; 2.15 uses
// std::variant)
// ---------------------------------------------------------------------------
#if LIBTORCH_MOCK_VERSION_MAJOR >= 2

// LibTorch 2.15 has no c10/util/variant.h: std::variant.
#include <variant>

#else // LibTorch 1.13

namespace c10 {

template <std::size_t I> struct in_place_index_t;
template <typename T> struct in_place_type_t;

namespace lib {
template <typename T> using decay_t = typename std::decay<T>::type;
template <bool B, typename T = void>
using enable_if_t = typename std::enable_if<B, T>::type;

template <std::size_t I, typename... Ts> struct type_pack_element;
template <typename T, typename... Ts> struct type_pack_element<0, T, Ts...> {
  using type = T;
};
template <std::size_t I, typename T, typename... Ts>
struct type_pack_element<I, T, Ts...> : type_pack_element<I - 1, Ts...> {};
template <std::size_t I, typename... Ts>
using type_pack_element_t = typename type_pack_element<I, Ts...>::type;
} // namespace lib

namespace detail_ {
template <typename T> struct is_in_place_index : std::false_type {};
template <std::size_t I>
struct is_in_place_index<in_place_index_t<I>> : std::true_type {};
template <typename T> struct is_in_place_type : std::false_type {};
template <typename T>
struct is_in_place_type<in_place_type_t<T>> : std::true_type {};

// Overload resolution over the alternatives, as std::variant does.
template <std::size_t I, typename T> struct overload_leaf {
  static std::integral_constant<std::size_t, I> f(T);
};
template <typename Seq, typename... Ts> struct overload_set;
template <std::size_t... Is, typename... Ts>
struct overload_set<std::index_sequence<Is...>, Ts...>
    : overload_leaf<Is, Ts>... {
  using overload_leaf<Is, Ts>::f...;
};
template <typename Arg, typename... Ts>
struct best_match
    : decltype(overload_set<std::index_sequence_for<Ts...>, Ts...>::f(
          std::declval<Arg>())) {};

template <typename T, typename... Ts> struct find_index;
template <typename T, typename... Ts>
struct find_index<T, T, Ts...> : std::integral_constant<std::size_t, 0> {};
template <typename T, typename U, typename... Ts>
struct find_index<T, U, Ts...>
    : std::integral_constant<std::size_t, 1 + find_index<T, Ts...>::value> {};

constexpr std::size_t max_of() { return 1; }
template <typename... Ns> constexpr std::size_t max_of(std::size_t n, Ns... ns) {
  return n > max_of(ns...) ? n : max_of(ns...);
}
} // namespace detail_

template <typename... Ts> class variant {
public:
  constexpr variant() noexcept {}

  variant(const variant &) = default;
  variant(variant &&) = default;

  template <typename Arg, typename Decayed = lib::decay_t<Arg>,
            lib::enable_if_t<!std::is_same<Decayed, variant>::value, int> = 0,
            lib::enable_if_t<!detail_::is_in_place_index<Decayed>::value,
                             int> = 0,
            lib::enable_if_t<!detail_::is_in_place_type<Decayed>::value,
                             int> = 0,
            std::size_t I = detail_::best_match<Arg, Ts...>::value,
            typename T = lib::type_pack_element_t<
                detail_::best_match<Arg, Ts...>::value, Ts...>,
            lib::enable_if_t<std::is_constructible<T, Arg>::value, int> = 0>
  inline constexpr variant(Arg &&arg) noexcept(
      std::is_nothrow_constructible<T, Arg>::value)
      : index_(I) {}

  ~variant() = default;

  variant &operator=(const variant &) = default;
  variant &operator=(variant &&) = default;

  template <
      typename Arg,
      lib::enable_if_t<!std::is_same<lib::decay_t<Arg>, variant>::value, int> =
          0,
      std::size_t I = detail_::best_match<Arg, Ts...>::value,
      typename T = lib::type_pack_element_t<
          detail_::best_match<Arg, Ts...>::value, Ts...>,
      lib::enable_if_t<(std::is_assignable<T &, Arg>::value &&
                        std::is_constructible<T, Arg>::value),
                       int> = 0>
  inline variant &operator=(Arg &&arg) noexcept(
      (std::is_nothrow_assignable<T &, Arg>::value &&
       std::is_nothrow_constructible<T, Arg>::value)) {
    index_ = I;
    return *this;
  }

  constexpr bool valueless_by_exception() const noexcept { return false; }
  constexpr std::size_t index() const noexcept { return index_; }

  template <typename T> constexpr T *mock_get() noexcept {
    return reinterpret_cast<T *>(storage_);
  }
  template <typename T> constexpr const T *mock_get() const noexcept {
    return reinterpret_cast<const T *>(storage_);
  }

private:
  alignas(Ts...) unsigned char storage_[detail_::max_of(sizeof(Ts)...)] = {};
  std::size_t index_ = 0;
};

template <typename T, typename... Ts>
inline constexpr bool holds_alternative(const variant<Ts...> &v) noexcept {
  return v.index() == detail_::find_index<T, Ts...>::value;
}
template <typename T, typename... Ts>
inline constexpr T &get(variant<Ts...> &v) {
  return *v.template mock_get<T>();
}
template <typename T, typename... Ts>
inline constexpr const T &get(const variant<Ts...> &v) {
  return *v.template mock_get<T>();
}
template <typename T, typename... Ts>
inline constexpr T *get_if(variant<Ts...> *v) noexcept {
  return holds_alternative<T>(*v) ? v->template mock_get<T>() : nullptr;
}
template <typename T, typename... Ts>
inline constexpr const T *get_if(const variant<Ts...> *v) noexcept {
  return holds_alternative<T>(*v) ? v->template mock_get<T>() : nullptr;
}
template <typename Visitor, typename T, typename... Ts>
inline constexpr decltype(auto) visit(Visitor &&visitor,
                                      const variant<T, Ts...> &v) {
  return std::forward<Visitor>(visitor)(*v.template mock_get<T>());
}

} // namespace c10

#endif // LIBTORCH_MOCK_VERSION_MAJOR >= 2

// ---------------------------------------------------------------------------
// c10/util/Half.h, c10/util/BFloat16.h, c10/util/complex.h
// ---------------------------------------------------------------------------
namespace c10 {

struct alignas(2) Half {
  unsigned short x;
  Half() = default;
  inline Half(float value) : x(static_cast<unsigned short>(value)) {}
  inline operator float() const { return static_cast<float>(x); }
};

struct alignas(2) BFloat16 {
  uint16_t x;
  BFloat16() = default;
  inline BFloat16(float value) : x(static_cast<uint16_t>(value)) {}
  inline operator float() const { return static_cast<float>(x); }
};

template <typename T> struct alignas(sizeof(T) * 2) complex {
  using value_type = T;
  T real_ = T(0);
  T imag_ = T(0);
  constexpr complex() = default;
  constexpr complex(const T &re, const T &im = T()) : real_(re), imag_(im) {}
  constexpr T real() const { return real_; }
  constexpr T imag() const { return imag_; }
};

#if LIBTORCH_MOCK_VERSION_MAJOR >= 2
// torch/headeronly/util/complex_utils.h
template <typename T> struct is_complex : public std::false_type {};
template <typename T>
struct is_complex<c10::complex<T>> : public std::true_type {};
#endif

} // namespace c10

#if LIBTORCH_MOCK_VERSION_MAJOR >= 2
// ---------------------------------------------------------------------------
// c10/core/SymInt.h (2.15: at::indexing::Slice takes std::optional<SymInt>)
// ---------------------------------------------------------------------------
namespace c10 {

class C10_API SymInt {
public:
  /*implicit*/ SymInt(int64_t d) : data_(d) {}
  SymInt() : data_(0) {}
  int64_t expect_int() const { return data_; }

private:
  int64_t data_;
};

} // namespace c10
#endif
