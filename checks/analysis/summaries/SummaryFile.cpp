//===--- SummaryFile.cpp - The summary file's text ------------------------===//
//
// Part of libtorch-tidy. SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

#include "analysis/summaries/SummaryFile.h"
#include "analysis/summaries/SummaryJson.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/JSON.h"
#include "llvm/Support/raw_ostream.h"
#include <map>
#include <tuple>

namespace clang::tidy::libtorch::analysis {

using llvm::json::Array;
using llvm::json::Object;
using llvm::json::Value;

namespace {

constexpr llvm::StringLiteral Format = "libtorch-tidy-summaries";
constexpr int64_t Version = 4;
/// How deep arrays and objects may nest in a line. A function's line nests
/// five deep (the line, its function, its waits, a wait, its place);
/// llvm::json::parse recurses once per level without a bound, so a line of
/// a few hundred thousand `[` would overflow the stack of the worker, or of
/// clang-tidy with the plugin, before saying anything.
constexpr unsigned MaxNesting = 64;
/// How every line after the header begins.
constexpr llvm::StringLiteral UsrPrefix = "{\"usr\":\"";

llvm::Error notASummaryFile(const llvm::Twine &Why) {
  return llvm::createStringError(llvm::inconvertibleErrorCode(),
                                 "not a summary file of this version (" + Why +
                                     ")");
}

/// Whether the arrays and objects of \p Text nest deeper than \p Limit,
/// counted outside strings; what is not JSON is left to the parser to name.
bool nestsDeeperThan(llvm::StringRef Text, unsigned Limit) {
  unsigned Depth = 0;
  bool InString = false;
  for (size_t I = 0; I < Text.size(); ++I) {
    const char C = Text[I];
    if (InString) {
      if (C == '\\')
        ++I;
      else if (C == '"')
        InString = false;
    } else if (C == '"') {
      InString = true;
    } else if (C == '[' || C == '{') {
      if (++Depth > Limit)
        return true;
    } else if ((C == ']' || C == '}') && Depth > 0) {
      --Depth;
    }
  }
  return false;
}

/// \p Text as a JSON string: quoted and escaped.
std::string quoted(llvm::StringRef Text) {
  std::string Out;
  llvm::raw_string_ostream(Out) << Value(Text.str());
  return Out;
}

/// The USR of a line as the file writes it (escaped, unquoted); nothing
/// when the line does not begin as every line does.
std::optional<llvm::StringRef> keyOf(llvm::StringRef Line) {
  if (!Line.consume_front(UsrPrefix))
    return std::nullopt;
  for (size_t I = 0; I < Line.size(); ++I) {
    if (Line[I] == '\\')
      ++I;
    else if (Line[I] == '"')
      return Line.take_front(I);
  }
  return std::nullopt;
}

/// A line parsed: its main file and, unless it names only its unit, its
/// function.
struct ParsedLine {
  std::string MainFile;
  std::optional<FunctionSummary> Function;
};

llvm::Expected<ParsedLine> parseLine(llvm::StringRef Line) {
  if (nestsDeeperThan(Line, MaxNesting))
    return notASummaryFile("arrays and objects nested deeper than " +
                           llvm::Twine(MaxNesting) + " levels");
  llvm::Expected<Value> Json = llvm::json::parse(Line);
  if (!Json)
    return notASummaryFile(llvm::toString(Json.takeError()));
  const Object *Fields = Json->getAsObject();
  std::optional<llvm::StringRef> MainFile =
      Fields ? Fields->getString("mainFile") : std::nullopt;
  if (!MainFile)
    return notASummaryFile("a line has no \"mainFile\"");
  ParsedLine Parsed{MainFile->str(), std::nullopt};
  const Value *Function = Fields->get("function");
  if (!Function)
    return Parsed;
  llvm::Expected<std::vector<FunctionSummary>> Summaries =
      summariesFromJson(Array{*Function});
  if (!Summaries)
    return notASummaryFile(llvm::toString(Summaries.takeError()) + " in " +
                           *MainFile);
  if (Summaries->front().Usr != Fields->getString("usr"))
    return notASummaryFile("a line's \"usr\" is not its function's");
  Parsed.Function = std::move(Summaries->front());
  return Parsed;
}

/// The line that begins at \p Start of \p Text, without its newline.
llvm::StringRef lineAt(llvm::StringRef Text, size_t Start) {
  return Text.slice(Start, Text.find('\n', Start));
}

} // namespace

std::string summaryFileText(std::vector<SummarizedUnit> Units) {
  struct Line {
    std::string Key, MainFile, Text;
  };
  std::vector<Line> Lines;
  for (const SummarizedUnit &Unit : Units) {
    const std::string File = quoted(Unit.MainFile);
    Lines.push_back(
        {"", Unit.MainFile, "{\"usr\":\"\",\"mainFile\":" + File + "}"});
    Array Functions = summariesToJson(Unit.Functions);
    for (size_t I = 0; I < Functions.size(); ++I) {
      const std::string Usr = quoted(Unit.Functions[I].Usr);
      std::string Function;
      llvm::raw_string_ostream(Function) << Functions[I];
      Lines.push_back({Usr.substr(1, Usr.size() - 2), Unit.MainFile,
                       "{\"usr\":" + Usr + ",\"mainFile\":" + File +
                           ",\"function\":" + Function + "}"});
    }
  }
  llvm::stable_sort(Lines, [](const Line &A, const Line &B) {
    return std::tie(A.Key, A.MainFile) < std::tie(B.Key, B.MainFile);
  });
  std::string Text;
  llvm::raw_string_ostream OS(Text);
  OS << Value(Object{{"format", Format}, {"version", Version}}) << "\n";
  for (const Line &L : Lines)
    OS << L.Text << "\n";
  return Text;
}

llvm::Expected<std::vector<SummarizedUnit>>
parseSummaryFile(llvm::StringRef Text) {
  if (llvm::Expected<SummaryLines> Lines = SummaryLines::of(Text); !Lines)
    return Lines.takeError();
  std::map<std::string, SummarizedUnit> Units;
  llvm::StringRef Rest = Text.split('\n').second;
  while (!Rest.empty()) {
    auto [Line, After] = Rest.split('\n');
    Rest = After;
    llvm::Expected<ParsedLine> Parsed = parseLine(Line);
    if (!Parsed)
      return Parsed.takeError();
    SummarizedUnit &Unit = Units[Parsed->MainFile];
    Unit.MainFile = Parsed->MainFile;
    if (Parsed->Function)
      Unit.Functions.push_back(std::move(*Parsed->Function));
  }
  std::vector<SummarizedUnit> Result;
  for (auto &[File, Unit] : Units)
    Result.push_back(std::move(Unit));
  return Result;
}

llvm::Expected<SummaryLines> SummaryLines::of(llvm::StringRef Text) {
  auto [Header, Functions] = Text.split('\n');
  // The header is one short line; a file whose first line is long is not
  // ours, and is not parsed.
  if (nestsDeeperThan(Header, MaxNesting))
    return notASummaryFile("arrays and objects nested deeper than " +
                           llvm::Twine(MaxNesting) + " levels");
  llvm::Expected<Value> Json =
      Header.size() > 4096
          ? llvm::createStringError(llvm::inconvertibleErrorCode(),
                                    "its first line is no header")
          : llvm::json::parse(Header);
  if (!Json)
    return notASummaryFile(llvm::toString(Json.takeError()));
  const Object *Root = Json->getAsObject();
  if (!Root || Root->getString("format") != Format)
    return notASummaryFile("no \"format\": \"libtorch-tidy-summaries\"");
  if (Root->getInteger("version") != Version)
    return notASummaryFile("version is not " + llvm::Twine(Version));
  if (!Functions.empty() && !Functions.ends_with("\n"))
    return notASummaryFile("its last line is cut short");
  // The form and the order of every line, so that a damaged file is an
  // error now, not a search that silently misses.
  std::optional<llvm::StringRef> Previous;
  for (size_t Start = 0; Start < Functions.size();) {
    const llvm::StringRef Line = lineAt(Functions, Start);
    std::optional<llvm::StringRef> Key = keyOf(Line);
    if (!Key || !Line.ends_with("}"))
      return notASummaryFile("a line is not a summary's");
    if (Previous && *Key < *Previous)
      return notASummaryFile("its lines are not sorted by USR");
    Previous = Key;
    Start += Line.size() + 1;
  }
  SummaryLines Lines;
  Lines.Functions = Functions;
  return Lines;
}

std::optional<FunctionSummary> SummaryLines::find(llvm::StringRef Usr) const {
  if (Usr.empty() || Functions.empty())
    return std::nullopt;
  const std::string Quoted = quoted(Usr);
  const llvm::StringRef Wanted =
      llvm::StringRef(Quoted).drop_front().drop_back();
  // The first line whose key is not below Wanted: a binary search over
  // bytes, each probe moved back to the start of its line.
  size_t Low = 0, High = Functions.size();
  while (Low < High) {
    const size_t Middle = Low + (High - Low) / 2;
    const size_t Newline = Functions.rfind('\n', Middle);
    const size_t Start =
        std::max(Low, Newline == llvm::StringRef::npos ? 0 : Newline + 1);
    const llvm::StringRef Line = lineAt(Functions, Start);
    if (*keyOf(Line) < Wanted)
      Low = Start + Line.size() + 1;
    else
      High = Start;
  }
  if (Low >= Functions.size())
    return std::nullopt;
  const llvm::StringRef Line = lineAt(Functions, Low);
  if (*keyOf(Line) != Wanted)
    return std::nullopt;
  llvm::Expected<ParsedLine> Parsed = parseLine(Line);
  if (!Parsed) {
    llvm::consumeError(Parsed.takeError());
    return std::nullopt;
  }
  return std::move(Parsed->Function);
}

} // namespace clang::tidy::libtorch::analysis
