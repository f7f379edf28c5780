//===--- FileIOTest.cpp - Outputs never half written, inputs bounded ------===//
//
// Part of libtorch-tidy. SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

#include "io/FileIO.h"

#include "llvm/ADT/SmallString.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"

#include "gtest/gtest.h"

#include <fcntl.h>
#include <filesystem>
#include <sys/stat.h>
#include <unistd.h>

using namespace libtorch_tidy::io;
namespace fs = llvm::sys::fs;

// Named, not anonymous: the unit tests compile in unity batches
// (CMakeLists.txt), where the helpers of one file must not meet another's.
namespace file_i_o_test {

class FileIOTest : public ::testing::Test {
protected:
  void SetUp() override {
    ASSERT_FALSE(fs::createUniqueDirectory("file-io", Dir));
  }
  // std::filesystem: llvm::sys::fs::remove() refuses the FIFOs the tests
  // make, and would leave the directory behind.
  void TearDown() override {
    std::error_code EC;
    std::filesystem::remove_all(std::string(Dir), EC);
  }

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
  static mode_t modeOf(const std::string &Path) {
    struct stat S;
    return ::lstat(Path.c_str(), &S) == 0 ? S.st_mode : 0;
  }

  llvm::SmallString<128> Dir;
};

TEST_F(FileIOTest, WritesAndReplacesLeavingNoTemporary) {
  std::string Out = file("out.sarif");
  ASSERT_FALSE(writeFile(Out, "first\n", FileMode::Fresh));
  EXPECT_EQ(read(Out), "first\n");
  ASSERT_FALSE(writeFile(Out, "second\n", FileMode::Fresh));
  EXPECT_EQ(read(Out), "second\n");
  EXPECT_EQ(entries(), 1u);
}

TEST_F(FileIOTest, ReportsHonourTheUmask) {
  mode_t Old = ::umask(022);
  std::string Out = file("report.json");
  ASSERT_FALSE(writeFile(Out, "{}", FileMode::Fresh));
  ::umask(027);
  std::string Other = file("other.json");
  ASSERT_FALSE(writeFile(Other, "{}", FileMode::Fresh));
  ::umask(Old);
  EXPECT_EQ(modeOf(Out) & 07777, 0644u);
  EXPECT_EQ(modeOf(Other) & 07777, 0640u);
}

TEST_F(FileIOTest, PreserveKeepsTheModeAndNeedsAnExistingFile) {
  std::string Source = file("train.cpp");
  ASSERT_FALSE(writeFile(Source, "old", FileMode::Fresh));
  ASSERT_EQ(::chmod(Source.c_str(), 0750), 0);
  ASSERT_FALSE(writeFile(Source, "new", FileMode::Preserve));
  EXPECT_EQ(read(Source), "new");
  EXPECT_EQ(modeOf(Source) & 07777, 0750u);
  EXPECT_TRUE(writeFile(file("absent.cpp"), "x", FileMode::Preserve));
  EXPECT_EQ(entries(), 1u);
}

TEST_F(FileIOTest, NewPrivateIsOnlyItsOwnersAndReplacesNothing) {
  std::string Key = file("signing.key");
  ASSERT_FALSE(writeFile(Key, "secret\n", FileMode::NewPrivate));
  EXPECT_EQ(read(Key), "secret\n");
  EXPECT_EQ(modeOf(Key) & 07777, 0600u);
  // An existing file, or a link that names nothing yet, stays as it is.
  std::optional<std::string> E = writeFile(Key, "other", FileMode::NewPrivate);
  ASSERT_TRUE(E);
  EXPECT_EQ(*E, "cannot write '" + Key +
                    "': it exists; it was left as it is (name a new file)");
  EXPECT_EQ(read(Key), "secret\n");
  std::string Dangling = file("dangling.key");
  ASSERT_EQ(::symlink(file("elsewhere").c_str(), Dangling.c_str()), 0);
  EXPECT_TRUE(writeFile(Dangling, "other", FileMode::NewPrivate));
  EXPECT_TRUE(S_ISLNK(modeOf(Dangling)));
  EXPECT_EQ(entries(), 2u); // no temporary file left
}

TEST_F(FileIOTest, MissingDirectoryIsAOneLineErrorNamingTheFile) {
  std::string Out = file("missing/out.json");
  std::optional<std::string> E = writeFile(Out, "x", FileMode::Fresh);
  ASSERT_TRUE(E);
  EXPECT_NE(E->find("cannot write '" + Out + "'"), std::string::npos);
  EXPECT_EQ(E->find('\n'), std::string::npos);
  EXPECT_TRUE(checkWritable(Out));
  EXPECT_EQ(entries(), 0u);
}

TEST_F(FileIOTest, DirectoryAsOutputKeepsTheDirectory) {
  std::string Sub = file("sub");
  ASSERT_FALSE(fs::create_directory(Sub));
  std::optional<std::string> E = writeFile(Sub, "x", FileMode::Fresh);
  ASSERT_TRUE(E);
  EXPECT_NE(E->find("is a directory"), std::string::npos);
  EXPECT_TRUE(checkWritable(Sub));
  EXPECT_TRUE(fs::is_directory(Sub));
  EXPECT_EQ(entries(), 1u);
}

TEST_F(FileIOTest, SymlinkIsFollowedAndStaysALink) {
  std::string Target = file("target.txt");
  std::string Link = file("link.txt");
  ASSERT_FALSE(writeFile(Target, "old", FileMode::Fresh));
  ASSERT_EQ(::symlink("target.txt", Link.c_str()), 0);
  ASSERT_FALSE(writeFile(Link, "new", FileMode::Fresh));
  EXPECT_TRUE(S_ISLNK(modeOf(Link)));
  EXPECT_EQ(read(Target), "new");
  // A dangling link creates its target.
  std::string Dangling = file("dangling.txt");
  ASSERT_EQ(::symlink("created.txt", Dangling.c_str()), 0);
  ASSERT_FALSE(writeFile(Dangling, "made", FileMode::Fresh));
  EXPECT_TRUE(S_ISLNK(modeOf(Dangling)));
  EXPECT_EQ(read(file("created.txt")), "made");
  EXPECT_EQ(entries(), 4u);
}

TEST_F(FileIOTest, FifoIsWrittenThroughNotReplaced) {
  std::string Fifo = file("pipe");
  ASSERT_EQ(::mkfifo(Fifo.c_str(), 0600), 0);
  // A reader that holds the FIFO open, so the write does not block.
  int Reader = ::open(Fifo.c_str(), O_RDONLY | O_NONBLOCK);
  ASSERT_GE(Reader, 0);
  ASSERT_FALSE(checkWritable(Fifo));
  ASSERT_FALSE(writeFile(Fifo, "through", FileMode::Fresh));
  char Buffer[16] = {};
  EXPECT_EQ(::read(Reader, Buffer, sizeof Buffer), 7);
  EXPECT_EQ(std::string(Buffer), "through");
  ::close(Reader);
  EXPECT_TRUE(S_ISFIFO(modeOf(Fifo)));
  // A FIFO is never a file --fix may replace.
  EXPECT_TRUE(writeFile(Fifo, "x", FileMode::Preserve));
  EXPECT_TRUE(S_ISFIFO(modeOf(Fifo)));
}

TEST_F(FileIOTest, OwnedReplacesLinksAndFifosWithoutTouchingWhatTheyName) {
  // A cache directory's entry that someone made a link: the entry becomes
  // a file of ours, the link's target keeps its bytes.
  std::string Target = file("users-file.txt");
  std::string Link = file("entry");
  ASSERT_FALSE(writeFile(Target, "the user's", FileMode::Fresh));
  ASSERT_EQ(::symlink("users-file.txt", Link.c_str()), 0);
  ASSERT_FALSE(writeFile(Link, "cached", FileMode::Owned));
  EXPECT_TRUE(S_ISREG(modeOf(Link)));
  EXPECT_EQ(read(Link), "cached");
  EXPECT_EQ(read(Target), "the user's");
  // A FIFO without a reader: replaced, not opened (which would block).
  std::string Fifo = file("fifo-entry");
  ASSERT_EQ(::mkfifo(Fifo.c_str(), 0600), 0);
  ASSERT_FALSE(writeFile(Fifo, "cached", FileMode::Owned));
  EXPECT_TRUE(S_ISREG(modeOf(Fifo)));
  // A directory stays one, and the error names it.
  std::string Directory = file("dir-entry");
  ASSERT_FALSE(fs::create_directory(Directory));
  std::optional<std::string> Error = writeFile(Directory, "x", FileMode::Owned);
  ASSERT_TRUE(Error);
  EXPECT_NE(Error->find("dir-entry"), std::string::npos);
  EXPECT_TRUE(S_ISDIR(modeOf(Directory)));
  EXPECT_EQ(entries(), 4u);
}

TEST_F(FileIOTest, FullDeviceIsAnErrorNamingTheCauseAndStaysADevice) {
  if (::access("/dev/full", W_OK) != 0)
    GTEST_SKIP() << "/dev/full is not writable here";
  std::optional<std::string> E = writeFile("/dev/full", "x", FileMode::Fresh);
  ASSERT_TRUE(E);
  EXPECT_NE(E->find("No space left on device"), std::string::npos) << *E;
  EXPECT_TRUE(S_ISCHR(modeOf("/dev/full")));
}

TEST_F(FileIOTest, ReadsAreBoundedAndRefuseDevicesAndFifos) {
  std::string Error;
  EXPECT_FALSE(readRegularFile("/dev/zero", MaxReportBytes, "report", Error));
  EXPECT_NE(Error.find("not a regular file"), std::string::npos) << Error;
  std::string Fifo = file("pipe");
  ASSERT_EQ(::mkfifo(Fifo.c_str(), 0600), 0);
  Error.clear();
  EXPECT_FALSE(readRegularFile(Fifo, MaxReportBytes, "baseline", Error));
  EXPECT_NE(Error.find("baseline '" + Fifo + "'"), std::string::npos) << Error;

  std::string Big = file("big.json");
  ASSERT_FALSE(writeFile(Big, std::string(2048, 'x'), FileMode::Fresh));
  Error.clear();
  EXPECT_FALSE(readRegularFile(Big, 1024, "report", Error));
  EXPECT_NE(Error.find("more than"), std::string::npos) << Error;
  std::optional<std::string> Whole =
      readRegularFile(Big, 4096, "report", Error);
  ASSERT_TRUE(Whole);
  EXPECT_EQ(Whole->size(), 2048u);

  int Zero = ::open("/dev/zero", O_RDONLY);
  ASSERT_GE(Zero, 0);
  Error.clear();
  EXPECT_FALSE(readStream(Zero, 1 << 20, "standard input", Error));
  EXPECT_NE(Error.find("longer than"), std::string::npos) << Error;
  ::close(Zero);
}

} // namespace file_i_o_test
