//===--- RemoteCacheTest.cpp - Remote cache URLs, keys and entries --------===//
//
// Part of libtorch-tidy. SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

#include "cache/remote/RemoteCache.h"
#include "cache/Dependencies.h"
#include "cache/ResultCache.h"
#include "cache/remote/EntrySignature.h"
#include "cache/remote/RemoteEntry.h"
#include "cache/remote/RemoteSpec.h"
#include "io/FileIO.h"
#include "model/Findings.h"

#include "llvm/ADT/SmallString.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/raw_ostream.h"
#include "gtest/gtest.h"
#include <cstdlib>

using namespace libtorch_tidy;
using namespace libtorch_tidy::cache;

// Named, not anonymous: the unit tests compile in unity batches.
namespace remote_cache_test {

std::string errorOf(llvm::StringRef Text) {
  llvm::Expected<std::vector<RemoteSpec>> Specs = parseRemoteSpecs(Text);
  if (Specs)
    return "";
  return llvm::toString(Specs.takeError());
}

// RFC 8032, section 7.1, TEST 1's key pair.
constexpr const char *SigningSeed =
    "9d61b19deffd5a60ba844af492ec2cc44449c5697b326919703bac031cae7f60";
constexpr const char *SigningPublic =
    "d75a980182b10ab7d54bfed3c964073a0ee172f3daa62325af021a68f707511a";

TEST(RemoteSpecSigningTest, WriterTrustsItsOwnKey) {
  ::setenv("LIBTORCH_TIDY_TEST_SIGNING_KEY", SigningSeed, 1);
  llvm::Expected<std::vector<RemoteSpec>> Specs = parseRemoteSpecs(
      "redis://h|signing-key-env=LIBTORCH_TIDY_TEST_SIGNING_KEY "
      "http://h/p|read-only|verify-key=" +
      std::string(SigningPublic) + "|verify-key=" + std::string(64, 'a'));
  ::unsetenv("LIBTORCH_TIDY_TEST_SIGNING_KEY");
  ASSERT_TRUE(bool(Specs)) << llvm::toString(Specs.takeError());
  ASSERT_EQ(Specs->size(), 2u);
  ASSERT_TRUE((*Specs)[0].Signing);
  ASSERT_EQ((*Specs)[0].Trusted.size(), 1u);
  EXPECT_EQ(verifyKeyHex((*Specs)[0].Trusted[0]), SigningPublic);
  EXPECT_FALSE((*Specs)[1].Signing);
  EXPECT_EQ((*Specs)[1].Trusted.size(), 2u);
}

TEST(RemoteSpecSigningTest, RefusesKeysOnTheCommandLineAndHalfSetUps) {
  EXPECT_EQ(errorOf("redis://h|signing-key=" + std::string(SigningSeed)),
            "invalid --remote-cache: signing-key= of redis://h would put the "
            "secret on the command line; use signing-key-env=VARIABLE or "
            "signing-key-file=PATH");
  EXPECT_EQ(errorOf("redis://h|verify-key=" + std::string(SigningPublic)),
            "invalid --remote-cache: redis://h has a verify-key but no "
            "signing key, so the entries this run stores would be refused; "
            "add |read-only, or signing-key-env=VARIABLE or "
            "signing-key-file=PATH");
  ::setenv("LIBTORCH_TIDY_TEST_SIGNING_KEY", "secret-not-a-key", 1);
  const std::string Error =
      errorOf("redis://h|signing-key-env=LIBTORCH_TIDY_TEST_SIGNING_KEY");
  ::unsetenv("LIBTORCH_TIDY_TEST_SIGNING_KEY");
  EXPECT_NE(Error.find("is not 64 hex digits"), std::string::npos) << Error;
  EXPECT_EQ(Error.find("secret-not-a-key"), std::string::npos) << Error;
  EXPECT_NE(errorOf("redis://h|signing-key-env=LIBTORCH_TIDY_TEST_UNSET_VAR")
                .find("is not set or empty"),
            std::string::npos);
}

TEST(RemoteSpecTest, ParsesCcacheSpellings) {
  llvm::Expected<std::vector<RemoteSpec>> Specs = parseRemoteSpecs(
      "redis://user:p%40ss@cache.example:6380/3|read-only "
      "http://h:8080/prefix/|layout=bazel|operation-timeout=500 "
      "redis+unix:/run/redis.sock?db=2");
  ASSERT_TRUE(bool(Specs)) << llvm::toString(Specs.takeError());
  ASSERT_EQ(Specs->size(), 3u);
  const RemoteSpec &Redis = (*Specs)[0];
  EXPECT_EQ(Redis.Scheme, RemoteSpec::Kind::Redis);
  EXPECT_EQ(Redis.Host, "cache.example");
  EXPECT_EQ(Redis.Port, 6380u);
  EXPECT_EQ(Redis.User, "user");
  EXPECT_EQ(Redis.Password, "p@ss");
  EXPECT_EQ(Redis.Database, 3u);
  EXPECT_TRUE(Redis.ReadOnly);
  EXPECT_EQ(Redis.DisplayName, "redis://cache.example:6380/3");
  const RemoteSpec &Http = (*Specs)[1];
  EXPECT_EQ(Http.BaseUrl, "http://h:8080/prefix");
  EXPECT_EQ(Http.Layout, "bazel");
  EXPECT_EQ(Http.OperationTimeoutMs, 500u);
  EXPECT_EQ(Http.ConnectTimeoutMs, 100u); // ccache's default
  EXPECT_FALSE(Http.ReadOnly);
  EXPECT_EQ((*Specs)[2].SocketPath, "/run/redis.sock");
  EXPECT_EQ((*Specs)[2].Database, 2u);
}

TEST(RemoteSpecTest, ErrorsNameThePartAndNeverTheSecret) {
  EXPECT_NE(errorOf("ftp://user:s3cret@h/x").find("'ftp:'"), std::string::npos);
  EXPECT_EQ(errorOf("ftp://user:s3cret@h/x").find("s3cret"), std::string::npos);
  EXPECT_NE(errorOf("redis://:s3cret@h:99999").find("port '99999'"),
            std::string::npos);
  EXPECT_EQ(errorOf("redis://:s3cret@h:99999").find("s3cret"),
            std::string::npos);
  EXPECT_NE(errorOf("http://h/c|layout=deep").find("not a layout"),
            std::string::npos);
  EXPECT_NE(errorOf("http://h/c|colour=red").find("'colour'"),
            std::string::npos);
  EXPECT_NE(errorOf("http://h/c|bearer-token=s3cret").find("bearer-token-env"),
            std::string::npos);
  EXPECT_EQ(errorOf("http://h/c|bearer-token=s3cret").find("s3cret"),
            std::string::npos);
  EXPECT_NE(errorOf("http://h/c|bearer-token-file=/nonexistent/token")
                .find("/nonexistent/token"),
            std::string::npos);
  ::unsetenv("LIBTORCH_TIDY_TEST_NO_TOKEN");
  EXPECT_NE(errorOf("http://h/c|bearer-token-env=LIBTORCH_TIDY_TEST_NO_TOKEN")
                .find("is not set"),
            std::string::npos);
  EXPECT_NE(errorOf("redis+unix:relative.sock").find("absolute"),
            std::string::npos);
}

// A password that holds a '/' (base64), a space or a '|' written as is:
// refused, and no piece of it in the message; percent-encoded, it is read.
TEST(RemoteSpecTest, BareSeparatorsInAPasswordAreRefusedUnshown) {
  for (const char *Url :
       {"redis://user:lft9q/rgt7z@h:6379/0|read-only",
        "redis://:lft9q rgt7z@h:6379", "redis://:lft9q|rgt7z@h:6379",
        "http://user:lft9q/rgt7z@h/cache|layout=flat",
        "redis://h:6380 redis://:lft9q/rgt7z@h:6379"}) {
    std::string Error = errorOf(Url);
    EXPECT_NE(Error.find("percent-encode"), std::string::npos) << Url;
    EXPECT_NE(Error.find("***@h"), std::string::npos) << Error;
    EXPECT_EQ(Error.find("lft9q"), std::string::npos) << Error;
    EXPECT_EQ(Error.find("rgt7z"), std::string::npos) << Error;
  }
  llvm::Expected<std::vector<RemoteSpec>> Encoded =
      parseRemoteSpecs("redis://:lft9q%2Frgt7z%20sp%7Cx+y==@h:6379");
  ASSERT_TRUE(bool(Encoded)) << llvm::toString(Encoded.takeError());
  EXPECT_EQ((*Encoded)[0].Password, "lft9q/rgt7z sp|x+y==");
  EXPECT_EQ((*Encoded)[0].DisplayName, "redis://h:6379");
  // A token file's path may hold an '@'.
  EXPECT_NE(errorOf("http://h/c|bearer-token-file=/nonexistent/a@b")
                .find("/nonexistent/a@b"),
            std::string::npos);
  // Without a scheme, what precedes the '@' is not shown either.
  EXPECT_EQ(errorOf("user:lft9q@h").find("lft9q"), std::string::npos);
}

TEST(RemoteSpecTest, WithoutCredentials) {
  EXPECT_EQ(withoutCredentials("redis://u:a/b c|d@h:1/0"), "redis://***@h:1/0");
  EXPECT_EQ(withoutCredentials("http://h/c"), "http://h/c");
  EXPECT_EQ(withoutCredentials("pw@h"), "***@h");
}

// What a server says is printed with its control characters escaped and
// the secrets of the URL it was reached with replaced.
TEST(RemoteCacheTest, PrintableServerText) {
  RemoteSpec Spec;
  Spec.Password = "s3cret";
  EXPECT_EQ(
      printableServerText("ERR \x1b]0;t\x07\x1b[2J s3cret\r\nx\xc3\xa9", Spec),
      "ERR \\x1b]0;t\\x07\\x1b[2J ***\\x0d\\x0ax\\xc3\\xa9");
  EXPECT_EQ(printableServerText("Connection refused", RemoteSpec()),
            "Connection refused");
}

TEST(RemoteSpecTest, ReadsTheTokenFromTheEnvironment) {
  ::setenv("LIBTORCH_TIDY_TEST_TOKEN", " abc123\n", 1);
  llvm::Expected<std::vector<RemoteSpec>> Specs =
      parseRemoteSpecs("https://h/c|bearer-token-env=LIBTORCH_TIDY_TEST_TOKEN");
  ASSERT_TRUE(bool(Specs)) << llvm::toString(Specs.takeError());
  EXPECT_EQ((*Specs)[0].BearerToken, "abc123");
  EXPECT_EQ((*Specs)[0].DisplayName, "https://h/c");
}

TEST(RemoteEntryTest, KeysDoNotDependOnTheCheckoutPath) {
  BaseDirectory A("/home/a/repo"), B("/srv/ci/b/repo");
  EXPECT_EQ(remoteKey("build",
                      {"/home/a/repo/src/x.cpp", "-I/home/a/repo/include"}, A),
            remoteKey("build",
                      {"/srv/ci/b/repo/src/x.cpp", "-I/srv/ci/b/repo/include"},
                      B));
  // A path that only starts like the base is not under it.
  EXPECT_NE(A.portable("/home/a/repository/x.h"),
            A.portable("/home/a/repo/x.h"));
  // The base itself, as a compile command's directory line ends it.
  EXPECT_EQ(A.portable("/home/a/repo\n-c"), B.portable("/srv/ci/b/repo\n-c"));
  EXPECT_EQ(B.local(A.portable("/home/a/repo/src/x.cpp")),
            "/srv/ci/b/repo/src/x.cpp");
  EXPECT_NE(remoteKey("build", {"/usr/include/a.h"}, A),
            remoteKey("build", {"/usr/include/b.h"}, A));
}

TEST(RemoteEntryTest, KeysHoldTheBuildNotItsVersion) {
  BaseDirectory A("/home/a/repo");
  EXPECT_NE(remoteKey("build-one", {"/home/a/repo/x.cpp"}, A),
            remoteKey("build-two", {"/home/a/repo/x.cpp"}, A));
}

TEST(BuildHashTest, OneBuildOneHashWhereverItLies) {
  llvm::SmallString<128> Directory;
  ASSERT_FALSE(llvm::sys::fs::createUniqueDirectory("build-hash", Directory));
  const std::string Cache = (Directory + "/cache").str();
  const auto Write = [&](llvm::StringRef Name, llvm::StringRef Bytes) {
    std::string Path = (Directory + "/" + Name).str();
    std::error_code EC;
    llvm::raw_fd_ostream(Path, EC) << Bytes;
    EXPECT_FALSE(EC);
    return Path;
  };
  // Two copies of one build, at two paths; and another build.
  const std::string Installed = Write("installed", "\x7f"
                                                   "ELF one build");
  const std::string Copied = Write("copied", "\x7f"
                                             "ELF one build");
  const std::string Other = Write("other", "\x7f"
                                           "ELF another build");
  const std::string Hash = buildHash(Installed, Cache);
  ASSERT_EQ(Hash.size(), 64u);
  EXPECT_EQ(buildHash(Copied, ""), Hash);
  EXPECT_NE(buildHash(Other, Cache), Hash);
  EXPECT_EQ(buildHash((Directory + "/absent").str(), Cache), "");

  // Kept under the executable's identity, and read back from there.
  const std::string Kept = Cache + "/build-hashes/" + toolIdentity(Installed);
  std::string Error;
  std::optional<std::string> KeptText =
      io::readRegularFile(Kept, 64, "build hash", Error);
  ASSERT_TRUE(KeptText) << Error;
  EXPECT_EQ(*KeptText, Hash);
  Write("cache/build-hashes/" + toolIdentity(Installed), std::string(64, 'b'));
  EXPECT_EQ(buildHash(Installed, Cache), std::string(64, 'b'));
  // What does not have a hash's form is not believed.
  Write("cache/build-hashes/" + toolIdentity(Installed), "not a hash");
  EXPECT_EQ(buildHash(Installed, Cache), Hash);
  llvm::sys::fs::remove_directories(Directory);
}

class RemoteEntryFiles : public ::testing::Test {
protected:
  void SetUp() override {
    ASSERT_FALSE(
        llvm::sys::fs::createUniqueDirectory("remote-entry-test", Directory));
    Main = std::string(Directory) + "/main.cpp";
    std::error_code EC;
    llvm::raw_fd_ostream(Main, EC) << Content;
    ASSERT_FALSE(EC);
    Result.Unit.MainFile = Main;
    Result.Unit.ContentDigests[Main] = model::contentDigest(Content);
    model::Finding F;
    F.CheckId = "libtorch-test";
    F.Where.AbsoluteFile = Main;
    F.Fixes.push_back({Main, 0, 3, "float"});
    Result.Unit.Findings.push_back(F);
    Result.Dependencies = {{Main, cache::fastContentHash(Content)}};
  }
  void TearDown() override { llvm::sys::fs::remove_directories(Directory); }

