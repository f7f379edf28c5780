//===--- SarifRules.cpp - SARIF rule descriptors for checks ---------------===//
//
// Part of libtorch-tidy. SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

#include "SarifRules.h"
#include "Catalog.h"
#include "CheckDocs.h"

#include "llvm/ADT/SmallVector.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Config/llvm-config.h"

namespace libtorch_tidy::report {

using clang::tidy::libtorch::CheckInfo;
using clang::tidy::libtorch::CheckTier;
using nlohmann::json;

namespace {

const CheckInfo *findCheck(llvm::StringRef Id) {
  for (const CheckInfo &Check : clang::tidy::libtorch::checkCatalog())
    if (Check.Id == Id)
      return &Check;
  return nullptr;
}

/// True when \p Text ends a sentence: `.`, `!` or `?`, maybe followed by
/// closing parentheses, quotes or code spans.
bool endsSentence(llvm::StringRef Text) {
  Text = Text.rtrim().rtrim(")\"'`*");
  return !Text.empty() && llvm::StringRef(".!?").contains(Text.back());
}

/// The text of a list item (`- `, `* `, `1. `), or empty for another line.
llvm::StringRef listItemText(llvm::StringRef Line) {
  if (Line.consume_front("- ") || Line.consume_front("* "))
    return Line.trim();
  llvm::StringRef Rest = Line.ltrim("0123456789");
  if (Rest.size() < Line.size() && Rest.consume_front(". "))
    return Rest.trim();
  return {};
}

/// Lines that start a block other than a paragraph's next line.
bool isBlockStart(llvm::StringRef Line) {
  return Line.starts_with("#") || Line.starts_with("|") ||
         Line.starts_with("```") || !listItemText(Line).empty();
}

/// \p Text without Markdown's emphasis markers (`**`, `*`) outside code
/// spans; a `*` between spaces (a product) stays.
std::string withoutEmphasis(llvm::StringRef Text) {
  std::string Plain;
  bool InCode = false;
  for (size_t I = 0; I < Text.size(); ++I) {
    const char C = Text[I];
    if (C == '`')
      InCode = !InCode;
    const bool SpaceBefore = I == 0 || Text[I - 1] == ' ';
    const bool SpaceAfter = I + 1 == Text.size() || Text[I + 1] == ' ';
    if (!InCode && C == '*' && !(SpaceBefore && SpaceAfter))
      continue;
    Plain += C;
  }
  return Plain;
}

/// Cuts \p Text to at most \p MaxLength bytes after its last complete
/// sentence that fits; at a word boundary, marked with "...", when not even
/// the first sentence fits.
std::string shorten(std::string Text, size_t MaxLength) {
  if (Text.size() <= MaxLength)
    return Text;
  for (size_t End = MaxLength; End > 0; --End)
    if (Text[End - 1] == '.' && (End == Text.size() || Text[End] == ' ') &&
        endsSentence(llvm::StringRef(Text).take_front(End)))
      return Text.substr(0, End);
  size_t Cut = Text.rfind(' ', MaxLength - 3);
  if (Cut == std::string::npos || Cut == 0)
    Cut = MaxLength - 3;
  return Text.substr(0, Cut) + "...";
}

json libtorchRule(const CheckInfo &Check) {
  const bool Default = Check.Tier == CheckTier::Default;
  std::string Summary = shorten(Check.Summary.str(), 1024);
  llvm::StringRef Markdown = checkDocMarkdown(Check.Id);
  std::string Full = Markdown.empty() ? Summary : docDescription(Markdown);
  json Rule = {
      {"id", Check.Id.str()},
      {"name", ruleName(Check.Id)},
      {"helpUri", checkDocsUrl(Check.Id)},
      {"shortDescription", {{"text", Summary}}},
      {"fullDescription", {{"text", Full}}},
      {"defaultConfiguration", {{"level", "warning"}}},
      {"properties",
       {{"tags",
         {"libtorch", "performance", Default ? "tier:default" : "tier:opt-in"}},
        // The default tier is the set precise enough to gate CI; opt-in
        // checks are suggestions with trade-offs (docs/architecture.md,
        // "Check tiers").
        {"precision", Default ? "high" : "medium"},
        {"problem.severity", Default ? "warning" : "recommendation"}}}};
  if (!Markdown.empty())
    Rule["help"] = {{"text", Markdown.str()}, {"markdown", Markdown.str()}};
  else
    Rule["help"] = {{"text", Summary}};
  return Rule;
}

json otherRule(llvm::StringRef CheckId) {
  const bool Diagnostic = CheckId.starts_with("clang-diagnostic-");
  std::string What = Diagnostic ? "Clang compiler diagnostic '" +
                                      CheckId.drop_front(17).str() + "'"
                                : "clang-tidy check '" + CheckId.str() + "'";
  std::string Url = llvmDocsUrl(CheckId);
  json Rule = {
      {"id", CheckId.str()},
      {"name", ruleName(CheckId)},
      {"helpUri", Url},
      {"shortDescription", {{"text", What}}},
      {"fullDescription",
       {{"text", What + ", reported through libtorch-tidy."}}},
      {"defaultConfiguration",
       {{"level", CheckId == "clang-diagnostic-error" ? "error" : "warning"}}},
      {"properties",
       {{"tags", {Diagnostic ? "compiler" : "clang-tidy"}},
        {"precision", "medium"}}}};
  Rule["help"] = {
      {"text", What + ": see " + Url},
      {"markdown", What + ": see [its documentation](" + Url + ")."}};
  return Rule;
}

} // namespace

std::string docDescription(llvm::StringRef Markdown, size_t MaxLength) {
  llvm::SmallVector<llvm::StringRef> Lines;
  Markdown.split(Lines, '\n');
  size_t I = 0;
  auto AtEnd = [&] { return I == Lines.size(); };
  auto Current = [&] { return Lines[I].trim(); };
  auto SkipBlankLines = [&] {
    while (!AtEnd() && Current().empty())
      ++I;
  };
  // The title and the "**Tier:** ..." paragraph.
  while (!AtEnd() && (Current().empty() || Current().starts_with("#")))
    ++I;
  if (!AtEnd() && Current().starts_with("**Tier")) {
    while (!AtEnd() && !Current().empty())
      ++I;
    SkipBlankLines();
  }

  std::string Text;
  auto Append = [&](llvm::StringRef Words) {
    if (!Text.empty() && !Words.empty())
      Text += ' ';
    Text += Words.str();
  };
  for (; !AtEnd() && !Current().empty() && !isBlockStart(Current()); ++I)
    Append(Current());
  // A first paragraph that introduces a list or an example ("Finds ...:")
  // goes on in it: the description takes the blocks that follow until a
  // sentence is complete.
  for (SkipBlankLines(); !AtEnd() && !Text.empty() && !endsSentence(Text);
       SkipBlankLines()) {
    llvm::StringRef Line = Current();
    if (Line.starts_with("```")) {
      std::vector<std::string> Code;
      for (++I; !AtEnd() && !Current().starts_with("```"); ++I)
        if (!Current().empty())
          Code.push_back("`" + Current().str() + "`");
      if (!AtEnd())
        ++I; // the closing fence
      Append(llvm::join(Code, "; "));
    } else if (!listItemText(Line).empty()) {
      // Items and their continuation lines, up to a line after a blank one
      // that is no item.
      while (!AtEnd()) {
        if (Current().empty()) {
          size_t Next = I;
          while (Next < Lines.size() && Lines[Next].trim().empty())
            ++Next;
          if (Next == Lines.size() || listItemText(Lines[Next].trim()).empty())
            break;
          I = Next;
        }
        llvm::StringRef Item = listItemText(Current());
        Append(Item.empty() ? Current() : Item);
        ++I;
      }
    } else {
      break;
    }
  }
  while (!Text.empty() && llvm::StringRef(":;,").contains(Text.back()))
    Text.pop_back();
  if (!Text.empty() && !endsSentence(Text))
    Text += '.';
  return shorten(withoutEmphasis(Text), MaxLength);
}

std::string llvmDocsUrl(llvm::StringRef CheckId) {
  // The documentation of the release the CLI links (X.Y.0 of its major).
  const std::string Base = "https://releases.llvm.org/" +
                           std::to_string(LLVM_VERSION_MAJOR) + "." +
                           std::to_string(LLVM_VERSION_MINOR) + ".0/";
  std::string Diagnostics = Base + "tools/clang/docs/DiagnosticsReference.html";
  if (CheckId.consume_front("clang-diagnostic-")) {
    // Errors have no flag and no anchor of their own.
    if (CheckId.empty() || CheckId == "error")
      return Diagnostics;
    return Diagnostics + "#w" + CheckId.str();
  }
  const std::string Checks = Base + "tools/clang/tools/extra/docs/clang-tidy/";
  auto [Module, Name] = CheckId.split('-');
  if (Module.empty() || Name.empty())
    return Checks + "checks/list.html";
  if (Module == "clang" && Name.consume_front("analyzer-"))
    Module = "clang-analyzer";
  return Checks + "checks/" + Module.str() + "/" + Name.str() + ".html";
}

std::string checkDocsUrl(llvm::StringRef CheckId) {
  return std::string(LIBTORCH_TIDY_CHECK_DOCS_URI) + "/" + CheckId.str() +
         ".md";
}

std::string ruleName(llvm::StringRef CheckId) {
  std::string Name;
  bool WordStart = true;
  for (char C : CheckId) {
    if (!llvm::isAlnum(C)) {
      WordStart = true;
      continue;
    }
    Name += WordStart ? llvm::toUpper(C) : C;
    WordStart = false;
  }
  return Name;
}

json sarifRule(llvm::StringRef CheckId) {
  if (const CheckInfo *Check = findCheck(CheckId))
    return libtorchRule(*Check);
  return otherRule(CheckId);
}

} // namespace libtorch_tidy::report
