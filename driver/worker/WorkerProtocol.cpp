//===--- WorkerProtocol.cpp - What a worker is asked and answers ----------===//
//
// Part of libtorch-tidy. SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

#include "worker/WorkerProtocol.h"
#include "io/FileIO.h"
#include "model/FindingsJson.h"
#include "llvm/ADT/STLExtras.h"
#include <array>
#include <cstdint>
#include <nlohmann/json.hpp>
#include <optional>

using namespace llvm;

namespace libtorch_tidy::worker {
namespace {

/// The roles as `--worker-preamble=` spells them.
constexpr std::array<std::pair<PrefixRole, StringRef>, 4> RoleNames = {{
    {PrefixRole::Analyze, "analyze"},
    {PrefixRole::ReuseOnly, "reuse-only"},
    {PrefixRole::BuildOnly, "build-only"},
    {PrefixRole::BuildDetached, "build-detached"},
}};

StringRef nameOf(PrefixRole Role) {
  for (const auto &[Known, Name] : RoleNames)
    if (Known == Role)
      return Name;
  llvm_unreachable("a prefix role without a name");
}

/// One flag of the request: its name after `--worker-`, and either a text
/// field or a boolean one of WorkerRequest.
struct Flag {
  StringRef Name;
  std::string WorkerRequest::*Text = nullptr;
  bool WorkerRequest::*Switch = nullptr;
};

// The order in which arguments() writes them.
const std::array<Flag, 7> Flags = {{
    {"unit", &WorkerRequest::Unit, nullptr},
    {"output", &WorkerRequest::Output, nullptr},
    {"preamble-shared", nullptr, &WorkerRequest::PreambleShared},
    {"preamble-notice", &WorkerRequest::PreambleNotice, nullptr},
    {"remote-lookup", nullptr, &WorkerRequest::RemoteLookup},
    {"summary-file", &WorkerRequest::SummaryFile, nullptr},
    {"database-summaries", nullptr, &WorkerRequest::DatabaseSummaries},
}};
constexpr StringRef RoleFlag = "preamble";

Error badValue(StringRef Name, StringRef Value, StringRef What) {
  return createStringError(inconvertibleErrorCode(),
                           "--worker-%s: '%s' is not %s (the flag is the "
                           "tool's own, for its worker processes)",
                           Name.str().c_str(), Value.str().c_str(),
                           What.str().c_str());
}

} // namespace

std::vector<std::string> WorkerRequest::arguments() const {
  std::vector<std::string> Out;
  for (const Flag &F : Flags) {
    if (F.Text && !(this->*F.Text).empty())
      Out.push_back(("--worker-" + F.Name + "=").str() + this->*F.Text);
    if (F.Switch && this->*F.Switch)
      Out.push_back(("--worker-" + F.Name).str());
  }
  if (Prefix != PrefixRole::Analyze)
    Out.push_back(("--worker-" + RoleFlag + "=" + nameOf(Prefix)).str());
  return Out;
}

Expected<WorkerRequest> takeWorkerRequest(std::vector<std::string> &Arguments) {
  WorkerRequest Request;
  std::vector<std::string> Kept;
  bool CompilerArguments = false;
  for (size_t I = 0; I < Arguments.size(); ++I) {
    StringRef Arg = Arguments[I];
    CompilerArguments |= Arg == "--";
    // The command-line parser takes one dash or two alike.
    StringRef Rest = Arg;
    if (CompilerArguments ||
        !(Rest.consume_front("--worker-") || Rest.consume_front("-worker-"))) {
      Kept.push_back(Arguments[I]);
      continue;
    }
    auto [Name, Value] = Rest.split('=');
    const bool HasValue = Rest.contains('=');
    const Flag *F =
        find_if(Flags, [&](const Flag &F) { return F.Name == Name; });
    if (Name == RoleFlag || (F != Flags.end() && F->Text)) {
      // A value after `=` or, as the parser also takes it, the next argument.
      std::string Text = Value.str();
      if (!HasValue) {
        if (I + 1 == Arguments.size())
          return createStringError(inconvertibleErrorCode(),
                                   "--worker-%s needs a value",
                                   Name.str().c_str());
        Text = Arguments[++I];
      }
      if (Name != RoleFlag) {
        Request.*(F->Text) = std::move(Text);
        continue;
      }
      const auto *Role = find_if(
          RoleNames, [&](const auto &Known) { return Known.second == Text; });
      if (Role == RoleNames.end())
        return badValue(Name, Text, "a prefix role");
      Request.Prefix = Role->first;
      continue;
    }
    if (F == Flags.end()) {
      Kept.push_back(Arguments[I]);
      continue;
    }
    if (!HasValue || Value == "true" || Value == "1")
      Request.*(F->Switch) = true;
    else if (Value == "false" || Value == "0")
      Request.*(F->Switch) = false;
    else
      return badValue(Name, Value, "true or false");
  }
  Arguments = std::move(Kept);
  return Request;
}

std::optional<std::string>
writeWorkerResult(StringRef Path, const cache::WorkerResult &Result) {
  nlohmann::json J = {{"unit", Result.Unit},
                      {"dependencies", Result.Dependencies}};
  std::vector<std::uint8_t> Bytes = nlohmann::json::to_msgpack(J);
  return io::writeFile(
      Path.str(),
      std::string_view(reinterpret_cast<const char *>(Bytes.data()),
                       Bytes.size()),
      io::FileMode::Owned);
}

Expected<cache::WorkerResult> readWorkerResult(StringRef Bytes) {
  try {
    nlohmann::json J = nlohmann::json::from_msgpack(Bytes.begin(), Bytes.end());
    cache::WorkerResult Result;
    J.at("unit").get_to(Result.Unit);
    J.at("dependencies").get_to(Result.Dependencies);
    return Result;
  } catch (const nlohmann::json::exception &E) {
    return createStringError(inconvertibleErrorCode(), "%s", E.what());
  }
}

} // namespace libtorch_tidy::worker
