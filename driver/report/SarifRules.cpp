//===--- SarifRules.cpp - SARIF rule descriptors for checks ---------------===//
//
// Part of libtorch-tidy. SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

#include "SarifRules.h"
#include "Catalog.h"
#include "CheckDocs.h"

#include "llvm/ADT/SmallVector.h"

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

/// Cuts \p Text to at most \p MaxLength bytes at a word boundary, marking the
/// cut with "...".
std::string shorten(std::string Text, size_t MaxLength) {
  if (Text.size() <= MaxLength)
    return Text;
  size_t Cut = Text.rfind(' ', MaxLength - 3);
  if (Cut == std::string::npos || Cut == 0)
    Cut = MaxLength - 3;
  return Text.substr(0, Cut) + "...";
}

json libtorchRule(const CheckInfo &Check) {
  const bool Default = Check.Tier == CheckTier::Default;
  std::string Summary = shorten(Check.Summary.str(), 1024);
  llvm::StringRef Markdown = checkDocMarkdown(Check.Id);
  std::string Full = Markdown.empty() ? Summary : docFirstParagraph(Markdown);
  json Rule = {
      {"id", Check.Id.str()},
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
  const bool Diagnostic = CheckId.startswith("clang-diagnostic-");
  std::string What = Diagnostic ? "Clang compiler diagnostic '" +
                                      CheckId.drop_front(17).str() + "'"
                                : "clang-tidy check '" + CheckId.str() + "'";
  std::string Url = llvmDocsUrl(CheckId);
  json Rule = {
      {"id", CheckId.str()},
      {"shortDescription", {{"text", What}}},
      {"fullDescription",
       {{"text", What + ", reported through libtorch-tidy."}}},
      {"defaultConfiguration",
       {{"level", CheckId == "clang-diagnostic-error" ? "error" : "warning"}}},
      {"properties",
       {{"tags", {Diagnostic ? "compiler" : "clang-tidy"}},
        {"precision", "medium"}}}};
  if (Url.empty()) {
    Rule["help"] = {{"text", What + "."}};
  } else {
    Rule["helpUri"] = Url;
    Rule["help"] = {
        {"text", What + ": see " + Url},
        {"markdown", What + ": see [its documentation](" + Url + ")."}};
  }
  return Rule;
}

} // namespace

std::string docFirstParagraph(llvm::StringRef Markdown, size_t MaxLength) {
  llvm::SmallVector<llvm::StringRef> Lines;
  Markdown.split(Lines, '\n');
  std::string Paragraph;
  bool Skipping = false; // inside the "**Tier:** ..." paragraph
  for (llvm::StringRef Line : Lines) {
    Line = Line.trim();
    if (Paragraph.empty()) {
      if (Line.startswith("**Tier"))
        Skipping = true;
      if (Line.empty())
        Skipping = false;
      if (Skipping || Line.empty() || Line.startswith("#"))
        continue;
    }
    if (Line.empty() || Line.startswith("#") || Line.startswith("|") ||
        Line.startswith("```"))
      break;
    if (!Paragraph.empty())
      Paragraph += ' ';
    Paragraph += Line.str();
  }
  std::string Plain;
  for (size_t I = 0; I < Paragraph.size(); ++I) {
    if (Paragraph.compare(I, 2, "**") == 0) {
      ++I;
      continue;
    }
    Plain += Paragraph[I];
  }
  return shorten(std::move(Plain), MaxLength);
}

std::string llvmDocsUrl(llvm::StringRef CheckId) {
  const std::string Base = "https://releases.llvm.org/16.0.0/";
  if (CheckId.consume_front("clang-diagnostic-")) {
    if (CheckId.empty() || CheckId == "error")
      return {};
    return Base + "tools/clang/docs/DiagnosticsReference.html#w" +
           CheckId.str();
  }
  auto [Module, Name] = CheckId.split('-');
  if (Module.empty() || Name.empty())
    return {};
  if (Module == "clang" && Name.consume_front("analyzer-"))
    Module = "clang-analyzer";
  return Base + "tools/clang/tools/extra/docs/clang-tidy/checks/" +
         Module.str() + "/" + Name.str() + ".html";
}

json sarifRule(llvm::StringRef CheckId) {
  if (const CheckInfo *Check = findCheck(CheckId))
    return libtorchRule(*Check);
  return otherRule(CheckId);
}

} // namespace libtorch_tidy::report
