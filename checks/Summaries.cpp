//===--- Summaries.cpp - What a host does with summaries ------------------===//
//
// Part of libtorch-tidy. SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

#include "Summaries.h"
#include "analysis/program/FunctionSummarizer.h"
#include "analysis/summaries/CalledElsewhere.h"
#include "analysis/summaries/SummaryJson.h"
#include "llvm/Support/JSON.h"
#include "llvm/Support/raw_ostream.h"

namespace clang::tidy::libtorch::summaries {

UnitSummaries summarizeUnit(ASTContext &Context) {
  UnitSummaries Unit;
  Unit.CalledElsewhere = analysis::functionsCalledElsewhere(Context);
  const std::vector<FunctionSummary> Functions =
      analysis::summarizeUnit(Context);
  if (Functions.empty())
    return Unit;
  llvm::raw_string_ostream OS(Unit.Text);
  OS << llvm::json::Value(analysis::summariesToJson(Functions));
  return Unit;
}

llvm::Expected<std::vector<FunctionSummary>>
readUnitSummaries(llvm::StringRef Text) {
  llvm::Expected<llvm::json::Value> Parsed = llvm::json::parse(Text);
  if (!Parsed)
    return Parsed.takeError();
  const llvm::json::Array *Functions = Parsed->getAsArray();
  if (!Functions)
    return llvm::createStringError(llvm::inconvertibleErrorCode(),
                                   "not a JSON array");
  return analysis::summariesFromJson(*Functions);
}

std::string summaryFileText(std::vector<SummarizedUnit> Units) {
  return analysis::summaryFileText(std::move(Units));
}

llvm::Expected<std::vector<SummarizedUnit>>
parseSummaryFile(llvm::StringRef Text) {
  return analysis::parseSummaryFile(Text);
}

} // namespace clang::tidy::libtorch::summaries
