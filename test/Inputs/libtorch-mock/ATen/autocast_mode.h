// Mock of ATen/autocast_mode.h (at::autocast), for fast check tests.
//
// torch/torch.h does not include this header in real LibTorch either; code
// that uses autocast includes <ATen/autocast_mode.h> itself.
//
// LibTorch 1.13 (default): CUDA-only spellings set_enabled(bool),
// is_enabled(), clear_cache(), set_autocast_gpu_dtype(ScalarType), ...
// LibTorch 2.15 (-DLIBTORCH_MOCK_VERSION_MAJOR=2): device-generic spellings
// set_autocast_enabled(DeviceType, bool), is_autocast_enabled(DeviceType),
// get/set_autocast_dtype(DeviceType, ...); the old CUDA-only spellings
// (set_enabled, is_enabled, get/set_autocast_gpu_dtype) and the per-backend
// ones (set_cpu_enabled, ..., set_mtia_enabled, ...) remain as deprecated
// inline wrappers.
#pragma once

#include <ATen/ATen.h>

namespace at {
namespace autocast {

#if LIBTORCH_MOCK_VERSION_MAJOR >= 2

TORCH_API bool is_autocast_enabled(at::DeviceType device_type);
TORCH_API void set_autocast_enabled(at::DeviceType device_type, bool enabled);
TORCH_API at::ScalarType get_autocast_dtype(at::DeviceType device_type);
TORCH_API void set_autocast_dtype(at::DeviceType device_type,
                                  at::ScalarType dtype);
TORCH_API void clear_cache();
TORCH_API int increment_nesting();
TORCH_API int decrement_nesting();
TORCH_API bool is_autocast_cache_enabled();
TORCH_API void set_autocast_cache_enabled(bool enabled);

// deprecated CUDA-specific autocast APIs
C10_DEPRECATED_MESSAGE(
    "at::autocast::is_enabled() is deprecated. Please use "
    "at::autocast::is_autocast_enabled(at::kCUDA) instead.")
inline bool is_enabled() { return is_autocast_enabled(at::kCUDA); }
C10_DEPRECATED_MESSAGE(
    "at::autocast::set_enabled(enabled) is deprecated. Please use "
    "at::autocast::set_autocast_enabled(at::kCUDA, enabled) instead.")
inline void set_enabled(bool enabled) {
  set_autocast_enabled(at::kCUDA, enabled);
}
C10_DEPRECATED_MESSAGE(
    "at::autocast::get_autocast_gpu_dtype() is deprecated. Please use "
    "at::autocast::get_autocast_dtype(at::kCUDA) instead.")
inline at::ScalarType get_autocast_gpu_dtype() {
  return get_autocast_dtype(at::kCUDA);
}
C10_DEPRECATED_MESSAGE(
    "at::autocast::set_autocast_gpu_dtype(dtype) is deprecated. Please use "
    "at::autocast::set_autocast_dtype(at::kCUDA, dtype) instead.")
inline void set_autocast_gpu_dtype(at::ScalarType dtype) {
  set_autocast_dtype(at::kCUDA, dtype);
}

#define DECLARE_DEPRECATED_AUTOCAST_APIS(name, device_type)                   \
  C10_DEPRECATED_MESSAGE(                                                      \
      "at::autocast::is_" #name                                                \
      "_enabled() is deprecated. Please use "                                  \
      "at::autocast::is_autocast_enabled(" #device_type ") instead.")          \
  inline bool is_##name##_enabled() {                                          \
    return is_autocast_enabled(device_type);                                   \
  }                                                                            \
                                                                               \
  C10_DEPRECATED_MESSAGE(                                                      \
      "at::autocast::set_" #name                                               \
      "_enabled(enabled) is deprecated. Please use "                           \
      "at::autocast::set_autocast_enabled(" #device_type                       \
      ", enabled) instead.")                                                   \
  inline void set_##name##_enabled(bool enabled) {                             \
    set_autocast_enabled(device_type, enabled);                                \
  }                                                                            \
                                                                               \
  C10_DEPRECATED_MESSAGE(                                                      \
      "at::autocast::get_autocast_" #name                                      \
      "_dtype() is deprecated. Please use "                                    \
      "at::autocast::get_autocast_dtype(" #device_type ") instead.")           \
  inline at::ScalarType get_autocast_##name##_dtype() {                        \
    return get_autocast_dtype(device_type);                                    \
  }                                                                            \
                                                                               \
  C10_DEPRECATED_MESSAGE(                                                      \
      "at::autocast::set_autocast_" #name                                      \
      "_dtype(dtype) is deprecated. Please use "                               \
      "at::autocast::set_autocast_dtype(" #device_type ", dtype) instead.")    \
  inline void set_autocast_##name##_dtype(at::ScalarType dtype) {              \
    set_autocast_dtype(device_type, dtype);                                    \
  }

#define AT_FORALL_DEPRECATED_AUTOCAST_BACKENDS(_)                              \
  _(cpu, at::kCPU)                                                             \
  _(mtia, at::kMTIA)                                                           \
  _(xpu, at::kXPU)                                                             \
  _(xla, at::kXLA)                                                             \
  _(hpu, at::kHPU)                                                             \
  _(ipu, at::kIPU)                                                             \
  _(privateuseone, at::kPrivateUse1)

// deprecated other backend specific autocast APIs
AT_FORALL_DEPRECATED_AUTOCAST_BACKENDS(DECLARE_DEPRECATED_AUTOCAST_APIS)

#else // LibTorch 1.13

TORCH_API bool is_enabled();
TORCH_API void set_enabled(bool enabled);
TORCH_API void clear_cache();
TORCH_API int increment_nesting();
TORCH_API int decrement_nesting();
TORCH_API bool is_cpu_enabled();
TORCH_API void set_cpu_enabled(bool enabled);
TORCH_API at::ScalarType get_autocast_gpu_dtype();
TORCH_API at::ScalarType get_autocast_cpu_dtype();
TORCH_API void set_autocast_gpu_dtype(at::ScalarType dtype);
TORCH_API void set_autocast_cpu_dtype(at::ScalarType dtype);
TORCH_API bool is_xpu_enabled();
TORCH_API void set_xpu_enabled(bool enabled);
TORCH_API at::ScalarType get_autocast_xpu_dtype();
TORCH_API void set_autocast_xpu_dtype(at::ScalarType dtype);
TORCH_API bool is_autocast_cache_enabled();
TORCH_API void set_autocast_cache_enabled(bool enabled);

#endif // LIBTORCH_MOCK_VERSION_MAJOR >= 2

TORCH_API Tensor cached_cast(at::ScalarType to_type, const Tensor &arg,
                             c10::DeviceType device_type =
                                 c10::DeviceType::CUDA);

} // namespace autocast
} // namespace at
