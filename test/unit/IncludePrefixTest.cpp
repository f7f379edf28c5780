//===--- IncludePrefixTest.cpp - The system includes a unit starts with ---===//
//
// Part of libtorch-tidy. SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

#include "preamble/IncludePrefix.h"
#include "gtest/gtest.h"

using namespace libtorch_tidy::preamble;

namespace {

std::vector<std::string> headers(llvm::StringRef Text) {
  return leadingSystemIncludes(Text).Headers;
}

using Headers = std::vector<std::string>;

TEST(IncludePrefixTest, LeadingAngleIncludesAfterComments) {
  EXPECT_EQ(headers("// A training program.\n"
                    "/* two\n   lines */\n"
                    "\n"
                    "#include <torch/torch.h>\n"
                    "  #  include\t<vector> // for the batches\n"
                    "#include<cstdio>\r\n"
                    "\n"
                    "int main() {}\n"),
            (Headers{"torch/torch.h", "vector", "cstdio"}));
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
  IncludePrefix Prefix{{"torch/torch.h", "vector"}};
  EXPECT_EQ(Prefix.headerText(), "#ifndef LIBTORCH_TIDY_INCLUDE_PREFIX\n"
                                 "#define LIBTORCH_TIDY_INCLUDE_PREFIX\n"
                                 "#include <torch/torch.h>\n"
                                 "#include <vector>\n"
                                 "#endif\n");
  // A prefix of its own text is the same prefix: the scan and the header
  // agree.
  EXPECT_EQ(
      leadingSystemIncludes("#include <torch/torch.h>\n#include <vector>\n"),
      Prefix);
}

} // namespace
