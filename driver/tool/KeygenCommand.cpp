//===--- KeygenCommand.cpp - `libtorch-tidy remote-cache-keygen` ----------===//
//
// Part of libtorch-tidy. SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

#include "tool/KeygenCommand.h"
#include "cache/remote/EntrySignature.h"
#include "io/FileIO.h"
#include "model/ExitCodes.h"
#include "llvm/ADT/StringRef.h"
#include <algorithm>
#include <optional>
#include <string>

using namespace llvm;

namespace libtorch_tidy::tool {
namespace {

constexpr llvm::StringLiteral Usage =
    "usage: libtorch-tidy remote-cache-keygen FILE | --verify-key FILE";

int usageError(raw_ostream &Err, const std::string &Message) {
  Err << "libtorch-tidy remote-cache-keygen: error: " << Message << "\n";
  return ExitUsageError;
}

} // namespace

int runKeygenCommand(ArrayRef<const char *> Args, raw_ostream &Out,
                     raw_ostream &Err) {
  if (Args.size() == 1 &&
      (StringRef(Args[0]) == "--help" || StringRef(Args[0]) == "-h")) {
    Out << Usage << "\n";
    return ExitNoFindings;
  }
  const bool PrintOnly =
      Args.size() == 2 && StringRef(Args[0]) == "--verify-key";
  if (!PrintOnly && (Args.size() != 1 || StringRef(Args[0]).starts_with("-")))
    return usageError(Err, Usage.str() + " (see --help)");
  const std::string Path = PrintOnly ? Args[1] : Args[0];

  if (PrintOnly) {
    std::string Why;
    std::optional<std::string> Seed =
        io::readRegularFile(Path, 4096, "signing key file", Why);
    if (!Seed)
      return usageError(Err, Why);
    std::optional<cache::SigningKey> Key =
        cache::SigningKey::fromSeedHex(*Seed);
    std::fill(Seed->begin(), Seed->end(), '\0');
    // Not a word of the content: it may be some other secret.
    if (!Key)
      return usageError(Err, "'" + Path +
                                 "' holds no signing key (64 hex digits); "
                                 "make one with 'libtorch-tidy "
                                 "remote-cache-keygen FILE'");
    Out << "verify-key=" << cache::verifyKeyHex(Key->verifyKey()) << "\n";
    return ExitNoFindings;
  }

  cache::SigningKey Key = cache::SigningKey::generate();
  std::string Seed = Key.seedHex() + "\n";
  std::optional<std::string> Problem =
      io::writeFile(Path, Seed, io::FileMode::NewPrivate);
  std::fill(Seed.begin(), Seed.end(), '\0');
  if (Problem)
    return usageError(Err, *Problem);
  Out << "verify-key=" << cache::verifyKeyHex(Key.verifyKey()) << "\n";
  return ExitNoFindings;
}

} // namespace libtorch_tidy::tool
