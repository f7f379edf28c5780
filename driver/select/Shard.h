//===--- Shard.h - --shard=K/N: one part of the units -----------*- C++ -*-===//
//
// Part of libtorch-tidy. SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//
//
// Splits the translation units of a run into N parts so that N CI jobs, each
// running `libtorch-tidy --shard=K/N`, analyze every unit exactly once.
//
// The partition must come out the same in every job, on machines that check
// the repository out in different directories and list the compilation
// database in different orders. So each unit is named by its path relative to
// the top-level of the git repository that holds it (its absolute path when
// it is in none), the names are ordered by a hash of that name (xxHash64,
// stable across platforms, ties broken by the name), and the unit at rank R
// of that order goes to shard R mod N + 1. Ordering by a hash rather than by
// name spreads a directory of slow units over all shards; dealing the ranks
// round-robin keeps the shards' sizes within one of each other. Every job
// must see the same list of units (the same compile database and inputs).
//
//===----------------------------------------------------------------------===//

#ifndef LIBTORCH_TIDY_DRIVER_SELECT_SHARD_H
#define LIBTORCH_TIDY_DRIVER_SELECT_SHARD_H

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Error.h"
#include <string>
#include <vector>

namespace libtorch_tidy::select {

/// Shard `Index` (1-based) of `Count`.
struct ShardSpec {
  unsigned Index = 1;
  unsigned Count = 1;
};

/// Parses `K/N` with 1 <= K <= N. The error is one line saying what a valid
/// value looks like.
llvm::Expected<ShardSpec> parseShardSpec(llvm::StringRef Text);

/// The name of \p AbsoluteFile that every checkout agrees on: relative to
/// the top-level of its git repository with `/` separators, or the absolute
/// path when it is in no repository.
std::string shardKey(llvm::StringRef AbsoluteFile);

/// The files of \p Files (absolute paths) that belong to shard \p Spec, in
/// their original order. \p Keys, when given, replaces shardKey() (tests).
std::vector<std::string> selectShard(llvm::ArrayRef<std::string> Files,
                                     const ShardSpec &Spec,
                                     llvm::ArrayRef<std::string> Keys = {});

} // namespace libtorch_tidy::select

#endif // LIBTORCH_TIDY_DRIVER_SELECT_SHARD_H
