//===--- CudaCommandsTest.cpp - nvcc entries of a compilation database ---===//
//
// Part of libtorch-tidy. SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

#include "units/CudaCommands.h"

#include "gtest/gtest.h"

using namespace libtorch_tidy;
using Args = std::vector<std::string>;

// Named, not anonymous: the unit tests compile in unity batches
// (CMakeLists.txt), where the helpers of one file must not meet another's.
namespace cuda_commands_test {

TEST(CudaCommandsTest, RecognizesNvccAndCudaSources) {
  EXPECT_TRUE(isNvccCommand(Args{"/usr/local/cuda/bin/nvcc", "-c", "a.cu"}));
  EXPECT_FALSE(isNvccCommand(Args{"/usr/bin/c++", "-c", "a.cpp"}));
  EXPECT_FALSE(isNvccCommand(Args{}));
  EXPECT_TRUE(isCudaSource("/s/k.cu", {}));
  EXPECT_TRUE(isCudaSource("/s/k.CUH", {}));
  EXPECT_TRUE(
      isCudaSource("/s/k.cpp", Args{"nvcc", "-x", "cu", "-c", "k.cpp"}));
  EXPECT_TRUE(isCudaSource("/s/k.cpp", Args{"clang++", "-xcuda", "k.cpp"}));
  EXPECT_FALSE(isCudaSource("/s/k.cpp", Args{"nvcc", "-x", "c++", "k.cpp"}));
  EXPECT_FALSE(isCudaSource("/s/train.cpp", Args{"c++", "-c", "train.cpp"}));
}

TEST(CudaCommandsTest, NvccHostCommandKeepsOnlyHostFlags) {
  Args Nvcc = {"/usr/local/cuda/bin/nvcc",
               "-ccbin",
               "/usr/bin/g++-12",
               "-DTORCH_EXT",
               "-I/src/include",
               "--include-path",
               "/src/more",
               "-isystem",
               "/usr/include/torch",
               "--expt-relaxed-constexpr",
               "--extended-lambda",
               "-gencode",
               "arch=compute_80,code=sm_80",
               "-gencode=arch=compute_90,code=sm_90",
               "-arch=sm_80",
               "-Xcompiler",
               "-fPIC,-Wall",
               "-Xcompiler=-fopenmp",
               "--compiler-options",
               "-O2",
               "-rdc=true",
               "-Xptxas",
               "-v",
               "--std",
               "c++17",
               "--optimize",
               "3",
               "--some-future-nvcc-flag",
               "-c",
               "/src/train.cpp",
               "-o",
               "train.o"};
  EXPECT_EQ(hostCommandFromNvcc(Nvcc),
            (Args{"/usr/bin/g++-12", "-DTORCH_EXT", "-I/src/include", "-I",
                  "/src/more", "-isystem", "/usr/include/torch", "-fPIC",
                  "-Wall", "-fopenmp", "-O2", "-std=c++17", "-O3", "-c",
                  "/src/train.cpp", "-o", "train.o"}));
  // A -ccbin that names a directory or a C compiler leaves `c++`.
  EXPECT_EQ(hostCommandFromNvcc(
                Args{"nvcc", "-ccbin", "/opt/gcc/bin", "-c", "a.cpp"}),
            (Args{"c++", "-c", "a.cpp"}));
}

} // namespace cuda_commands_test
