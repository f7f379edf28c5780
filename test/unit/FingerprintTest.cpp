//===--- FingerprintTest.cpp - Stable identities of findings --------------===//
//
// Part of libtorch-tidy. SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

#include "report/Fingerprint.h"
#include "ReportTestSupport.h"
#include "report/FingerprintLineHash.h"
#include "report/ProjectRoot.h"

#include "gtest/gtest.h"

using namespace libtorch_tidy::model;
using namespace libtorch_tidy::report;
using libtorch_tidy::report::testing::MemoryProject;

// Named, not anonymous: the unit tests compile in unity batches
// (CMakeLists.txt), where the helpers of one file must not meet another's.
namespace fingerprint_test {

const char *const Train = "void train() {\n"
                          "  for (int i = 0; i < 10; ++i) {\n"
                          "    total += loss.item<float>();\n"
                          "  }\n"
                          "}\n";

/// Fingerprints of the item() findings of \p Content, in offset order.
std::vector<std::string>
fingerprintsOf(const std::string &Content, unsigned Count,
               const std::string &Root = "/nonexistent-project") {
  MemoryProject Project;
  Project.Root = Root;
  Project.add("src/train.cpp", Content);
  RunResult Run;
  TranslationUnitResult Unit;
  Unit.MainFile = Project.path("src/train.cpp");
  for (unsigned I = 0; I < Count; ++I)
    Unit.Findings.push_back(Project.finding(
        "libtorch-host-sync-in-loop", "src/train.cpp",
        Project.offsetOf("src/train.cpp", "loss.item", I), 9, "sync"));
  Run.Units.push_back(Unit);
  SourceFiles Sources = Project.sources();
  assignFingerprints(Run, Project.Root, Sources);
  std::vector<std::string> Result;
  for (const Finding &F : Run.Units[0].Findings)
    Result.push_back(F.Fingerprint);
  return Result;
}

TEST(FingerprintTest, HasHashAndOccurrence) {
  std::vector<std::string> Prints = fingerprintsOf(Train, 1);
  ASSERT_EQ(Prints.size(), 1u);
  EXPECT_EQ(Prints[0].size(), 16u + 2u);
  EXPECT_EQ(llvm::StringRef(Prints[0]).take_back(2), ":1");
}

TEST(FingerprintTest, StableWhenLinesAreInsertedAboveOrReindented) {
  std::string Before = fingerprintsOf(Train, 1)[0];
  std::string Moved = fingerprintsOf(std::string("#include <torch/torch.h>\n"
                                                 "\n// a comment\n") +
                                         Train,
                                     1)[0];
  EXPECT_EQ(Before, Moved);
  std::string Reindented = fingerprintsOf("void train() {\n"
                                          "for (int i = 0; i < 10; ++i) {\n"
                                          "\ttotal +=   loss.item<float>();\n"
                                          "}\n"
                                          "}\n",
                                          1)[0];
  EXPECT_EQ(Before, Reindented);
}

TEST(FingerprintTest, ChangesWhenTheLineChanges) {
  std::string Before = fingerprintsOf(Train, 1)[0];
  std::string Edited = fingerprintsOf("void train() {\n"
                                      "  for (int i = 0; i < 10; ++i) {\n"
                                      "    sum += loss.item<float>();\n"
                                      "  }\n"
                                      "}\n",
                                      1)[0];
  EXPECT_NE(Before, Edited);
}

TEST(FingerprintTest, IdenticalLinesGetOccurrenceNumbers) {
  std::string Twice = "void f() {\n"
                      "  total += loss.item<float>();\n"
                      "  other();\n"
                      "  total += loss.item<float>();\n"
                      "}\n";
  std::vector<std::string> Prints = fingerprintsOf(Twice, 2);
  ASSERT_EQ(Prints.size(), 2u);
  EXPECT_EQ(fingerprintHashPart(Prints[0]), fingerprintHashPart(Prints[1]));
  EXPECT_EQ(llvm::StringRef(Prints[0]).take_back(2), ":1");
  EXPECT_EQ(llvm::StringRef(Prints[1]).take_back(2), ":2");
}

TEST(FingerprintTest, IndependentOfWhereTheProjectIsCheckedOut) {
  EXPECT_EQ(fingerprintsOf(Train, 1, "/nonexistent-a/project")[0],
            fingerprintsOf(Train, 1, "/nonexistent-b/checkout")[0]);
}

TEST(FingerprintTest, PartsAreCheckPathAndLine) {
  EXPECT_NE(fingerprintHash("libtorch-a", "src/x.cpp", "f();"),
            fingerprintHash("libtorch-b", "src/x.cpp", "f();"));
  EXPECT_NE(fingerprintHash("libtorch-a", "src/x.cpp", "f();"),
            fingerprintHash("libtorch-a", "src/y.cpp", "f();"));
  EXPECT_EQ(fingerprintHash("libtorch-a", "src/x.cpp", "f ( ) ;"),
            fingerprintHash("libtorch-a", "src/x.cpp", "f();"));
  // The separator keeps "ab"+"c" apart from "a"+"bc".
  EXPECT_NE(fingerprintHash("ab", "c", "x"), fingerprintHash("a", "bc", "x"));
}

TEST(FingerprintTest, CopiesInSeveralUnitsAgreeAndCompilerErrorsGetNone) {
  MemoryProject Project;
  Project.add("include/step.h", "inline void step() { loss.item(); }\n");
  RunResult Run;
  for (const char *Main : {"a.cpp", "b.cpp"}) {
    TranslationUnitResult Unit;
    Unit.MainFile = Project.path(Main);
    Unit.Findings.push_back(Project.finding("libtorch-host-sync-in-loop",
                                            "include/step.h", 21, 11, "sync"));
    Unit.CompilerErrors.push_back(Unit.Findings.back());
    Run.Units.push_back(Unit);
  }
  SourceFiles Sources = Project.sources();
  assignFingerprints(Run, Project.Root, Sources);
  EXPECT_FALSE(Run.Units[0].Findings[0].Fingerprint.empty());
  EXPECT_EQ(Run.Units[0].Findings[0].Fingerprint,
            Run.Units[1].Findings[0].Fingerprint);
  EXPECT_EQ(llvm::StringRef(Run.Units[1].Findings[0].Fingerprint).take_back(2),
            ":1");
  EXPECT_TRUE(Run.Units[0].CompilerErrors[0].Fingerprint.empty());
}

TEST(FingerprintTest, UnreadableFileFallsBackToTheMessage) {
  RunResult Run;
  TranslationUnitResult Unit;
  Finding F;
  F.CheckId = "libtorch-host-sync-in-loop";
  F.Message = "sync";
  F.Where.AbsoluteFile = "/nonexistent-project/gone.cpp";
  F.Where.Begin = {3, 1, 1};
  Unit.Findings.push_back(F);
  Run.Units.push_back(Unit);
  SourceFiles Sources([](llvm::StringRef) { return std::nullopt; });
  assignFingerprints(Run, "/nonexistent-project", Sources);
  EXPECT_EQ(Run.Units[0].Findings[0].Fingerprint,
            fingerprintHash("libtorch-host-sync-in-loop", "gone.cpp",
                            "message:sync") +
                ":1");
}

TEST(FingerprintTest, RenumberingRestoresOccurrencesOfAMergedRun) {
  std::string Twice = "void f() {\n"
                      "  total += loss.item<float>();\n"
                      "  total += loss.item<float>();\n"
                      "}\n";
  std::vector<std::string> Prints = fingerprintsOf(Twice, 2);
  RunResult Run;
  TranslationUnitResult Unit;
  Unit.MainFile = "/nonexistent-project/src/train.cpp";
  MemoryProject Project;
  Project.add("src/train.cpp", Twice);
  for (unsigned I = 0; I < 2; ++I) {
    Unit.Findings.push_back(Project.finding(
        "libtorch-host-sync-in-loop", "src/train.cpp",
        Project.offsetOf("src/train.cpp", "loss.item", I), 9, "sync"));
    // As if each came from a shard that numbered only its own.
    Unit.Findings.back().Fingerprint =
        fingerprintHashPart(Prints[I]).str() + ":1";
  }
  Run.Units.push_back(Unit);
  renumberFingerprints(Run);
  EXPECT_EQ(Run.Units[0].Findings[0].Fingerprint, Prints[0]);
  EXPECT_EQ(Run.Units[0].Findings[1].Fingerprint, Prints[1]);
}

// Values of test/github_line_hash.py, the independent port of GitHub's
// algorithm (test/driver/sarif-line-hash.test compares whole logs with it).
TEST(GitHubLineHashTest, KnownValues) {
  // An empty line at the end of a file: 65535 * 37^99 modulo 2^64.
  EXPECT_EQ(githubLineHashes(""),
            (std::vector<std::string>{"c129715d7a2bc9a3:1"}));
  EXPECT_EQ(
      githubLineHashes("a\n"),
      (std::vector<std::string>{"243cbaa4685aab12:1", "c129715d7a2bc9a3:1"}));
  EXPECT_EQ(
      githubLineHashes("int x;\n\tint y;\r\nint x;\n"),
      (std::vector<std::string>{"222520db32fd691c:1", "5515633ce8fddd24:1",
                                "22bd3bea0af67823:1", "c129715d7a2bc9a3:1"}));
  // U+1F600, two UTF-16 units.
  EXPECT_EQ(githubLineHashes("x \xF0\x9F\x98\x80\n")[0], "52786071ac2f912a:1");
}

TEST(GitHubLineHashTest, WhitespaceAndLineBreaks) {
  // Spaces and tabs do not count; CRLF, CR and LF are one line break each.
  EXPECT_EQ(githubLineHashes("a b\nc\n"), githubLineHashes("\tab\n  c \n"));
  EXPECT_EQ(githubLineHashes("a\r\nb\r\n"), githubLineHashes("a\nb\n"));
  EXPECT_EQ(githubLineHashes("a\rb\n"), githubLineHashes("a\nb\n"));
  // A space between CR and LF makes two line breaks.
  EXPECT_EQ(githubLineHashes("a\r \nb").size(), 3u);
  // The hash covers 100 units from the line's start, then the occurrence.
  std::string Long(120, 'x');
  std::vector<std::string> Twice =
      githubLineHashes(Long + "1\n" + Long + "2\n");
  ASSERT_EQ(Twice.size(), 3u);
  EXPECT_EQ(llvm::StringRef(Twice[0]).rsplit(':').first,
            llvm::StringRef(Twice[1]).rsplit(':').first);
  EXPECT_EQ(llvm::StringRef(Twice[1]).rsplit(':').second, "2");
}

TEST(GitHubLineHashTest, Utf8DecodedAsUtf16WithReplacement) {
  EXPECT_EQ(decodeUtf8AsUtf16("a\xC3\xA9\xF0\x9F\x98\x80"),
            (std::vector<uint16_t>{'a', 0xE9, 0xD83D, 0xDE00}));
  // Each maximal subpart of an ill-formed sequence is one U+FFFD: a lone
  // lead byte, a truncated sequence, an overlong form, a surrogate, a byte
  // that never starts one.
  EXPECT_EQ(decodeUtf8AsUtf16("\xC3x"), (std::vector<uint16_t>{0xFFFD, 'x'}));
  EXPECT_EQ(decodeUtf8AsUtf16("\xF0\x9F\x98"), (std::vector<uint16_t>{0xFFFD}));
  EXPECT_EQ(decodeUtf8AsUtf16("\xE0\x80"),
            (std::vector<uint16_t>{0xFFFD, 0xFFFD}));
  EXPECT_EQ(decodeUtf8AsUtf16("\xED\xA0\x80"),
            (std::vector<uint16_t>{0xFFFD, 0xFFFD, 0xFFFD}));
  EXPECT_EQ(decodeUtf8AsUtf16("\xFF\xE2\x82"),
            (std::vector<uint16_t>{0xFFFD, 0xFFFD}));
}

TEST(SourceTextTest, PositionsCountBytesAndUtf16Units) {
  // "é" is 2 bytes and 1 UTF-16 unit; U+1F600 is 4 bytes and 2 units.
  SourceText Text("ab\n\xC3\xA9x\xF0\x9F\x98\x80y\r\nlast");
  EXPECT_EQ(Text.lineCount(), 3u);
  EXPECT_EQ(Text.line(2), "\xC3\xA9x\xF0\x9F\x98\x80y");
  EXPECT_EQ(Text.line(3), "last");
  EXPECT_EQ(Text.line(4), "");
  Position Y = Text.positionOf(3 + 2 + 1 + 4);
  EXPECT_EQ(Y.Line, 2u);
  EXPECT_EQ(Y.Column, 8u);
  EXPECT_EQ(Y.ColumnUtf16, 5u);
  EXPECT_EQ(Text.utf16Offset(3 + 2 + 1 + 4), 3u + 1u + 1u + 2u);
}

TEST(ProjectRootTest, RelativePathsAndUris) {
  EXPECT_EQ(relativeToRoot("/nonexistent-p/src/a b.cpp", "/nonexistent-p"),
            std::optional<std::string>("src/a b.cpp"));
  EXPECT_EQ(relativeToRoot("/nonexistent-p/src/../x.cpp", "/nonexistent-p/"),
            std::optional<std::string>("x.cpp"));
  EXPECT_EQ(relativeToRoot("/nonexistent-pq/x.cpp", "/nonexistent-p"),
            std::nullopt);
  EXPECT_EQ(encodeUriPath("src/a b#1%.cpp"), "src/a%20b%231%25.cpp");
  EXPECT_EQ(fileUri("/nonexistent-p", /*Directory=*/true),
            "file:///nonexistent-p/");
}

} // namespace fingerprint_test
