//===--- Diagnostics.cpp - Findings as LSP diagnostics and code actions ---===//
//
// Part of libtorch-tidy. SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

#include "lsp/Diagnostics.h"
#include "lsp/TextDocument.h"
#include "model/TextPosition.h"
#include "report/CheckDocs.h"
#include "llvm/ADT/SmallString.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Path.h"
#include <algorithm>

using namespace llvm;

namespace libtorch_tidy::lsp {
namespace {

bool sameFile(StringRef A, StringRef B) {
  return A == B || sys::fs::equivalent(A, B);
}

bool isIdentifierByte(char C) { return isAlnum(C) || C == '_'; }

/// A point range widened to the identifier (or the one character) there, so
/// that editors have something to underline.
std::pair<size_t, size_t> visibleRange(StringRef Text, size_t Begin,
                                       size_t End) {
  Begin = std::min(Begin, Text.size());
  End = std::min(std::max(Begin, End), Text.size());
  if (End > Begin || Begin == Text.size() ||
      model::lineBreakLength(Text, Begin))
    return {Begin, End};
  End = Begin;
  while (End < Text.size() && isIdentifierByte(Text[End]))
    ++End;
  if (End == Begin)
    ++End;
  return {Begin, End};
}

/// The range of \p L: on the snapshot when \p L is in the document, else
/// from the UTF-16 columns the analysis computed on the bytes it read.
nlohmann::json locationJson(const model::Location &L, StringRef Path,
                            StringRef Snapshot) {
  if (sameFile(L.AbsoluteFile, Path)) {
    size_t End = L.End.Line
                     ? offsetOfLineColumn(Snapshot, L.End.Line, L.End.Column)
                     : L.Offset;
    auto [B, E] = visibleRange(Snapshot, L.Offset, End);
    return {{"uri", uriOfPath(Path)}, {"range", rangeJson(Snapshot, B, E)}};
  }
  LspPosition Begin{L.Begin.Line ? L.Begin.Line - 1 : 0,
                    L.Begin.ColumnUtf16 ? L.Begin.ColumnUtf16 - 1 : 0};
  LspPosition End = Begin;
  if (L.End.Line)
    End = {L.End.Line - 1, L.End.ColumnUtf16 ? L.End.ColumnUtf16 - 1 : 0};
  return {{"uri", uriOfPath(L.AbsoluteFile)},
          {"range", {{"start", toJson(Begin)}, {"end", toJson(End)}}}};
}

} // namespace

std::string uriOfPath(StringRef Path) {
  std::string Uri = "file://";
  for (const char C : Path) {
    if (isAlnum(C) || StringRef("/-._~").contains(C))
      Uri += C;
    else
      Uri += "%" + utohexstr(static_cast<unsigned char>(C), /*LowerCase=*/false,
                             /*Width=*/2);
  }
  return Uri;
}

std::string pathOfUri(StringRef Uri) {
  if (!Uri.consume_front("file://"))
    return "";
  // An authority ("file://host/...") other than localhost is not ours.
  if (!Uri.starts_with("/")) {
    if (!Uri.consume_front("localhost"))
      return "";
  }
  std::string Path;
  for (size_t I = 0; I < Uri.size(); ++I) {
    unsigned Byte;
    if (Uri[I] == '%' && I + 2 < Uri.size() + 0 &&
        !Uri.substr(I + 1, 2).getAsInteger(16, Byte)) {
      Path += static_cast<char>(Byte);
      I += 2;
    } else {
      Path += Uri[I];
    }
  }
  SmallString<256> Clean(Path);
  sys::path::remove_dots(Clean, /*remove_dot_dot=*/true);
  return std::string(Clean);
}

std::string checkDocsHref(StringRef CheckId, StringRef DocsDir) {
  if (report::checkDocMarkdown(CheckId).empty())
    return "";
  if (!DocsDir.empty()) {
    SmallString<256> Page(DocsDir);
    sys::path::append(Page, CheckId + ".md");
    if (sys::fs::is_regular_file(Page))
      return uriOfPath(Page);
  }
  return std::string(LIBTORCH_TIDY_CHECK_DOCS_URI) + "/" + CheckId.str() +
         ".md";
}

DocumentFindings documentFindings(const model::TranslationUnitResult &Unit,
                                  StringRef Path, StringRef Snapshot,
                                  StringRef DocsDir) {
  DocumentFindings Result;
  if (!Unit.CompilerErrors.empty()) {
    // One diagnostic for the errors (clangd shows them), on the first in
    // this file: for a header that is not found, its #include. The
    // findings that the errors cannot have changed follow
    // (driver/run/ParseRecovery.h); no quick fix is offered until it
    // parses.
    Result.DoesNotParse = true;
    const model::Finding &First = Unit.CompilerErrors.front();
    const model::Finding *Here = &First;
    for (const model::Finding &E : Unit.CompilerErrors)
      if (sameFile(E.Where.AbsoluteFile, Path)) {
        Here = &E;
        break;
      }
    DocumentDiagnostic D;
    if (sameFile(Here->Where.AbsoluteFile, Path))
      std::tie(D.Begin, D.End) =
          visibleRange(Snapshot, Here->Where.Offset, Here->Where.Offset);
    const size_t N = Unit.CompilerErrors.size();
    std::string Where = First.Where.File.empty()
                            ? std::string()
                            : " at " + First.Where.File + ":" +
                                  std::to_string(First.Where.Begin.Line);
    D.Diagnostic = {
        {"range", rangeJson(Snapshot, D.Begin, D.End)},
        {"severity", 2},
        {"source", "libtorch-tidy"},
        {"message",
         "this file does not parse (" + std::to_string(N) +
             (N == 1 ? " compiler error" : " compiler errors") + ", the first" +
             Where + ": " + First.Message +
             "); findings in code that the errors may have changed are left "
             "out until it compiles"}};
    Result.Diagnostics.push_back(std::move(D));
  }
  for (const model::Finding &F : Unit.Findings) {
    if (!sameFile(F.Where.AbsoluteFile, Path))
      continue;
    DocumentDiagnostic D;
    nlohmann::json Location = locationJson(F.Where, Path, Snapshot);
    D.Begin = std::min<size_t>(F.Where.Offset, Snapshot.size());
    D.End = offsetAt(Snapshot,
                     {Location["range"]["end"]["line"].get<unsigned>(),
                      Location["range"]["end"]["character"].get<unsigned>()});
    D.Diagnostic = {{"range", Location["range"]},
                    {"severity", F.Severity == "error" ? 1 : 2},
                    {"code", F.CheckId},
                    {"source", "libtorch-tidy"},
                    {"message", F.Message}};
    if (std::string Href = checkDocsHref(F.CheckId, DocsDir); !Href.empty())
      D.Diagnostic["codeDescription"] = {{"href", Href}};
    nlohmann::json Related = nlohmann::json::array();
    for (const model::Note &N : F.Notes)
      Related.push_back(
          {{"location", N.Where.AbsoluteFile.empty()
                            ? Location
                            : locationJson(N.Where, Path, Snapshot)},
           {"message", N.Message}});
    if (!Related.empty())
      D.Diagnostic["relatedInformation"] = std::move(Related);
    // Only fix-its wholly in this document: its bytes are the snapshot; a
    // header on disk may no longer hold what was parsed.
    const bool Local = !F.Fixes.empty() &&
                       llvm::all_of(F.Fixes, [&](const model::Replacement &R) {
                         return sameFile(R.File, Path) &&
                                R.Offset <= Snapshot.size() &&
                                R.Length <= Snapshot.size() - R.Offset;
                       });
    if (Local)
      for (const model::Replacement &R : F.Fixes) {
        D.Edits.push_back(
            {{"range", rangeJson(Snapshot, R.Offset, R.Offset + R.Length)},
             {"newText", R.Text}});
        D.EditSpans.emplace_back(R.Offset, R.Offset + R.Length);
      }
    Result.Diagnostics.push_back(std::move(D));
  }
  return Result;
}

} // namespace libtorch_tidy::lsp
