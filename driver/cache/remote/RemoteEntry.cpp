//===--- RemoteEntry.cpp - A unit's result as a remote cache entry --------===//
//
// Part of libtorch-tidy. SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

#include "cache/remote/RemoteEntry.h"
#include "cache/Dependencies.h"
#include "cache/ResultCache.h"
#include "io/FileIO.h"
#include "model/FindingsJson.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Config/llvm-config.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/SHA256.h"
#include <functional>
#include <limits>
#include <set>

using namespace llvm;

namespace libtorch_tidy::cache {
namespace {

/// Bumped when the entry's layout, the unit's JSON form (FindingsJson.h) or
/// the meaning of a key part changes: old entries are then never asked for.
constexpr llvm::StringLiteral RemoteFormat = "libtorch-tidy-remote-v1";

/// What a checkout's base directory becomes in keys and entries. A control
/// character, so that no real path holds it.
constexpr llvm::StringLiteral Placeholder = "\x01"
                                            "base-dir\x01";

/// The first line of every entry; the SHA-256 of the rest follows.
constexpr llvm::StringLiteral Magic = "libtorch-tidy remote entry\n";

std::string sha256Hex(StringRef Bytes) {
  return toHex(SHA256::hash(arrayRefFromStringRef(Bytes)), /*LowerCase=*/true);
}

std::string replaceAll(StringRef Text, StringRef From, StringRef To) {
  std::string Out;
  for (size_t At; (At = Text.find(From)) != StringRef::npos;) {
    Out += Text.take_front(At);
    Out += To;
    Text = Text.drop_front(At + From.size());
  }
  Out += Text;
  return Out;
}

/// \p J with \p Rewrite applied to every string, object keys included (the
/// content digests are keyed by path).
nlohmann::json rewritten(const nlohmann::json &J,
                         const std::function<std::string(StringRef)> &Rewrite) {
  if (J.is_string())
    return Rewrite(J.get_ref<const std::string &>());
  if (J.is_array()) {
    nlohmann::json Out = nlohmann::json::array();
    for (const nlohmann::json &Element : J)
      Out.push_back(rewritten(Element, Rewrite));
    return Out;
  }
  if (J.is_object()) {
    nlohmann::json Out = nlohmann::json::object();
    for (const auto &[Name, Value] : J.items())
      Out[Rewrite(Name)] = rewritten(Value, Rewrite);
    return Out;
  }
  return J;
}

std::optional<std::string> currentDigest(const std::string &File) {
  std::string Ignored;
  std::optional<std::string> Content = io::readRegularFile(
      File, std::numeric_limits<size_t>::max(), "file", Ignored);
  if (!Content)
    return std::nullopt;
  return model::contentDigest(*Content);
}

/// Why \p Unit points outside what the unit read, or edits a file whose
/// content is not the one its fix-its were made for; empty if it does not.
std::string outOfBounds(const model::TranslationUnitResult &Unit,
                        const std::set<std::string> &Read) {
  auto Known = [&](const std::string &File) { return Read.count(File) > 0; };
  for (const auto &[File, Digest] : Unit.ContentDigests)
    if (!Known(File))
      return "a digest of a file the unit did not read";
  std::map<std::string, bool> Matches; // file -> digest matches now
  auto Editable = [&](const model::Replacement &R) {
    if (!Known(R.File))
      return false;
    auto Recorded = Unit.ContentDigests.find(R.File);
    if (Recorded == Unit.ContentDigests.end())
      return false;
    auto [It, New] = Matches.try_emplace(R.File, false);
    if (New)
      It->second = currentDigest(R.File) == Recorded->second;
    return It->second;
  };
  for (const std::vector<model::Finding> *List :
       {&Unit.Findings, &Unit.CompilerErrors})
    for (const model::Finding &F : *List) {
      if (!F.Where.AbsoluteFile.empty() && !Known(F.Where.AbsoluteFile))
        return "a finding in a file the unit did not read";
      for (const model::Replacement &R : F.Fixes)
        if (!Editable(R))
          return "a fix-it for a file the unit did not read or whose "
                 "content differs";
      for (const model::Note &N : F.Notes) {
        if (!N.Where.AbsoluteFile.empty() && !Known(N.Where.AbsoluteFile))
          return "a note in a file the unit did not read";
        for (const model::Replacement &R : N.Fixes)
          if (!Editable(R))
            return "a fix-it for a file the unit did not read or whose "
                   "content differs";
      }
    }
  return "";
}

} // namespace

BaseDirectory::BaseDirectory(StringRef Directory) {
  if (Directory.empty())
    return;
  SmallString<256> Absolute(Directory);
  sys::fs::make_absolute(Absolute);
  sys::path::remove_dots(Absolute, /*remove_dot_dot=*/true);
  while (Absolute.size() > 1 && Absolute.ends_with("/"))
    Absolute.pop_back();
  if (Absolute == "/")
    return; // everything would be "under" it: no base at all
  Spellings.push_back(std::string(Absolute));
  SmallString<256> Real;
  if (!sys::fs::real_path(Absolute, Real) && Real != Absolute)
    Spellings.push_back(std::string(Real));
  llvm::sort(Spellings, [](const std::string &L, const std::string &R) {
    return L.size() > R.size();
  });
}

std::string BaseDirectory::portable(StringRef Text) const {
  std::string Out = Text.str();
  for (const std::string &Base : Spellings) {
    std::string Replaced;
    StringRef Rest = Out;
    for (size_t At; (At = Rest.find(Base)) != StringRef::npos;) {
      StringRef After = Rest.drop_front(At + Base.size());
      // The base itself or a path under it, not "/repo" in "/repository":
      // what follows ends the path, or goes down from it.
      bool Whole = After.empty() || After.front() == '/' ||
                   !(isAlnum(After.front()) ||
                     StringRef("._-+~@").contains(After.front()));
      Replaced += Rest.take_front(At);
      Replaced += Whole ? StringRef(Placeholder) : StringRef(Base);
      Rest = After;
    }
    Replaced += Rest;
    Out = std::move(Replaced);
  }
  return Out;
}

std::string BaseDirectory::local(StringRef Text) const {
  return replaceAll(Text, Placeholder,
                    Spellings.empty() ? StringRef() : Spellings.back());
}

std::string remoteKey(StringRef Build, ArrayRef<std::string> Parts,
                      const BaseDirectory &Base) {
  std::vector<std::string> Portable = {Build.str(), LLVM_VERSION_STRING};
  for (const std::string &Part : Parts)
    Portable.push_back(Base.portable(Part));
  return hashOfParts(RemoteFormat, Portable);
}

std::string encodeRemoteEntry(StringRef Key, const WorkerResult &Result,
                              const BaseDirectory &Base) {
  model::TranslationUnitResult Unit = Result.Unit;
  Unit.CheckProfile.clear(); // times of that run, not of a replay
  Unit.Preamble.clear();     // how that run parsed it, likewise
  Unit.FromCache = false;
  nlohmann::json J = {{"format", RemoteFormat.str()},
                      {"key", Key.str()},
                      {"dependencies", Result.Dependencies},
                      {"unit", Unit}};
  J = rewritten(J, [&](StringRef S) { return Base.portable(S); });
  // MessagePack: paths are bytes, which JSON text cannot hold.
  std::vector<std::uint8_t> Payload = nlohmann::json::to_msgpack(J);
  StringRef PayloadText(reinterpret_cast<const char *>(Payload.data()),
                        Payload.size());
  return (Magic + sha256Hex(PayloadText) + "\n" + PayloadText).str();
}

std::optional<WorkerResult> decodeRemoteEntry(StringRef Bytes, StringRef Key,
                                              StringRef MainFile,
                                              const BaseDirectory &Base,
                                              DependencyMemo &Dependencies,
                                              std::string &Why) {
  if (!Bytes.consume_front(Magic)) {
    Why = "not an entry of libtorch-tidy";
    return std::nullopt;
  }
  if (Bytes.size() < 65 || Bytes[64] != '\n' ||
      Bytes.take_front(64) != sha256Hex(Bytes.drop_front(65))) {
    Why = "its checksum does not match (damaged or cut short)";
    return std::nullopt;
  }
  WorkerResult Result;
  try {
    nlohmann::json J = nlohmann::json::from_msgpack(Bytes.drop_front(65));
    if (J.at("format").get<std::string>() != RemoteFormat ||
        J.at("key").get<std::string>() != Key) {
      Why = "it is of another format or key";
      return std::nullopt;
    }
    J = rewritten(J, [&](StringRef S) { return Base.local(S); });
    J.at("dependencies").get_to(Result.Dependencies);
    J.at("unit").get_to(Result.Unit);
  } catch (const nlohmann::json::exception &) {
    Why = "it is not a well-formed entry";
    return std::nullopt;
  }
  model::TranslationUnitResult &Unit = Result.Unit;
  if (Result.Dependencies.empty() || Unit.MainFile != MainFile ||
      Unit.State == model::TranslationUnitResult::Status::Failed) {
    Why = "it is not a result of this unit";
    return std::nullopt;
  }
  std::set<std::string> Read = {MainFile.str()};
  for (const Dependency &D : Result.Dependencies) {
    if (!Dependencies.holds(D)) {
      Why = ""; // an ordinary miss: this checkout's files differ
      return std::nullopt;
    }
    if (D.second != AbsentFileHash)
      Read.insert(D.first);
  }
  if (std::string Problem = outOfBounds(Unit, Read); !Problem.empty()) {
    Why = "it holds " + Problem;
    return std::nullopt;
  }
  Unit.FromCache = true;
  return Result;
}

} // namespace libtorch_tidy::cache
