//===--- WorkerProtocolTest.cpp - The worker protocol, both ends ----------===//
//
// Part of libtorch-tidy. SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

#include "worker/WorkerProtocol.h"
#include "llvm/ADT/SmallString.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/MemoryBuffer.h"
#include "gtest/gtest.h"
#include <tuple>

using namespace libtorch_tidy;
using namespace libtorch_tidy::worker;

namespace {

WorkerRequest everyField() {
  WorkerRequest Request;
  Request.Unit = "/p/a b.cpp";
  Request.Output = "/tmp/result";
  Request.Prefix = PrefixRole::BuildDetached;
  Request.PreambleShared = true;
  Request.PreambleNotice = "/tmp/notice";
  Request.RemoteLookup = true;
  Request.SummaryFile = "/tmp/summaries.json";
  Request.DatabaseSummaries = true;
  return Request;
}

auto fieldsOf(const WorkerRequest &R) {
  return std::tie(R.Unit, R.Output, R.Prefix, R.PreambleShared,
                  R.PreambleNotice, R.RemoteLookup, R.SummaryFile,
                  R.DatabaseSummaries);
}

} // namespace

// What one end writes, the other reads back, field for field, whatever the
// tool's own arguments around it.
TEST(WorkerProtocolTest, RequestSurvivesTheCommandLine) {
  for (PrefixRole Role : {PrefixRole::Analyze, PrefixRole::ReuseOnly,
                          PrefixRole::BuildOnly, PrefixRole::BuildDetached}) {
    WorkerRequest Sent = everyField();
    Sent.Prefix = Role;
    std::vector<std::string> Arguments = Sent.arguments();
    Arguments.insert(Arguments.begin(), "--cache-dir=/c");
    Arguments.push_back("a.cpp");
    llvm::Expected<WorkerRequest> Read = takeWorkerRequest(Arguments);
    ASSERT_TRUE(static_cast<bool>(Read)) << llvm::toString(Read.takeError());
    EXPECT_TRUE(fieldsOf(*Read) == fieldsOf(Sent));
    EXPECT_EQ(Arguments, (std::vector<std::string>{"--cache-dir=/c", "a.cpp"}));
  }
}

// Defaults are not sent: a CLI parent's worker gets its unit and output.
TEST(WorkerProtocolTest, OnlyWhatIsAskedIsSent) {
  WorkerRequest Request;
  EXPECT_TRUE(Request.arguments().empty());
  EXPECT_FALSE(Request.isWorker());
  Request.Unit = "/p/a.cpp";
  Request.Output = "/tmp/r";
  EXPECT_EQ(Request.arguments(),
            (std::vector<std::string>{"--worker-unit=/p/a.cpp",
                                      "--worker-output=/tmp/r"}));
  EXPECT_TRUE(Request.isWorker());
}

// The forms the command-line parser took before the protocol had a home:
// one dash, a value in the next argument, a boolean's explicit value.
TEST(WorkerProtocolTest, TakesTheParsersSpellings) {
  std::vector<std::string> Arguments = {"-worker-unit",
                                        "/p/a.cpp",
                                        "--worker-output",
                                        "/tmp/r",
                                        "--worker-preamble",
                                        "reuse-only",
                                        "-worker-remote-lookup=true",
                                        "--worker-preamble-shared=false",
                                        "-p",
                                        "build"};
  llvm::Expected<WorkerRequest> Read = takeWorkerRequest(Arguments);
  ASSERT_TRUE(static_cast<bool>(Read)) << llvm::toString(Read.takeError());
  EXPECT_EQ(Read->Unit, "/p/a.cpp");
  EXPECT_EQ(Read->Output, "/tmp/r");
  EXPECT_EQ(Read->Prefix, PrefixRole::ReuseOnly);
  EXPECT_TRUE(Read->RemoteLookup);
  EXPECT_FALSE(Read->PreambleShared);
  EXPECT_EQ(Arguments, (std::vector<std::string>{"-p", "build"}));
}

