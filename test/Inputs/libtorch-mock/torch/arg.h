// Mock of torch/arg.h (the TORCH_ARG option-setter macro), as in LibTorch 1.13.
// Setters return `decltype(*this)` (a reference to the options object), so
// chains like `Conv2dOptions(1, 8, 3).stride(2).bias(false)` keep the type.
#pragma once

#include <utility>

#define TORCH_ARG(T, name)                                                     \
public:                                                                        \
  inline auto name(const T &new_##name)->decltype(*this) { /* NOLINT */       \
    this->name##_ = new_##name;                                                \
    return *this;                                                              \
  }                                                                            \
  inline auto name(T &&new_##name)->decltype(*this) { /* NOLINT */            \
    this->name##_ = std::move(new_##name);                                     \
    return *this;                                                              \
  }                                                                            \
  inline const T &name() const noexcept { /* NOLINT */                         \
    return this->name##_;                                                      \
  }                                                                            \
  inline T &name() noexcept { /* NOLINT */                                     \
    return this->name##_;                                                      \
  }                                                                            \
                                                                               \
private:                                                                       \
  T name##_ /* NOLINT */
