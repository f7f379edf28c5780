//===--- IncludePrefixTest.cpp - The system includes a unit starts with ---===//
//
// Part of libtorch-tidy. SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

#include "preamble/IncludePrefix.h"
#include "gtest/gtest.h"

using namespace libtorch_tidy::preamble;

// Named, not anonymous: the unit tests compile in unity batches
// (CMakeLists.txt), where the helpers of one file must not meet another's.
namespace include_prefix_test {

std::vector<std::string> headers(llvm::StringRef Text) {
  return leadingSystemIncludes(Text).Headers;
}

using Headers = std::vector<std::string>;

TEST(IncludePrefixTest, LeadingAngleIncludesAfterComments) {
  EXPECT_EQ(headers("// A training program.\n"
                    "/* two\n   lines */\n"
                    "\n"
                    "#include <cstdint>\n"
                    "  #  include\t<vector> // for the batches\n"
                    "#include<torch/torch.h>\r\n"
                    "\n"
                    "int main() {}\n"),
            (Headers{"cstdint", "vector", "torch/torch.h"}));
}

TEST(IncludePrefixTest, EndsWithTheLastLibTorchHeader) {
  // The standard headers after it are each file's own choice: cut there,
  // units that start with <torch/torch.h> share one prefix.
  EXPECT_EQ(headers("#include <torch/torch.h>\n#include <iostream>\n"
                    "#include <vector>\n"),
            Headers{"torch/torch.h"});
  EXPECT_EQ(headers("#include <vector>\n#include <ATen/Parallel.h>\n"
                    "#include <c10/util/Optional.h>\n#include <cmath>\n"),
            (Headers{"vector", "ATen/Parallel.h", "c10/util/Optional.h"}));
  EXPECT_EQ(headers("#include <torch/script.h>\n#include <map>\n"
                    "#include <caffe2/serialize/inline_container.h>\n"),
            (Headers{"torch/script.h", "map",
                     "caffe2/serialize/inline_container.h"}));
  // Without a LibTorch header, all of them.
  EXPECT_EQ(headers("#include <vector>\n#include <cmath>\n"),
            (Headers{"vector", "cmath"}));
  // Only the directories LibTorch installs count.
  EXPECT_EQ(headers("#include <torchvision/vision.h>\n#include <map>\n"),
            (Headers{"torchvision/vision.h", "map"}));
}

TEST(IncludePrefixTest, StopsAtTheFirstOtherLine) {
  // A quoted include is usually the project's own header.
  EXPECT_EQ(headers("#include <torch/torch.h>\n#include \"model.h\"\n"
                    "#include <vector>\n"),
            Headers{"torch/torch.h"});
  // A macro defined first changes what the headers mean.
  EXPECT_EQ(headers("#define NDEBUG\n#include <torch/torch.h>\n"), Headers{});
  EXPECT_EQ(headers("#include <torch/torch.h>\n#ifdef X\n#include <a>\n"),
            Headers{"torch/torch.h"});
  EXPECT_EQ(headers("#include_next <torch/torch.h>\n"), Headers{});
  EXPECT_EQ(headers("#includes <torch/torch.h>\n"), Headers{});
  EXPECT_EQ(headers("int x;\n#include <vector>\n"), Headers{});
  EXPECT_EQ(headers(""), Headers{});
}

TEST(IncludePrefixTest, RefusesWhatIsNotReadExactly) {
  // A line continuation, a comment that opens on the line, a comment that
  // continues on the next line, an unterminated name.
  EXPECT_EQ(headers("#include <torch/torch.h>\n#include <vec\\\ntor>\n"),
            Headers{"torch/torch.h"});
  EXPECT_EQ(headers("#include <a> /* x */\n"), Headers{});
  EXPECT_EQ(headers("#include <a> // x \\\n#define Y\n"), Headers{});
  EXPECT_EQ(headers("#include <a\n"), Headers{});
  EXPECT_EQ(headers("#include <>\n"), Headers{});
  EXPECT_EQ(headers("/* never closed\n#include <a>\n"), Headers{});
  EXPECT_EQ(headers("// x \\\n#include <a>\n"), Headers{});
}

TEST(IncludePrefixTest, ByteOrderMark) {
  EXPECT_EQ(headers("\xEF\xBB\xBF#include <torch/torch.h>\n"),
            Headers{"torch/torch.h"});
}

TEST(IncludePrefixTest, HeaderTextIsGuarded) {
  IncludePrefix Prefix{{"vector", "torch/torch.h"}};
  EXPECT_EQ(Prefix.headerText(), "#ifndef LIBTORCH_TIDY_INCLUDE_PREFIX\n"
                                 "#define LIBTORCH_TIDY_INCLUDE_PREFIX\n"
                                 "#include <vector>\n"
                                 "#include <torch/torch.h>\n"
                                 "#endif\n");
  // A prefix of its own text is the same prefix: the scan and the header
  // agree.
  EXPECT_EQ(
      leadingSystemIncludes("#include <vector>\n#include <torch/torch.h>\n"),
      Prefix);
}

} // namespace include_prefix_test
