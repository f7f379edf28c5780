//===--- AtomicOutputTest.cpp - Output files never half written -----------===//
//
// Part of libtorch-tidy. SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

#include "report/AtomicOutput.h"

#include "llvm/ADT/SmallString.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"

#include "gtest/gtest.h"

using namespace libtorch_tidy::report;
namespace fs = llvm::sys::fs;

namespace {

class AtomicOutputTest : public ::testing::Test {
protected:
  void SetUp() override {
    ASSERT_FALSE(fs::createUniqueDirectory("atomic-output", Dir));
  }
  void TearDown() override { fs::remove_directories(Dir); }

  std::string file(llvm::StringRef Name) const {
    llvm::SmallString<128> Path(Dir);
    llvm::sys::path::append(Path, Name);
    return std::string(Path);
  }
  std::string read(llvm::StringRef Path) const {
    auto Buffer = llvm::MemoryBuffer::getFile(Path);
    return Buffer ? (*Buffer)->getBuffer().str() : "<unreadable>";
  }
  unsigned entries() const {
    std::error_code EC;
    unsigned Count = 0;
    for (fs::directory_iterator It(Dir, EC), End; It != End && !EC;
         It.increment(EC))
      ++Count;
    return Count;
  }

  llvm::SmallString<128> Dir;
};

TEST_F(AtomicOutputTest, WritesAndReplacesLeavingNoTemporary) {
  std::string Out = file("out.sarif");
  ASSERT_FALSE(static_cast<bool>(writeFileAtomically(Out, "first\n")));
  EXPECT_EQ(read(Out), "first\n");
  ASSERT_FALSE(static_cast<bool>(writeFileAtomically(Out, "second\n")));
  EXPECT_EQ(read(Out), "second\n");
  EXPECT_EQ(entries(), 1u);
}

TEST_F(AtomicOutputTest, MissingDirectoryIsAOneLineErrorNamingTheFile) {
  std::string Out = file("missing/out.json");
  llvm::Error E = writeFileAtomically(Out, "x");
  ASSERT_TRUE(static_cast<bool>(E));
  std::string Message = llvm::toString(std::move(E));
  EXPECT_NE(Message.find("cannot write '" + Out + "'"), std::string::npos);
  EXPECT_EQ(Message.find('\n'), std::string::npos);
  EXPECT_EQ(entries(), 0u);
}

TEST_F(AtomicOutputTest, DirectoryAsOutputKeepsTheDirectory) {
  std::string Sub = file("sub");
  ASSERT_FALSE(fs::create_directory(Sub));
  llvm::Error E = writeFileAtomically(Sub, "x");
  ASSERT_TRUE(static_cast<bool>(E));
  EXPECT_NE(llvm::toString(std::move(E)).find("is a directory"),
            std::string::npos);
  EXPECT_TRUE(fs::is_directory(Sub));
  EXPECT_EQ(entries(), 1u);
}

} // namespace
