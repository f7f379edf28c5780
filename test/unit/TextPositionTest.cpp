//===--- TextPositionTest.cpp - Byte offsets as lines and columns ---------===//
//
// Part of libtorch-tidy. SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

#include "model/TextPosition.h"
#include "fix/FixApplier.h"
#include "lsp/TextDocument.h"
#include "report/SourceText.h"
#include "run/ErrorConversion.h"

#include "gtest/gtest.h"

using namespace libtorch_tidy;
using model::Position;

// Named, not anonymous: the unit tests compile in unity batches
// (CMakeLists.txt), where the helpers of one file must not meet another's.
namespace text_position_test {

void expectPosition(const Position &P, unsigned Line, unsigned Column,
                    unsigned ColumnUtf16) {
  EXPECT_EQ(P.Line, Line);
  EXPECT_EQ(P.Column, Column);
  EXPECT_EQ(P.ColumnUtf16, ColumnUtf16);
}

TEST(TextPositionTest, LinesAndColumnsAreOneBased) {
  llvm::StringRef Text = "ab\ncd\n";
  expectPosition(model::positionAt(Text, 0), 1, 1, 1);
  expectPosition(model::positionAt(Text, 4), 2, 2, 2);
  // The end of a text that ends with a line break is on the line after it,
  // as clang puts it.
  expectPosition(model::positionAt(Text, 6), 3, 1, 1);
  // Past the end: the end.
  expectPosition(model::positionAt("ab", 10), 1, 3, 3);
}

TEST(TextPositionTest, LfCrLfAndLoneCrAreOneBreakEach) {
  const std::string Text = "a\nb\r\nc\r";
  EXPECT_EQ(model::lineBreakLength(Text, 0), 0u);
  EXPECT_EQ(model::lineBreakLength(Text, 1), 1u);
  EXPECT_EQ(model::lineBreakLength(Text, 3), 2u);
  EXPECT_EQ(model::lineBreakLength(Text, 6), 1u);
  EXPECT_EQ(model::lineBreakLength(Text, 7), 0u);
  // "\n\r" is two breaks: w is on line 5.
  const std::string Mixed = "x\ry\r\nz\n\rw";
  expectPosition(model::positionAt(Mixed, Mixed.find('y')), 2, 1, 1);
  expectPosition(model::positionAt(Mixed, Mixed.find('z')), 3, 1, 1);
  expectPosition(model::positionAt(Mixed, Mixed.find('w')), 5, 1, 1);
  // The LF of a CRLF belongs to the line the CRLF ends (clang's column).
  expectPosition(model::positionAt(Mixed, Mixed.find("\r\n") + 1), 2, 3, 3);

  model::TextLines Lines(Mixed);
  EXPECT_EQ(Lines.lineCount(), 5u);
  EXPECT_EQ(Lines.line(1), "x");
  EXPECT_EQ(Lines.line(2), "y");
  EXPECT_EQ(Lines.line(3), "z");
  EXPECT_EQ(Lines.line(4), "");
  EXPECT_EQ(Lines.line(5), "w");
  EXPECT_EQ(Lines.line(6), "");
  for (size_t Offset = 0; Offset <= Mixed.size(); ++Offset) {
    Position P = Lines.positionOf(Offset);
    Position Q = model::positionAt(Mixed, Offset);
    EXPECT_EQ(std::tie(P.Line, P.Column, P.ColumnUtf16),
              std::tie(Q.Line, Q.Column, Q.ColumnUtf16))
        << "offset " << Offset;
  }
}

TEST(TextPositionTest, ALineBreakAtTheEndStartsNoLineToCount) {
  model::TextLines Lines("a\r");
  EXPECT_EQ(Lines.lineCount(), 1u);
  expectPosition(Lines.positionOf(2), 2, 1, 1);
  EXPECT_EQ(model::TextLines("").lineCount(), 1u);
  EXPECT_EQ(model::TextLines("\n").lineCount(), 1u);
  EXPECT_EQ(model::TextLines("\n\n").lineCount(), 2u);
}

TEST(TextPositionTest, Utf16ColumnsCountCodeUnits) {
  // "é" is 2 bytes and 1 UTF-16 unit; U+1F600 is 4 bytes and 2 units.
  const std::string Text = "x = \"\xC3\xA9\xF0\x9F\x98\x80\"; y";
  Position P = model::positionAt(Text, Text.size() - 1);
  EXPECT_EQ(P.Column, Text.size());
  EXPECT_EQ(P.ColumnUtf16, Text.size() - 1 - 3 + 1);
}

TEST(TextPositionTest, InvalidUtf8CountsOneUnitPerByte) {
  // A stray continuation byte, a byte that leads nothing, a truncated
  // sequence (a 3-byte lead before ASCII) and a 4-byte lead at the end.
  EXPECT_EQ(model::utf16Length("\x80"), 1u);
  EXPECT_EQ(model::utf16Length("\xFF"), 1u);
  EXPECT_EQ(model::utf16Length("\xE2\x82x"), 3u);
  EXPECT_EQ(model::utf16Length("\xF0"), 1u);
  EXPECT_EQ(model::utf16Length("\xF0\x9F\x98\x80"), 2u);
  EXPECT_EQ(model::positionAt("\xFF\xC3x", 3).ColumnUtf16, 4u);
}

TEST(TextPositionTest, OffsetsOfLinesAndColumns) {
  // "é" is 2 bytes, 1 unit; U+1D6FC ("𝛼") 4 bytes, 2 units.
  const std::string Text = "int a;\r\"\xC3\xA9\xF0\x9D\x9B\xBC\"; f();\r\nend";
  model::TextLines Lines(Text);
  const size_t F = Text.find("f()");
  EXPECT_EQ(Lines.offsetOf(2, 11), F);
  EXPECT_EQ(Lines.offsetOfUtf16(2, 8), F);
  // Inside the surrogate pair: the pair's start.
  EXPECT_EQ(Lines.offsetOfUtf16(2, 4), Text.find("\xF0"));
  // Past the line's text: its end, before the break (CR or CRLF).
  EXPECT_EQ(Lines.offsetOf(1, 99), Text.find('\r'));
  EXPECT_EQ(Lines.offsetOfUtf16(2, 99), Text.find("\r\n"));
  // Past the last line: the end of the text.
  EXPECT_EQ(Lines.offsetOf(9, 1), Text.size());
  EXPECT_EQ(Lines.offsetOfUtf16(9, 1), Text.size());
  EXPECT_EQ(Lines.lineStart(3), Text.find("end"));
  EXPECT_EQ(Lines.lineEnd(3), Text.size());
}

// The modules that count positions count with these rules: a lone CR is a
// line break for the analysis's findings, the report's source text, the
// language server and --fix's messages alike.
TEST(TextPositionTest, EveryModuleCountsALoneCr) {
  const std::string Text = "a\rb\r\nc";
  const size_t C = Text.find('c');

  report::SourceText Source(Text);
  EXPECT_EQ(Source.positionOf(C).Line, 3u);
  EXPECT_EQ(Source.line(2), "b");

  lsp::LspPosition P = lsp::positionAt(Text, C);
  EXPECT_EQ(P.Line, 2u);
  EXPECT_EQ(P.Character, 0u);
  EXPECT_EQ(lsp::offsetAt(Text, {1, 0}), Text.find('b'));
  EXPECT_EQ(lsp::offsetAt(Text, {0, 9}), Text.find('\r'));
  EXPECT_EQ(lsp::offsetOfLineColumn(Text, 3, 1), C);

  run::ParsedContents Parsed{{"/nonexistent-dir/a.cpp", Text}};
  run::ErrorConverter Converter("/nonexistent-dir", Parsed);
  clang::tidy::ClangTidyError Error("libtorch-x",
                                    clang::tidy::ClangTidyError::Warning,
                                    "/nonexistent-dir", false);
  Error.Message.Message = "m";
  Error.Message.FilePath = "a.cpp";
  Error.Message.FileOffset = C;
  model::TranslationUnitResult Unit;
  Converter.convert({Error}, Unit);
  ASSERT_EQ(Unit.Findings.size(), 1u);
  expectPosition(Unit.Findings[0].Where.Begin, 3, 1, 1);
}

} // namespace text_position_test
