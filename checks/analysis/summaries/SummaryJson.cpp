//===--- SummaryJson.cpp - Summaries as the summary file holds them -------===//
//
// Part of libtorch-tidy. SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//
//
// A unit's function summaries (summaries/FunctionSummary.h) as JSON, and back.
// What is read is data another run wrote: every field is checked, and a bad one
// is named.
//
//===----------------------------------------------------------------------===//

#include "analysis/summaries/SummaryJson.h"
#include "analysis/vocabulary/WalkDepths.h"

namespace clang::tidy::libtorch::analysis {

using llvm::json::Array;
using llvm::json::Object;
using llvm::json::Value;

namespace {

Object updatesToJson(const SummarizedUpdates &Updates) {
  Object Json;
  const auto Put = [&Json](llvm::StringRef Key, std::optional<unsigned> D) {
    if (D)
      Json[Key] = *D;
  };
  Put("backward", Updates.Backward);
  Put("backwardOutsideLoops", Updates.BackwardOutsideLoops);
  Put("step", Updates.Step);
  Put("stepOutsideLoops", Updates.StepOutsideLoops);
  return Json;
}

bool updatesFromJson(const Object &Json, SummarizedUpdates &Updates) {
  bool Valid = true;
  const auto Get = [&](llvm::StringRef Key, std::optional<unsigned> &D) {
    const Value *Item = Json.get(Key);
    if (!Item)
      return;
    std::optional<int64_t> Number = Item->getAsInteger();
    if (!Number || *Number < 0 || *Number >= CallDepth::TrainingStep)
      Valid = false;
    else
      D = static_cast<unsigned>(*Number);
  };
  Get("backward", Updates.Backward);
  Get("backwardOutsideLoops", Updates.BackwardOutsideLoops);
  Get("step", Updates.Step);
  Get("stepOutsideLoops", Updates.StepOutsideLoops);
  // Outside the loops is a part of anywhere.
  return Valid && (!Updates.BackwardOutsideLoops || Updates.Backward) &&
         (!Updates.StepOutsideLoops || Updates.Step);
}

Object placeToJson(const SummarizedPlace &Place) {
  return Object{{"file", Place.File},
                {"line", Place.Line},
                {"column", Place.Column},
                {"spelling", Place.Spelling},
                {"digest", Place.Digest}};
}

bool placeFromJson(const Object &Json, SummarizedPlace &Place) {
  std::optional<StringRef> File = Json.getString("file");
  std::optional<int64_t> Line = Json.getInteger("line");
  std::optional<int64_t> Column = Json.getInteger("column");
  std::optional<StringRef> Spelling = Json.getString("spelling");
  std::optional<StringRef> Digest = Json.getString("digest");
  if (!File || !Line || !Column || !Spelling || !Digest || *Line <= 0 ||
      *Column <= 0)
    return false;
  Place = {File->str(), static_cast<unsigned>(*Line),
           static_cast<unsigned>(*Column), Spelling->str(), Digest->str()};
  return true;
}

/// More parameters than any function of a project has: a larger index is
/// no summary's.
constexpr int64_t MaxParameters = 1024;

llvm::Error malformed(StringRef What) {
  return llvm::createStringError(llvm::inconvertibleErrorCode(),
                                 "a function's %s is malformed",
                                 What.str().c_str());
}

/// Reads each of \p Items with \p Read, and its place from its "at".
template <typename Fact>
bool factsFromJson(const Array &Items, std::vector<Fact> &Out,
                   bool (*Read)(const Object &, Fact &)) {
  for (const Value &Item : Items) {
    const Object *Json = Item.getAsObject();
    const Object *At = Json ? Json->getObject("at") : nullptr;
    Fact Parsed;
    if (!At || !placeFromJson(*At, Parsed.Place) || !Read(*Json, Parsed))
      return false;
    Out.push_back(std::move(Parsed));
  }
  return true;
}

bool syncFromJson(const Object &Json, SummarizedSync &Fact) {
  std::optional<StringRef> Operation = Json.getString("operation");
  std::optional<SyncKind> Kind =
      syncKindFromName(Json.getString("kind").value_or(""));
  if (!Operation || !Kind)
    return false;
  Fact.Operation = Operation->str();
  Fact.Kind = *Kind;
  // Absent in files written before parameters were summarized.
  if (const Value *Parameter = Json.get("parameter")) {
    std::optional<int64_t> Index = Parameter->getAsInteger();
    if (!Index || *Index < 0 || *Index > MaxParameters)
      return false;
    Fact.Parameter = static_cast<unsigned>(*Index);
  }
  return true;
}

bool hostCopyFromJson(const Object &Json, SummarizedHostCopy &Fact) {
  std::optional<StringRef> Factory = Json.getString("factory");
  std::optional<StringRef> Copy = Json.getString("copy");
  if (!Factory || Factory->empty() || !Copy)
    return false;
  Fact.Factory = Factory->str();
  Fact.Copy = Copy->str();
  // Absent in files written before constant tables were summarized.
  Fact.Constant = Json.getBoolean("constant").value_or(false);
  return true;
}

bool callFromJson(const Object &Json, SummarizedCall &Fact) {
  std::optional<StringRef> Usr = Json.getString("usr");
  std::optional<StringRef> Name = Json.getString("name");
  if (!Usr || Usr->empty() || !Name)
    return false;
  Fact.Usr = Usr->str();
  Fact.Name = Name->str();
  // Absent in files written before arguments were summarized.
  if (const Value *Arguments = Json.get("arguments")) {
    const Array *Items = Arguments->getAsArray();
    if (!Items || Items->size() > MaxParameters)
      return false;
    for (const Value &Item : *Items) {
      std::optional<int64_t> Source = Item.getAsInteger();
      if (!Source || *Source < SummarizedCall::HostArgument ||
          *Source > MaxParameters)
        return false;
      Fact.Arguments.push_back(static_cast<int>(*Source));
    }
  }
  return true;
}

} // namespace

Array summariesToJson(llvm::ArrayRef<FunctionSummary> Summaries) {
  Array Functions;
  for (const FunctionSummary &Summary : Summaries) {
    Array Syncs, HostCopies, Calls;
    for (const SummarizedSync &Sync : Summary.Syncs) {
      Object Json{{"operation", Sync.Operation},
                  {"kind", syncKindName(Sync.Kind)},
                  {"at", placeToJson(Sync.Place)}};
      if (Sync.Parameter)
        Json["parameter"] = *Sync.Parameter;
      Syncs.push_back(std::move(Json));
    }
    for (const SummarizedHostCopy &Copy : Summary.HostCopies)
      HostCopies.push_back(Object{{"factory", Copy.Factory},
                                  {"copy", Copy.Copy},
                                  {"constant", Copy.Constant},
                                  {"at", placeToJson(Copy.Place)}});
    for (const SummarizedCall &Call : Summary.Calls) {
      Object Json{{"usr", Call.Usr},
                  {"name", Call.Name},
                  {"at", placeToJson(Call.Place)}};
      if (!Call.Arguments.empty()) {
        Array Arguments;
        for (int Source : Call.Arguments)
          Arguments.push_back(Source);
        Json["arguments"] = std::move(Arguments);
      }
      Calls.push_back(std::move(Json));
    }
    Functions.push_back(
        Object{{"usr", Summary.Usr},
               {"name", Summary.Name},
               {"syncs", std::move(Syncs)},
               {"hostCopies", std::move(HostCopies)},
               {"calls", std::move(Calls)},
               {"updates", updatesToJson(Summary.Updates)},
               {"returnsDeviceTensor", Summary.ReturnsDeviceTensor},
               {"waitsOtherwise", Summary.WaitsOtherwise}});
  }
  return Functions;
}

llvm::Expected<std::vector<FunctionSummary>>
summariesFromJson(const Array &Functions) {
  std::vector<FunctionSummary> Summaries;
  for (const Value &Item : Functions) {
    const Object *Function = Item.getAsObject();
    if (!Function)
      return malformed("entry");
    FunctionSummary Summary;
    std::optional<StringRef> Usr = Function->getString("usr");
    std::optional<StringRef> Name = Function->getString("name");
    const Array *Syncs = Function->getArray("syncs");
    const Array *HostCopies = Function->getArray("hostCopies");
    const Array *Calls = Function->getArray("calls");
    const Object *Updates = Function->getObject("updates");
    if (!Usr || Usr->empty() || !Name || !Syncs || !HostCopies || !Calls ||
        !Updates)
      return malformed("entry");
    if (!updatesFromJson(*Updates, Summary.Updates))
      return malformed("updates");
    std::optional<bool> OnDevice = Function->getBoolean("returnsDeviceTensor");
    if (!OnDevice)
      return malformed("entry");
    Summary.ReturnsDeviceTensor = *OnDevice;
    // Absent in files written before it was summarized: it may.
    Summary.WaitsOtherwise =
        Function->getBoolean("waitsOtherwise").value_or(true);
    Summary.Usr = Usr->str();
    Summary.Name = Name->str();
    if (!factsFromJson(*Syncs, Summary.Syncs, syncFromJson))
      return malformed("wait");
    if (!factsFromJson(*HostCopies, Summary.HostCopies, hostCopyFromJson))
      return malformed("host copy");
    if (!factsFromJson(*Calls, Summary.Calls, callFromJson))
      return malformed("call");
    Summaries.push_back(std::move(Summary));
  }
  return Summaries;
}

} // namespace clang::tidy::libtorch::analysis
