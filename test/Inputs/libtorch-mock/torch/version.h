// Mock of torch/version.h.
//
// Default: the values of Debian's libtorch-dev 1.13.1 headers, whose
// torch/version.h says 1.13.0 (the package is 1.13.1, the generated header
// was not bumped). With -DLIBTORCH_MOCK_VERSION_MAJOR=2: LibTorch 2.15.0, whose
// torch/version.h includes torch/headeronly/version.h for these macros.
#pragma once

/// Defined by every mock header; real LibTorch never defines it.
#define LIBTORCH_MOCK 1

#ifndef LIBTORCH_MOCK_VERSION_MAJOR
#define LIBTORCH_MOCK_VERSION_MAJOR 1
#endif

#if LIBTORCH_MOCK_VERSION_MAJOR >= 2

/// Indicates the major version of LibTorch.
#define TORCH_VERSION_MAJOR 2

/// Indicates the minor version of LibTorch.
#define TORCH_VERSION_MINOR 15

/// Indicates the patch version of LibTorch.
#define TORCH_VERSION_PATCH 0

/// Indicates the ABI version tag of LibTorch.
#define TORCH_VERSION_ABI_TAG 0

/// Indicates the version of LibTorch.
#define TORCH_VERSION "2.15.0"

#else

/// Indicates the major version of LibTorch.
#define TORCH_VERSION_MAJOR 1

/// Indicates the minor version of LibTorch.
#define TORCH_VERSION_MINOR 13

/// Indicates the patch version of LibTorch.
#define TORCH_VERSION_PATCH 0

/// Indicates the version of LibTorch.
#define TORCH_VERSION "1.13.0"

#endif