// After `--` every argument is the compiler's, however it is spelled; an
// unknown `--worker-` flag stays for the parser to refuse.
TEST(WorkerProtocolTest, LeavesCompilerArgumentsAndUnknownFlags) {
  std::vector<std::string> Arguments = {"--worker-unit=/p/a.cpp",
                                        "--worker-colour=blue",
                                        "a.cpp",
                                        "--",
                                        "--worker-output=compiler",
                                        "-DX"};
  llvm::Expected<WorkerRequest> Read = takeWorkerRequest(Arguments);
  ASSERT_TRUE(static_cast<bool>(Read));
  EXPECT_EQ(Read->Unit, "/p/a.cpp");
  EXPECT_TRUE(Read->Output.empty());
  EXPECT_EQ(Arguments,
            (std::vector<std::string>{"--worker-colour=blue", "a.cpp", "--",
                                      "--worker-output=compiler", "-DX"}));
}

TEST(WorkerProtocolTest, RefusesValuesItDoesNotKnow) {
  auto Problem = [](std::vector<std::string> Arguments) {
    llvm::Expected<WorkerRequest> Read = takeWorkerRequest(Arguments);
    return Read ? std::string() : llvm::toString(Read.takeError());
  };
  EXPECT_NE(Problem({"--worker-preamble=sometimes"}).find("'sometimes'"),
            std::string::npos);
  EXPECT_NE(Problem({"--worker-remote-lookup=maybe"}).find("true or false"),
            std::string::npos);
  EXPECT_NE(Problem({"--worker-unit"}).find("needs a value"),
            std::string::npos);
}

// The result as the worker writes it and its parent reads it: paths are
// bytes, not always UTF-8, and come back as they went.
TEST(WorkerProtocolTest, ResultSurvivesTheFile) {
  cache::WorkerResult Sent;
  Sent.Unit.MainFile = "/p/caf\xe9.cpp";
  Sent.Unit.State = model::TranslationUnitResult::Status::Failed;
  Sent.Unit.FailureMessage = "no";
  Sent.Dependencies = {{"/p/caf\xe9.h", "digest"}};
  Sent.Stderr = "not sent: the parent reads the worker's stderr itself";
  llvm::SmallString<128> Path;
  ASSERT_FALSE(
      llvm::sys::fs::createTemporaryFile("worker-protocol", "bin", Path));
  ASSERT_EQ(writeWorkerResult(Path, Sent), std::nullopt);
  auto Bytes = llvm::MemoryBuffer::getFile(Path, /*IsText=*/false);
  ASSERT_TRUE(static_cast<bool>(Bytes));
  llvm::sys::fs::remove(Path);
  llvm::Expected<cache::WorkerResult> Read =
      readWorkerResult((*Bytes)->getBuffer());
  ASSERT_TRUE(static_cast<bool>(Read)) << llvm::toString(Read.takeError());
  EXPECT_EQ(Read->Unit.MainFile, Sent.Unit.MainFile);
  EXPECT_EQ(Read->Unit.State, Sent.Unit.State);
  EXPECT_EQ(Read->Unit.FailureMessage, Sent.Unit.FailureMessage);
  EXPECT_EQ(Read->Dependencies, Sent.Dependencies);
  EXPECT_TRUE(Read->Stderr.empty());
}

TEST(WorkerProtocolTest, UnreadableResultSaysWhy) {
  for (llvm::StringRef Bytes : {llvm::StringRef(""), llvm::StringRef("{}"),
                                llvm::StringRef("\x81\xa4unit\xc0", 7)}) {
    llvm::Expected<cache::WorkerResult> Read = readWorkerResult(Bytes);
    ASSERT_FALSE(static_cast<bool>(Read));
    EXPECT_FALSE(llvm::toString(Read.takeError()).empty());
  }
}
