//===--- CodeActions.cpp - What an editor offers on a finding -------------===//
//
// Part of libtorch-tidy. SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

#include "lsp/CodeActions.h"
#include "lsp/TextDocument.h"
#include "model/TextPosition.h"
#include "report/CheckDocs.h"
#include "report/SarifRules.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/StringExtras.h"
#include <map>

using namespace llvm;

namespace libtorch_tidy::lsp {
namespace {

/// A line that grows past this with a NOLINT comment gets it above instead
/// (as clang-format would wrap it).
constexpr size_t LongLine = 100;

bool kindWanted(StringRef Kind, const std::vector<std::string> &Only) {
  if (Only.empty())
    return true;
  return llvm::any_of(Only, [&](const std::string &O) {
    return Kind == O || Kind.starts_with(O + ".");
  });
}

nlohmann::json workspaceEdit(StringRef Uri, long long Version,
                             const nlohmann::json &Edits,
                             bool DocumentChanges) {
  if (DocumentChanges)
    return {{"documentChanges",
             nlohmann::json::array(
                 {{{"textDocument", {{"uri", Uri.str()}, {"version", Version}}},
                   {"edits", Edits}}})}};
  return {{"changes", {{Uri.str(), Edits}}}};
}

std::string checkOf(const DocumentDiagnostic &D) {
  return D.Diagnostic.contains("code") ? D.Diagnostic["code"].get<std::string>()
                                       : std::string();
}

/// The edits of the diagnostics \p Take accepts, leaving out each whose
/// edits overlap one taken before (in the analysis's order).
nlohmann::json
nonOverlappingEdits(const DocumentFindings &Findings,
                    function_ref<bool(const DocumentDiagnostic &)> Take) {
  nlohmann::json Edits = nlohmann::json::array();
  std::vector<std::pair<size_t, size_t>> Taken;
  for (const DocumentDiagnostic &D : Findings.Diagnostics) {
    if (D.Edits.empty() || !Take(D))
      continue;
    const bool Overlaps = llvm::any_of(D.EditSpans, [&](auto Span) {
      return llvm::any_of(Taken, [&](auto T) {
        return Span.first < T.second && T.first < Span.second;
      });
    });
    if (Overlaps)
      continue;
    for (const nlohmann::json &E : D.Edits)
      Edits.push_back(E);
    Taken.insert(Taken.end(), D.EditSpans.begin(), D.EditSpans.end());
  }
  return Edits;
}

/// Whether byte \p Offset of the C++ source \p Text is inside a raw string
/// literal (`R"x(...)x"`, with any encoding prefix), where a comment is
/// text of the string. Comments, character and ordinary string literals
/// are skipped so that a quote or an `R"` in them starts nothing.
bool insideRawString(StringRef Text, size_t Offset) {
  const auto IdentifierChar = [&](size_t I) {
    return isAlnum(Text[I]) || Text[I] == '_';
  };
  size_t I = 0;
  while (I < Offset && I < Text.size()) {
    const StringRef Rest = Text.drop_front(I);
    if (Rest.starts_with("//")) {
      I = Text.find('\n', I);
      if (I == StringRef::npos)
        return false;
    } else if (Rest.starts_with("/*")) {
      I = Text.find("*/", I + 2);
      if (I == StringRef::npos)
        return false;
      I += 2;
    } else if (Text[I] == '"' || Text[I] == '\'') {
      // A quote after a digit or letter of a number is a digit separator
      // (1'000), not a character literal; after `u8`, `L`, `u` or `U` it
      // is one.
      size_t Word = I;
      while (Word > 0 && IdentifierChar(Word - 1))
        --Word;
      const StringRef Before = Text.slice(Word, I);
      const bool Prefix = Before.empty() || Before == "u8" || Before == "L" ||
                          Before == "u" || Before == "U";
      if (Text[I] == '\'' && !Prefix) {
        ++I;
        continue;
      }
      if (Text[I] == '"' && Before.ends_with("R") &&
          (Before == "R" || Before == "u8R" || Before == "LR" ||
           Before == "uR" || Before == "UR")) {
        const size_t Open = Text.find('(', I);
        if (Open == StringRef::npos)
          return false;
        const std::string Close = ")" + Text.slice(I + 1, Open).str() + "\"";
        const size_t End = Text.find(Close, Open);
        if (End == StringRef::npos || End + Close.size() > Offset)
          return Offset > I;
        I = End + Close.size();
        continue;
      }
      const char Quote = Text[I];
      for (++I; I < Text.size() && Text[I] != Quote && Text[I] != '\n'; ++I)
        if (Text[I] == '\\')
          ++I;
      ++I;
    } else {
      ++I;
    }
  }
  return false;
}

/// The edit that adds \p CheckId to the `NOLINTNEXTLINE(...)` of the line
/// \p Line (which starts at \p LineBegin): one inserted between it and the
/// line it silences would silence that comment instead, and bring back
/// the findings it named. Nothing when \p Line has no such list.
std::optional<nlohmann::json> mergedNoLintNextLine(StringRef Text,
                                                   size_t LineBegin,
                                                   StringRef Line,
                                                   StringRef CheckId) {
  const size_t Directive = Line.find("NOLINTNEXTLINE(");
  if (Directive == StringRef::npos)
    return std::nullopt;
  const size_t Close = Line.find(')', Directive);
  if (Close == StringRef::npos)
    return std::nullopt;
  const size_t At = LineBegin + Close;
  return nlohmann::json{{"range", rangeJson(Text, At, At)},
                        {"newText", ", " + CheckId.str()}};
}

} // namespace

std::optional<nlohmann::json> silenceEdit(StringRef Text, size_t Offset,
                                          StringRef CheckId) {
  // Lines as clang counts them (LF, CRLF and a lone CR each end one), so
  // that the comment is on the line the finding's NOLINT is read from.
  const model::TextLines Lines(Text);
  const unsigned LineNo = Lines.positionOf(std::min(Offset, Text.size())).Line;
  const size_t LineBegin = Lines.lineStart(LineNo);
  const StringRef Line = Lines.line(LineNo);
  // A continued line (a macro's body) ends in a backslash: a comment after
  // it or above it is not the line's.
  if (Line.rtrim().ends_with("\\") ||
      (LineNo > 1 && Lines.line(LineNo - 1).rtrim().ends_with("\\")))
    return std::nullopt;
  const std::string Comment = "// NOLINT(" + CheckId.str() + ")";
  const bool Commented = Line.contains("//") || Line.contains("/*");
  const size_t End = LineBegin + Line.rtrim(" \t").size();
  // A comment inside a raw string literal is the string's text: a line
  // that ends in one gets nothing at its end, and one that starts in one
  // nothing above it (a NOLINTNEXTLINE there is read for the line it is
  // on, and one above the statement, for another line).
  const bool StartsInString = insideRawString(Text, LineBegin);
  const bool EndsInString = insideRawString(Text, End);
  if (StartsInString && EndsInString)
    return std::nullopt;
  if (!EndsInString &&
      (StartsInString ||
       (!Commented &&
        positionAt(Text, End).Character + 2 + Comment.size() <= LongLine))) {
    return nlohmann::json{{"range", rangeJson(Text, End, End)},
                          {"newText", "  " + Comment}};
  }
  if (LineNo > 1)
    if (std::optional<nlohmann::json> Merged = mergedNoLintNextLine(
            Text, Lines.lineStart(LineNo - 1), Lines.line(LineNo - 1), CheckId))
      return Merged;
  const StringRef Indent =
      Line.take_while([](char C) { return C == ' ' || C == '\t'; });
  // The new line ends as the line it goes above does.
  const size_t BreakAt = Lines.lineEnd(LineNo);
  const StringRef Break =
      Text.substr(BreakAt, model::lineBreakLength(Text, BreakAt));
  return nlohmann::json{{"range", rangeJson(Text, LineBegin, LineBegin)},
                        {"newText", Indent.str() + "// NOLINTNEXTLINE(" +
                                        CheckId.str() + ")" +
                                        (Break.empty() ? "\n" : Break.str())}};
}

std::string checkExplanation(StringRef CheckId, StringRef DocsDir) {
  StringRef Markdown = report::checkDocMarkdown(CheckId);
  if (Markdown.empty())
    return "";
  return "**" + CheckId.str() + "**: " + report::docDescription(Markdown) +
         "\n\n[" + CheckId.str() + "](" + checkDocsHref(CheckId, DocsDir) + ")";
}

nlohmann::json codeActions(const DocumentFindings &Findings, StringRef Text,
                           StringRef Uri, long long Version, size_t Begin,
                           size_t End, const std::vector<std::string> &Only,
                           bool DocumentChanges) {
  nlohmann::json Actions = nlohmann::json::array();
  if (Findings.DoesNotParse)
    return Actions;
  std::map<std::string, unsigned> FixableOfCheck;
  for (const DocumentDiagnostic &D : Findings.Diagnostics)
    if (!D.Edits.empty())
      ++FixableOfCheck[checkOf(D)];
  if (kindWanted("quickfix", Only))
    for (const DocumentDiagnostic &D : Findings.Diagnostics) {
      if (D.Begin > End || Begin > D.End)
        continue;
      const std::string Check = checkOf(D);
      const nlohmann::json Diagnostics = nlohmann::json::array({D.Diagnostic});
      if (!D.Edits.empty())
        Actions.push_back(
            {{"title",
              "Apply fix: " + D.Diagnostic["message"].get<std::string>() +
                  " (" + Check + ")"},
             {"kind", "quickfix"},
             {"diagnostics", Diagnostics},
             {"isPreferred", true},
             {"edit", workspaceEdit(Uri, Version, D.Edits, DocumentChanges)}});
      if (FixableOfCheck[Check] > 1 && !D.Edits.empty())
        Actions.push_back(
            {{"title", "Fix all " + Check + " in this file"},
             {"kind", "quickfix"},
             {"diagnostics", Diagnostics},
             {"edit", workspaceEdit(Uri, Version,
                                    nonOverlappingEdits(
                                        Findings,
                                        [&](const DocumentDiagnostic &Other) {
                                          return checkOf(Other) == Check;
                                        }),
                                    DocumentChanges)}});
      if (Check.empty())
        continue;
      if (std::optional<nlohmann::json> Silence =
              silenceEdit(Text, D.Begin, Check))
        Actions.push_back(
            {{"title", "Silence this finding here (NOLINT(" + Check + "))"},
             {"kind", "quickfix"},
             {"diagnostics", Diagnostics},
             {"edit",
              workspaceEdit(Uri, Version, nlohmann::json::array({*Silence}),
                            DocumentChanges)}});
      if (!report::checkDocMarkdown(Check).empty())
        Actions.push_back({{"title", "Explain " + Check},
                           {"kind", "quickfix"},
                           {"diagnostics", Diagnostics},
                           {"command",
                            {{"title", "Explain " + Check},
                             {"command", ExplainCommand},
                             {"arguments", {Check}}}}});
    }
  if (kindWanted("source.fixAll.libtorch-tidy", Only)) {
    nlohmann::json Edits = nonOverlappingEdits(
        Findings, [](const DocumentDiagnostic &) { return true; });
    if (!Edits.empty())
      Actions.push_back(
          {{"title", "Apply every libtorch-tidy fix-it of the file"},
           {"kind", "source.fixAll.libtorch-tidy"},
           {"edit", workspaceEdit(Uri, Version, Edits, DocumentChanges)}});
  }
  return Actions;
}

nlohmann::json hoverAt(const DocumentFindings &Findings, StringRef Text,
                       size_t Offset, StringRef DocsDir) {
  std::string Markdown;
  std::optional<std::pair<size_t, size_t>> Range;
  for (const DocumentDiagnostic &D : Findings.Diagnostics) {
    if (Offset < D.Begin || Offset > D.End)
      continue;
    const std::string Check = checkOf(D);
    if (!Markdown.empty())
      Markdown += "\n\n---\n\n";
    Markdown += D.Diagnostic["message"].get<std::string>();
    if (std::string Explanation = checkExplanation(Check, DocsDir);
        !Explanation.empty())
      Markdown += "\n\n" + Explanation;
    Range = Range ? std::make_pair(std::min(Range->first, D.Begin),
                                   std::max(Range->second, D.End))
                  : std::make_pair(D.Begin, D.End);
  }
  if (!Range)
    return nullptr;
  return {{"contents", {{"kind", "markdown"}, {"value", Markdown}}},
          {"range", rangeJson(Text, Range->first, Range->second)}};
}

} // namespace libtorch_tidy::lsp
