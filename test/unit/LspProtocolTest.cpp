//===--- LspProtocolTest.cpp - The language server's text and framing -----===//
//
// Part of libtorch-tidy. SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

#include "lsp/CodeActions.h"
#include "lsp/Diagnostics.h"
#include "lsp/JsonRpc.h"
#include "lsp/TextDocument.h"
#include "lsp/WorkDoneProgress.h"
#include "gtest/gtest.h"

using namespace libtorch_tidy::lsp;

// Named, not anonymous: the unit tests compile in unity batches
// (CMakeLists.txt), where the helpers of one file must not meet another's.
namespace lsp_protocol_test {

// "é" is 2 bytes and 1 UTF-16 unit, "𝛼" 4 bytes and 2 units.
const char *const Text = "int a;\n\"\xC3\xA9\xF0\x9D\x9B\xBC\"; f();\nend";

TEST(LspTextDocument, PositionsCountUtf16Units) {
  const std::string S(Text);
  const size_t F = S.find("f()");
  LspPosition P = libtorch_tidy::lsp::positionAt(S, F);
  EXPECT_EQ(P.Line, 1u);
  EXPECT_EQ(P.Character, 7u); // " é 𝛼 " ;  (1 + 1 + 2 + 1 + 1 + 1)
  EXPECT_EQ(offsetAt(S, P), F);
  EXPECT_EQ(offsetAt(S, {1, 2}), S.find("\xF0")); // after "é"
  // Inside the surrogate pair: the pair's start.
  EXPECT_EQ(offsetAt(S, {1, 3}), S.find("\xF0"));
  // Past the line's end: the end of the line; past the last line: the end.
  EXPECT_EQ(offsetAt(S, {0, 99}), S.find('\n'));
  EXPECT_EQ(offsetAt(S, {9, 0}), S.size());
  EXPECT_EQ(offsetOfLineColumn(S, 2, 11), S.find("f()"));
}

TEST(LspTextDocument, InvalidUtf8CountsOneUnitPerByte) {
  const std::string S = "\xFF\xC3x";
  EXPECT_EQ(libtorch_tidy::lsp::positionAt(S, 3).Character, 3u);
}

TEST(LspTextDocument, IncrementalAndFullChanges) {
  std::string S = Text;
  nlohmann::json Insert = {{"range",
                            {{"start", {{"line", 1}, {"character", 4}}},
                             {"end", {{"line", 1}, {"character", 4}}}}},
                           {"text", "\xC3\xBC"}};
  EXPECT_FALSE(applyContentChange(S, Insert));
  EXPECT_NE(S.find("\xF0\x9D\x9B\xBC\xC3\xBC\""), std::string::npos);
  nlohmann::json Join = {{"range",
                          {{"start", {{"line", 0}, {"character", 6}}},
                           {"end", {{"line", 1}, {"character", 0}}}}},
                         {"text", " "}};
  EXPECT_FALSE(applyContentChange(S, Join));
  EXPECT_EQ(S.substr(0, 8), "int a; \"");
  EXPECT_FALSE(applyContentChange(S, {{"text", "new"}}));
  EXPECT_EQ(S, "new");
  // Malformed changes leave the text alone.
  EXPECT_TRUE(applyContentChange(S, {{"range", 1}, {"text", "x"}}));
  EXPECT_TRUE(applyContentChange(S, nlohmann::json::array()));
  nlohmann::json Backwards = {{"range",
                               {{"start", {{"line", 0}, {"character", 2}}},
                                {"end", {{"line", 0}, {"character", 1}}}}},
                              {"text", ""}};
  EXPECT_TRUE(applyContentChange(S, Backwards));
  EXPECT_EQ(S, "new");
}

TEST(LspJsonRpc, FramesAcrossReadsAndRecoversFromBadHeaders) {
  MessageReader Reader;
  Reader.feed("Content-Length: 2\r\nContent-Type: x\r\n\r\n{");
  EXPECT_FALSE(Reader.next());
  Reader.feed("}Content-Length: nope\r\n\r\nX-Other: 1\r\n\r\n"
              "content-length: 4\r\n\r\n[1]x");
  auto First = Reader.next();
  ASSERT_TRUE(First);
  EXPECT_EQ(std::get<RawMessage>(*First).Body, "{}");
  auto Bad = Reader.next();
  ASSERT_TRUE(Bad && std::holds_alternative<FramingError>(*Bad));
  auto Missing = Reader.next();
  ASSERT_TRUE(Missing && std::holds_alternative<FramingError>(*Missing));
  auto Last = Reader.next();
  ASSERT_TRUE(Last);
  EXPECT_EQ(std::get<RawMessage>(*Last).Body, "[1]x");
  EXPECT_FALSE(Reader.next());
}

TEST(LspJsonRpc, OversizedBodiesAreSkipped) {
  MessageReader Reader;
  Reader.feed("Content-Length: 999999999999\r\n\r\nabc");
  auto Error = Reader.next();
  ASSERT_TRUE(Error && std::holds_alternative<FramingError>(*Error));
  EXPECT_FALSE(Reader.next()); // still skipping
}

TEST(LspJsonRpc, FramesInvalidUtf8WithoutThrowing) {
  std::string Framed = frame({{"message", "\xFF"}});
  EXPECT_EQ(Framed.rfind("Content-Length: ", 0), 0u);
}

TEST(LspDiagnostics, FileUris) {
  EXPECT_EQ(uriOfPath("/a b/c+d.cpp"), "file:///a%20b/c%2Bd.cpp");
  EXPECT_EQ(pathOfUri("file:///a%20b/c%2Bd.cpp"), "/a b/c+d.cpp");
  EXPECT_EQ(pathOfUri("file://localhost/x/../y.cpp"), "/y.cpp");
  EXPECT_EQ(pathOfUri("file://server/share/y.cpp"), "");
  EXPECT_EQ(pathOfUri("untitled:Untitled-1"), "");
}

} // namespace lsp_protocol_test

