//===--- ResultCache.cpp - Replay results of unchanged units --------------===//
//
// Part of libtorch-tidy. SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

#include "cache/ResultCache.h"
#include "io/FileIO.h"
#include "model/FindingsJson.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Config/llvm-config.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/Process.h"
#include "llvm/Support/SHA256.h"
#include <cerrno>
#include <cstring>
#include <fcntl.h>
#include <filesystem>
#include <limits>
#include <sys/stat.h>
#include <unistd.h>

using namespace llvm;

namespace libtorch_tidy::cache {
namespace {

/// Bumped when the entry layout or the meaning of a key part changes.
constexpr llvm::StringLiteral CacheFormat = "libtorch-tidy-cache-v3";

/// The content of an entry's file when it is a regular file. Anything else
/// (a FIFO would block the lookup forever; a device never ends) is no entry.
std::optional<std::string> readFile(StringRef Path) {
  std::string Ignored;
  return io::readRegularFile(Path.str(), std::numeric_limits<size_t>::max(),
                             "file", Ignored);
}

/// The dependencies as one string, `path NUL hash NUL ...`: a unit's ~2,000
/// pairs read as one value, not 6,000 (a lookup of every unit of a
/// database, for its summaries, spent most of its time building them).
std::string packDependencies(const std::vector<Dependency> &Dependencies) {
  std::string Packed;
  for (const auto &[Path, Hash] : Dependencies) {
    Packed += Path;
    Packed += '\0';
    Packed += Hash;
    Packed += '\0';
  }
  return Packed;
}

/// Whether every dependency of \p Packed holds; false for none, or for a
/// string that packDependencies() did not write.
bool packedDependenciesHold(StringRef Packed, DependencyMemo &Files) {
  if (Packed.empty())
    return false;
  while (!Packed.empty()) {
    auto [Path, AfterPath] = Packed.split('\0');
    auto [Hash, Rest] = AfterPath.split('\0');
    if (Path.empty() || Hash.empty() || !Files.holds({Path.str(), Hash.str()}))
      return false;
    Packed = Rest;
  }
  return true;
}

} // namespace

std::string defaultCacheDirectory() {
  SmallString<256> Dir;
  if (std::optional<std::string> Xdg = sys::Process::GetEnv("XDG_CACHE_HOME");
      Xdg && !Xdg->empty())
    Dir = *Xdg;
  else if (std::optional<std::string> Home = sys::Process::GetEnv("HOME");
           Home && !Home->empty())
    sys::path::append(Dir, *Home, ".cache");
  else
    return "";
  sys::path::append(Dir, "libtorch-tidy");
  return std::string(Dir);
}

std::optional<std::string> unwritableCacheDirectory(StringRef Dir) {
  SmallString<256> Existing(Dir);
  sys::fs::make_absolute(Existing);
  // The directory, or the parent it would be created in.
  while (!Existing.empty() && !sys::fs::exists(Existing))
    sys::path::remove_filename(Existing);
  if (Existing.empty())
    return std::string("no part of its path exists");
  if (!sys::fs::is_directory(Existing))
    return "'" + Existing.str().str() + "' is not a directory";
  if (::access(Existing.c_str(), W_OK | X_OK) != 0)
    return "'" + Existing.str().str() + "' is not writable (" +
           std::strerror(errno) + ")";
  return std::nullopt;
}

void clearForEntry(StringRef Path) {
  struct stat Entry;
  // std::filesystem, not llvm::sys::fs::remove_directories: that one
  // stops at a FIFO or socket inside and leaves the directory there. Links
  // inside are removed, never followed.
  if (::lstat(Path.str().c_str(), &Entry) == 0 && S_ISDIR(Entry.st_mode)) {
    std::error_code Ignored;
    std::filesystem::remove_all(Path.str(), Ignored);
  }
}

std::string toolIdentity(StringRef ExecutablePath) {
  sys::fs::file_status Status;
  if (sys::fs::status(ExecutablePath, Status) ||
      Status.type() != sys::fs::file_type::regular_file)
    return "";
  SmallString<256> Real;
  if (sys::fs::real_path(ExecutablePath, Real))
    Real = ExecutablePath;
  SHA256 Hash;
  Hash.update(Real);
  Hash.update(std::to_string(Status.getSize()));
  Hash.update(std::to_string(
      Status.getLastModificationTime().time_since_epoch().count()));
  Hash.update(std::to_string(Status.getUniqueID().getFile()));
  Hash.update(LLVM_VERSION_STRING);
  return toHex(Hash.final(), /*LowerCase=*/true);
}

std::string buildHash(StringRef ExecutablePath, StringRef CacheDirectory) {
  const std::string Identity = toolIdentity(ExecutablePath);
  if (Identity.empty())
    return "";
  std::string Kept;
  if (!CacheDirectory.empty()) {
    SmallString<256> Path(CacheDirectory);
    sys::path::append(Path, "build-hashes", Identity);
    Kept = Path.str().str();
    std::string Ignored;
    // What is kept is checked for its form only: the directory is this
    // user's, as are the results it holds beside it.
    if (std::optional<std::string> Text =
            io::readRegularFile(Kept, 64, "build hash", Ignored);
        Text && Text->size() == 64 && llvm::all_of(*Text, [](char C) {
          return isDigit(C) || (C >= 'a' && C <= 'f');
        }))
      return *Text;
  }
  std::string Error;
  std::optional<std::string> Bytes = io::readRegularFile(
      ExecutablePath.str(), std::numeric_limits<std::size_t>::max(),
      "executable", Error);
  if (!Bytes)
    return "";
  std::string Hash =
      toHex(SHA256::hash(arrayRefFromStringRef(*Bytes)), /*LowerCase=*/true);
  if (!Kept.empty() &&
      !sys::fs::create_directories(sys::path::parent_path(Kept)))
    (void)io::writeFile(Kept, Hash, io::FileMode::Owned);
  return Hash;
}

std::string compilerEnvironment() {
  std::string Environment;
  for (const char *Name :
       {"CPATH", "C_INCLUDE_PATH", "CPLUS_INCLUDE_PATH", "OBJC_INCLUDE_PATH",
        "OBJCPLUS_INCLUDE_PATH", "CCC_OVERRIDE_OPTIONS", "SOURCE_DATE_EPOCH"})
    if (std::optional<std::string> Value = sys::Process::GetEnv(Name))
      Environment += std::string(Name) + "=" + *Value + "\n";
  return Environment;
}

ResultCache::ResultCache(std::string Directory)
    : Directory(std::move(Directory)) {}

std::string hashOfParts(StringRef Format, ArrayRef<std::string> Parts) {
  SHA256 Hash;
  Hash.update(Format);
  for (const std::string &Part : Parts) {
    // Length-prefixed, so ("ab","c") and ("a","bc") differ.
    Hash.update(std::to_string(Part.size()) + ":");
    Hash.update(Part);
  }
  return toHex(Hash.final(), /*LowerCase=*/true);
}

std::string ResultCache::key(ArrayRef<std::string> Parts) {
  return hashOfParts(CacheFormat, Parts);
}

std::string ResultCache::entryPath(StringRef Key) const {
  SmallString<256> Path(Directory);
  sys::path::append(Path, "v3", Key.take_front(2), Key + ".msgpack");
  return std::string(Path);
}

std::optional<model::TranslationUnitResult>
ResultCache::lookup(StringRef Key, std::optional<Origin> Only) {
  std::optional<std::string> Text = readFile(entryPath(Key));
  if (!Text)
    return std::nullopt;
  try {
    // MessagePack: paths are bytes, which JSON text cannot hold.
    nlohmann::json J = nlohmann::json::from_msgpack(*Text);
    if (J.at("format").get<std::string>() != CacheFormat ||
        J.at("key").get<std::string>() != Key)
      return std::nullopt;
    const Origin From =
        J.value("origin", "local") == "remote" ? Origin::Remote : Origin::Local;
    if (Only && From != *Only)
      return std::nullopt;
    if (!packedDependenciesHold(
            J.at("dependencies").get_ref<const std::string &>(), Files))
      return std::nullopt;
    model::TranslationUnitResult Unit;
    J.at("unit").get_to(Unit);
    Unit.FromCache = true;
    // Used now: the cache's size limit removes the least recently used.
    (void)::utimensat(AT_FDCWD, entryPath(Key).c_str(), nullptr, 0);
    return Unit;
  } catch (const nlohmann::json::exception &) {
    // A corrupt or foreign entry: analyze again, and overwrite it.
    return std::nullopt;
  }
}

void ResultCache::store(StringRef Key, const WorkerResult &Result,
                        Origin From) {
  if (Result.Dependencies.empty() ||
      Result.Unit.State == model::TranslationUnitResult::Status::Failed)
    return;
  std::string Path = entryPath(Key);
  if (sys::fs::create_directories(sys::path::parent_path(Path)))
    return;
  clearForEntry(Path);
  model::TranslationUnitResult Unit = Result.Unit;
  Unit.CheckProfile.clear(); // times of that run, not of a replay
  Unit.Preamble.clear();     // how that run parsed it, likewise
  nlohmann::json J = {{"format", CacheFormat.str()},
                      {"key", Key.str()},
                      {"origin", From == Origin::Remote ? "remote" : "local"},
                      {"dependencies", packDependencies(Result.Dependencies)},
                      {"unit", Unit}};
  // Written to a temporary file and renamed into place, so a concurrent
  // reader sees the old entry or the new one, never a part; a failure is
  // silent (the cache is optional).
  std::vector<std::uint8_t> Bytes = nlohmann::json::to_msgpack(J);
  (void)io::writeFile(
      Path,
      std::string_view(reinterpret_cast<const char *>(Bytes.data()),
                       Bytes.size()),
      io::FileMode::Owned);
}

} // namespace libtorch_tidy::cache
