//===--- PreambleStoreTest.cpp - Precompiled prefixes in the cache --------===//
//
// Part of libtorch-tidy. SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

#include "cache/PreambleStore.h"
#include "cache/Dependencies.h"
#include "run/DetachedPrefixBuild.h"

#include "llvm/ADT/SmallString.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/raw_ostream.h"

#include "gtest/gtest.h"

#include <csignal>
#include <fcntl.h>
#include <filesystem>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

using namespace libtorch_tidy;
using namespace libtorch_tidy::cache;
namespace fs = llvm::sys::fs;

// Named, not anonymous: the unit tests compile in unity batches
// (CMakeLists.txt), where the helpers of one file must not meet another's.
namespace preamble_store_test {

class PreambleStoreTest : public ::testing::Test {
protected:
  void SetUp() override {
    ASSERT_FALSE(fs::createUniqueDirectory("preamble-store", Dir));
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
  void write(const std::string &Path, llvm::StringRef Text) {
    std::error_code EC;
    llvm::raw_fd_ostream OS(Path, EC);
    ASSERT_FALSE(EC);
    OS << Text;
  }
  std::string read(const std::string &Path) const {
    auto Buffer = llvm::MemoryBuffer::getFile(Path);
    return Buffer ? (*Buffer)->getBuffer().str() : "<unreadable>";
  }
  /// A header the "build" read, and its dependency.
  cache::Dependency header(llvm::StringRef Text) {
    std::string Path = file("torch.h");
    write(Path, Text);
    return {Path, cache::fastContentHash(Text)};
  }
  /// Stores an entry for \p Key as a build would.
  std::string build(const PreambleStore &Store, llvm::StringRef Key,
                    const std::vector<cache::Dependency> &Read) {
    EXPECT_TRUE(Store.writeHeader(Key, "#include <torch/torch.h>\n"));
    std::string Pch = Store.newPchPath(Key);
    // What clang's AST files start with, which lookup() checks.
    write(Pch, "CPCH and the rest");
    EXPECT_TRUE(Store.commit(Key, Pch, Read));
    return Pch;
  }

  llvm::SmallString<128> Dir;
};

TEST_F(PreambleStoreTest, CommittedEntryIsFoundWhileItsInputsHold) {
  PreambleStore Store{std::string(Dir)};
  const std::string Key = PreambleStore::key({"tool", "flags", "prefix"});
  EXPECT_FALSE(Store.lookup(Key));
  const std::string Pch = build(Store, Key, {header("v1")});
  std::optional<StoredPrefix> Entry = Store.lookup(Key);
  ASSERT_TRUE(Entry);
  EXPECT_EQ(Entry->PchPath, Pch);
  EXPECT_TRUE(fs::exists(Entry->HeaderPath));
  ASSERT_EQ(Entry->Dependencies.size(), 1u);
  // A header the build read changes: the entry is stale.
  header("v2");
  EXPECT_FALSE(Store.lookup(Key));
}

TEST_F(PreambleStoreTest, DamagedPchIsNoEntryAndIsRemoved) {
  PreambleStore Store{std::string(Dir)};
  const std::string Key = PreambleStore::key({"k"});
  // Emptied, cut short, zeroed, overwritten: each would be rejected by
  // clang on every use; the entry goes so that it is built again.
  for (const std::string &Damage : {std::string(), std::string("CPCH and"),
                                    std::string("\0\0\0\0 and the rest", 17),
                                    std::string("garbage and the rest")}) {
    const std::string Pch = build(Store, Key, {header("v1")});
    ASSERT_TRUE(Store.lookup(Key));
    write(Pch, Damage);
    EXPECT_FALSE(Store.lookup(Key)) << Damage;
    EXPECT_FALSE(fs::exists(Pch)) << Damage;
  }
  // A directory where the .deps record goes, a FIFO inside it: removed by
  // the next commit.
  llvm::SmallString<128> Deps(Dir);
  llvm::sys::path::append(Deps, "preamble", Key.substr(0, 2), Key + ".deps");
  ASSERT_FALSE(fs::create_directories(Deps + "/inside"));
  ASSERT_EQ(::mkfifo((Deps + "/inside/fifo").str().c_str(), 0600), 0);
  EXPECT_FALSE(Store.lookup(Key));
  build(Store, Key, {header("v1")});
  EXPECT_TRUE(Store.lookup(Key));
}

TEST_F(PreambleStoreTest, KeyPartsAreLengthPrefixed) {
  EXPECT_NE(PreambleStore::key({"ab", "c"}), PreambleStore::key({"a", "bc"}));
  EXPECT_EQ(PreambleStore::key({"a"}), PreambleStore::key({"a"}));
}

TEST_F(PreambleStoreTest, ANewBuildReplacesTheOldPch) {
  PreambleStore Store{std::string(Dir)};
  const std::string Key = PreambleStore::key({"k"});
  const std::vector<cache::Dependency> Read = {header("v1")};
  const std::string First = build(Store, Key, Read);
  const std::string Second = build(Store, Key, Read);
  EXPECT_NE(First, Second);
  EXPECT_FALSE(fs::exists(First));
  ASSERT_TRUE(Store.lookup(Key));
  EXPECT_EQ(Store.lookup(Key)->PchPath, Second);
}

TEST_F(PreambleStoreTest, MissingOrForeignPartsAreNoEntry) {
  PreambleStore Store{std::string(Dir)};
  const std::string Key = PreambleStore::key({"k"});
  const std::string Pch = build(Store, Key, {header("v1")});
  ASSERT_TRUE(Store.lookup(Key));
  // The PCH removed (by eviction): no entry.
  fs::remove(Pch);
  EXPECT_FALSE(Store.lookup(Key));
  // A corrupt .deps: no entry, and no crash.
  build(Store, Key, {header("v1")});
  llvm::SmallString<128> Deps(Dir);
  llvm::sys::path::append(Deps, "preamble", Key.substr(0, 2), Key + ".deps");
  write(std::string(Deps), "\x93garbage");
  EXPECT_FALSE(Store.lookup(Key));
  // A FIFO in its place is not read (it would block).
  fs::remove(Deps);
  ASSERT_EQ(::mkfifo(Deps.c_str(), 0644), 0);
  EXPECT_FALSE(Store.lookup(Key));
}

TEST_F(PreambleStoreTest, WantedAndRefused) {
  PreambleStore Store{std::string(Dir)};
  const std::string Key = PreambleStore::key({"k"});
  EXPECT_FALSE(Store.wanted(Key));
  Store.markWanted(Key);
  EXPECT_TRUE(Store.wanted(Key));
  EXPECT_FALSE(Store.refused(Key));
  Store.refuse(Key, {header("v1")});
  EXPECT_TRUE(Store.refused(Key));
  // What the failed build read changed: it may succeed now.
  header("v2");
  EXPECT_FALSE(Store.refused(Key));
}

TEST_F(PreambleStoreTest, LockIsExclusiveAndDiesWithItsHolder) {
  PreambleStore Store{std::string(Dir)};
  const std::string Key = PreambleStore::key({"k"});
  ASSERT_TRUE(Store.tryLock(Key));
  EXPECT_TRUE(Store.locked(Key));
  // Held, here by this process.
  EXPECT_FALSE(Store.tryLock(Key));
  Store.unlock(Key);
  EXPECT_FALSE(Store.locked(Key));
  // A lock file naming a live process (a PID file of the old scheme, or a
  // PID reused since) holds nothing: only a live flock does.
  write(Store.lockPath(Key), std::to_string(::getpid()));
  EXPECT_FALSE(Store.locked(Key));
  EXPECT_TRUE(Store.tryLock(Key));
  Store.unlock(Key);
  // A holder that is killed releases it with its death.
  int Ready[2];
  ASSERT_EQ(::pipe(Ready), 0);
  pid_t Child = ::fork();
  ASSERT_GE(Child, 0);
  if (Child == 0) {
    ::close(Ready[0]);
    PreambleStore ChildStore{std::string(Dir)};
    char Byte = ChildStore.tryLock(Key) ? 'y' : 'n';
    (void)!::write(Ready[1], &Byte, 1);
    ::pause();
    ::_exit(0);
  }
  ::close(Ready[1]);
  char Byte = 0;
  ASSERT_EQ(::read(Ready[0], &Byte, 1), 1);
  ::close(Ready[0]);
  EXPECT_EQ(Byte, 'y');
  EXPECT_TRUE(Store.locked(Key));
  EXPECT_FALSE(Store.tryLock(Key));
  ::kill(Child, SIGKILL);
  ::waitpid(Child, nullptr, 0);
  EXPECT_TRUE(Store.tryLock(Key));
  Store.unlock(Key);
}

TEST_F(PreambleStoreTest, LockPathThatIsALinkOrAFifoIsReplacedNotUsed) {
  PreambleStore Store{std::string(Dir)};
  const std::string Key = PreambleStore::key({"k"});
  ASSERT_TRUE(Store.tryLock(Key));
  Store.unlock(Key);
  const std::string Target = file("users-file");
  write(Target, "the user's");
  ASSERT_EQ(::symlink(Target.c_str(), Store.lockPath(Key).c_str()), 0);
  EXPECT_TRUE(Store.tryLock(Key));
  Store.unlock(Key);
  EXPECT_EQ(read(Target), "the user's");
  ASSERT_EQ(::mkfifo(Store.lockPath(Key).c_str(), 0600), 0);
  EXPECT_FALSE(Store.locked(Key));
  EXPECT_TRUE(Store.tryLock(Key));
  Store.unlock(Key);
}

TEST_F(PreambleStoreTest, LimitRemovesTheLeastRecentlyUsedFirst) {
  const std::string Old = file("old"), New = file("new");
  write(Old, std::string(600, 'o'));
  write(New, std::string(600, 'n'));
  // "old" was last used an hour ago.
  struct timespec Times[2] = {{::time(nullptr) - 3600, 0},
                              {::time(nullptr) - 3600, 0}};
  ASSERT_EQ(::utimensat(AT_FDCWD, Old.c_str(), Times, 0), 0);
  limitCacheSize(Dir, 1000);
  EXPECT_FALSE(fs::exists(Old));
  EXPECT_TRUE(fs::exists(New));
  // Within the limit, or no limit: nothing goes.
  limitCacheSize(Dir, 1000);
  limitCacheSize(Dir, 0);
  limitCacheSize(Dir, 1);
  EXPECT_FALSE(fs::exists(New));
}

TEST(ParseSizeTest, Units) {
  EXPECT_EQ(parseSize("5G"), 5ull << 30);
  EXPECT_EQ(parseSize("500M"), 500ull << 20);
  EXPECT_EQ(parseSize("64k"), 64ull << 10);
  EXPECT_EQ(parseSize("2GiB"), 2ull << 30);
  EXPECT_EQ(parseSize("1024"), 1024u);
  EXPECT_EQ(parseSize("0"), 0u);
  EXPECT_FALSE(parseSize(""));
  EXPECT_FALSE(parseSize("G"));
  EXPECT_FALSE(parseSize("5X"));
  EXPECT_FALSE(parseSize("-1"));
  EXPECT_FALSE(parseSize("99999999999T"));
}

} // namespace preamble_store_test

// A worker's command line as a detached prefix builder's: no result file,
// the builder's role, compiler arguments untouched.
TEST(DetachedPrefixBuildTest, BuilderArguments) {
  const std::vector<std::string> Worker = {"/bin/libtorch-tidy",
                                           "--worker-unit=/p/a.cpp",
                                           "--worker-output=/tmp/r",
                                           "--worker-preamble=build-detached",
                                           "--cache-dir=/c",
                                           "a.cpp",
                                           "--",
                                           "-std=c++17",
                                           "--worker-output=compiler",
                                           "-DX"};
  EXPECT_EQ(libtorch_tidy::run::prefixBuilderArguments(Worker),
            (std::vector<std::string>{
                "/bin/libtorch-tidy", "--worker-unit=/p/a.cpp",
                "--worker-preamble=build-only", "--cache-dir=/c", "a.cpp", "--",
                "-std=c++17", "--worker-output=compiler", "-DX"}));
}