// Server-initiated progress: nothing is sent on a token before the client
// accepted it, nor on one it refused; an end before the answer forgets it.
TEST(WorkDoneProgressTest, SendsOnlyOnAcceptedTokens) {
  std::vector<nlohmann::json> Sent;
  libtorch_tidy::lsp::WorkDoneProgress Progress(
      [&](nlohmann::json M) { Sent.push_back(std::move(M)); });
  EXPECT_EQ(Progress.create("unsupported"), "");
  EXPECT_TRUE(Sent.empty());

  Progress.setSupported(true);
  const std::string Accepted = Progress.create("analyzing a.cpp");
  ASSERT_EQ(Sent.size(), 1u);
  EXPECT_EQ(Sent[0]["method"], "window/workDoneProgress/create");
  const nlohmann::json AcceptedId = Sent[0]["id"];
  Progress.report(Accepted, "too early");
  EXPECT_EQ(Sent.size(), 1u) << "a report before the answer";
  EXPECT_TRUE(Progress.answered(AcceptedId, /*Accepted=*/true));
  ASSERT_EQ(Sent.size(), 2u);
  EXPECT_EQ(Sent[1]["params"]["value"]["kind"], "begin");
  EXPECT_EQ(Sent[1]["params"]["value"]["message"], "analyzing a.cpp");
  Progress.report(Accepted, "halfway");
  Progress.end(Accepted, "done");
  ASSERT_EQ(Sent.size(), 4u);
  EXPECT_EQ(Sent[3]["params"]["value"]["kind"], "end");
  Progress.report(Accepted, "after the end");
  EXPECT_EQ(Sent.size(), 4u);

  const std::string Refused = Progress.create("building");
  const nlohmann::json RefusedId = Sent.back()["id"];
  EXPECT_TRUE(Progress.answered(RefusedId, /*Accepted=*/false));
  Progress.report(Refused, "refused");
  Progress.end(Refused, "refused");
  EXPECT_EQ(Sent.size(), 5u) << "nothing on a refused token";

  const std::string Ended = Progress.create("short");
  const nlohmann::json EndedId = Sent.back()["id"];
  Progress.end(Ended, "before the answer");
  EXPECT_TRUE(Progress.answered(EndedId, /*Accepted=*/true));
  EXPECT_EQ(Sent.size(), 6u) << "no begin for a task that already ended";
  EXPECT_FALSE(Progress.answered("another request", true));
  EXPECT_FALSE(Progress.answered(7, true));
}