  std::optional<cache::WorkerResult> decode(llvm::StringRef Bytes,
                                            std::string &Why) {
    cache::DependencyMemo Fresh; // the test changes files between decodes
    return decodeRemoteEntry(Bytes, Key, Main, BaseDirectory(Directory), Fresh,
                             Why);
  }

  llvm::SmallString<128> Directory;
  std::string Main;
  std::string Content = "int x;\n";
  std::string Key = std::string(64, 'a');
  cache::WorkerResult Result;
};

TEST_F(RemoteEntryFiles, RoundTripsAndRejectsDamage) {
  std::string Bytes = encodeRemoteEntry(Key, Result, BaseDirectory(Directory));
  EXPECT_EQ(Bytes.find(Directory.str().str()), std::string::npos)
      << "the checkout's path must not be in the entry";
  std::string Why;
  std::optional<cache::WorkerResult> Back = decode(Bytes, Why);
  ASSERT_TRUE(Back) << Why;
  EXPECT_TRUE(Back->Unit.FromCache);
  ASSERT_EQ(Back->Unit.Findings.size(), 1u);
  EXPECT_EQ(Back->Unit.Findings[0].Fixes[0].File, Main);

  std::string Flipped = Bytes;
  Flipped[Flipped.size() - 3] ^= 1;
  EXPECT_FALSE(decode(Flipped, Why));
  EXPECT_NE(Why.find("checksum"), std::string::npos);
  EXPECT_FALSE(decode(Bytes.substr(0, Bytes.size() / 2), Why));
  EXPECT_FALSE(decode("garbage", Why));
  cache::DependencyMemo Memo;
  EXPECT_FALSE(decodeRemoteEntry(Bytes, std::string(64, 'b'), Main,
                                 BaseDirectory(Directory), Memo, Why));
}

TEST_F(RemoteEntryFiles, RejectsFixItsForOtherContentOrFiles) {
  cache::WorkerResult Forged = Result;
  Forged.Unit.ContentDigests[Main] = std::string(64, '0');
  std::string Why;
  EXPECT_FALSE(
      decode(encodeRemoteEntry(Key, Forged, BaseDirectory(Directory)), Why));
  EXPECT_NE(Why.find("fix-it"), std::string::npos);

  Forged = Result;
  Forged.Unit.Findings[0].Fixes[0].File = "/etc/passwd";
  EXPECT_FALSE(
      decode(encodeRemoteEntry(Key, Forged, BaseDirectory(Directory)), Why));

  // The file changed since: the dependency no longer holds, a plain miss.
  std::error_code EC;
  llvm::raw_fd_ostream(Main, EC) << "long y;\n";
  EXPECT_FALSE(
      decode(encodeRemoteEntry(Key, Result, BaseDirectory(Directory)), Why));
  EXPECT_EQ(Why, "");
}

} // namespace remote_cache_test
