//===--- Shard.cpp - --shard=K/N: one part of the translation units -------===//
//
// Part of libtorch-tidy. SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

#include "select/Shard.h"
#include "select/GitRepository.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/ADT/StringMap.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/xxhash.h"
#include <algorithm>
#include <numeric>
#include <tuple>

using namespace llvm;

namespace libtorch_tidy::select {

Expected<ShardSpec> parseShardSpec(StringRef Text) {
  auto Invalid = [&](const char *Why) {
    return createStringError(inconvertibleErrorCode(),
                             "invalid --shard='%s': %s; pass K/N with "
                             "1 <= K <= N, e.g. --shard=1/4",
                             Text.str().c_str(), Why);
  };
  auto [IndexText, CountText] = Text.split('/');
  if (IndexText.empty() || CountText.empty() || CountText.contains('/'))
    return Invalid("expected two numbers separated by '/'");
  ShardSpec Spec;
  // getAsInteger rejects signs, spaces and trailing junk in base 10.
  if (IndexText.getAsInteger(10, Spec.Index) ||
      CountText.getAsInteger(10, Spec.Count) ||
      !llvm::isDigit(IndexText.front()) || !llvm::isDigit(CountText.front()))
    return Invalid("K and N must be whole numbers");
  if (Spec.Count == 0)
    return Invalid("N must be at least 1");
  if (Spec.Index == 0 || Spec.Index > Spec.Count)
    return Invalid("K must be between 1 and N");
  return Spec;
}

std::string shardKey(StringRef AbsoluteFile) {
  std::string Root = findGitTopLevel(AbsoluteFile);
  std::string Relative = relativeToRoot(AbsoluteFile, Root);
  if (!Relative.empty())
    return Relative;
  return sys::path::convert_to_slash(AbsoluteFile);
}

std::vector<std::string> selectShard(ArrayRef<std::string> Files,
                                     const ShardSpec &Spec,
                                     ArrayRef<std::string> Keys) {
  std::vector<std::string> Names;
  Names.reserve(Files.size());
  for (size_t I = 0; I < Files.size(); ++I)
    Names.push_back(Keys.empty() ? shardKey(Files[I]) : Keys[I]);

  std::vector<size_t> Order(Files.size());
  std::iota(Order.begin(), Order.end(), 0);
  auto Rank = [&](size_t I) {
    return std::make_tuple(xxHash64(Names[I]), StringRef(Names[I]));
  };
  std::sort(Order.begin(), Order.end(),
            [&](size_t A, size_t B) { return Rank(A) < Rank(B); });

  // The same unit listed twice (two database entries for one file) must land
  // in one shard only once: skip repeated names.
  std::vector<bool> Selected(Files.size(), false);
  size_t Position = 0;
  for (size_t I = 0; I < Order.size(); ++I) {
    if (I > 0 && Names[Order[I]] == Names[Order[I - 1]])
      continue;
    if (Position++ % Spec.Count == Spec.Index - 1)
      Selected[Order[I]] = true;
  }
  std::vector<std::string> Result;
  for (size_t I = 0; I < Files.size(); ++I)
    if (Selected[I])
      Result.push_back(Files[I]);
  return Result;
}

} // namespace libtorch_tidy::select