// "Silence this finding here": NOLINT at the end of the finding's line, or
// NOLINTNEXTLINE above a commented line ending as that line ends; lines as
// clang counts them (LF, CRLF, lone CR); nothing inside a continued macro.
TEST(LspCodeActions, SilenceEdits) {
  using libtorch_tidy::lsp::silenceEdit;
  const std::string Lf = "int a;\nint b = f();\n";
  std::optional<nlohmann::json> End = silenceEdit(Lf, 9, "libtorch-x");
  ASSERT_TRUE(End);
  EXPECT_EQ((*End)["newText"], "  // NOLINT(libtorch-x)");
  EXPECT_EQ((*End)["range"]["start"]["line"], 1);
  EXPECT_EQ((*End)["range"]["start"]["character"], 12);

  const std::string Crlf = "int a;\r\n  int b = f(); // why\r\n";
  std::optional<nlohmann::json> Above = silenceEdit(Crlf, 12, "libtorch-x");
  ASSERT_TRUE(Above);
  EXPECT_EQ((*Above)["newText"], "  // NOLINTNEXTLINE(libtorch-x)\r\n");
  EXPECT_EQ((*Above)["range"]["start"]["line"], 1);
  EXPECT_EQ((*Above)["range"]["start"]["character"], 0);

  const std::string LoneCr = "int a;\rint b = f();\r";
  std::optional<nlohmann::json> Cr = silenceEdit(LoneCr, 9, "libtorch-x");
  ASSERT_TRUE(Cr);
  EXPECT_EQ((*Cr)["range"]["start"]["line"], 1);
  EXPECT_EQ((*Cr)["range"]["start"]["character"], 12);

  const std::string Macro = "#define STEP() \\\n  f(); \\\n  g()\n";
  EXPECT_FALSE(silenceEdit(Macro, 19, "libtorch-x"));
  EXPECT_FALSE(silenceEdit(Macro, 28, "libtorch-x"));

  // Under another check's NOLINTNEXTLINE: the check joins its list.
  const std::string Listed = "int a;\n// NOLINTNEXTLINE(other-check)\n"
                             "int b = f(); // why\n";
  std::optional<nlohmann::json> Merged =
      silenceEdit(Listed, Listed.find("f()"), "libtorch-x");
  ASSERT_TRUE(Merged);
  EXPECT_EQ((*Merged)["newText"], ", libtorch-x");
  EXPECT_EQ((*Merged)["range"]["start"]["line"], 1);
  EXPECT_EQ((*Merged)["range"]["start"]["character"], 29);

  // Raw string literals: a line that starts in one gets the comment at its
  // end, even with a `//` in the string; one that ends in one, above; one
  // that does both, nothing. Quotes in comments, characters and digit
  // separators start no string.
  const std::string Raw = "auto s = R\"x(a\nhttp://b)x\"; f();\n"
                          "g(); auto t = u8R\"(c\nd)\";\n"
                          "auto u = R\"(e\nf)\"; h(); auto v = R\"(g\nh)\";\n"
                          "int n = 1'000; char q = '\"'; // \"R\"(\n"
                          "k();\n";
  std::optional<nlohmann::json> AtEnd =
      silenceEdit(Raw, Raw.find("f()"), "libtorch-x");
  ASSERT_TRUE(AtEnd);
  EXPECT_EQ((*AtEnd)["newText"], "  // NOLINT(libtorch-x)");
  EXPECT_EQ((*AtEnd)["range"]["start"]["line"], 1);
  std::optional<nlohmann::json> Before =
      silenceEdit(Raw, Raw.find("g()"), "libtorch-x");
  ASSERT_TRUE(Before);
  EXPECT_EQ((*Before)["newText"], "// NOLINTNEXTLINE(libtorch-x)\n");
  EXPECT_EQ((*Before)["range"]["start"]["line"], 2);
  EXPECT_FALSE(silenceEdit(Raw, Raw.find("h()"), "libtorch-x"));
  std::optional<nlohmann::json> After =
      silenceEdit(Raw, Raw.find("k()"), "libtorch-x");
  ASSERT_TRUE(After);
  EXPECT_EQ((*After)["newText"], "  // NOLINT(libtorch-x)");

  const std::string Long = "int b = " + std::string(80, 'x') + "();\n";
  std::optional<nlohmann::json> Wrapped = silenceEdit(Long, 4, "libtorch-x");
  ASSERT_TRUE(Wrapped);
  EXPECT_EQ((*Wrapped)["newText"], "// NOLINTNEXTLINE(libtorch-x)\n");
}
