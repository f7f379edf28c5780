//===--- Merge.h - `libtorch-tidy merge`: join shards' reports --*- C++ -*-===//
//
// Part of libtorch-tidy. SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//
//
// `libtorch-tidy merge a.sarif b.sarif ... -o all.sarif` (or JSON reports)
// joins the reports of the shards of one run (`--shard=K/N`) into the report
// the unsharded run writes: the same rules, results, fingerprints and order.
// A finding in a header that units of several shards include appears once.
//
//===----------------------------------------------------------------------===//

#ifndef LIBTORCH_TIDY_DRIVER_MERGE_MERGE_H
#define LIBTORCH_TIDY_DRIVER_MERGE_MERGE_H

#include "llvm/ADT/ArrayRef.h"
#include "llvm/Support/Error.h"
#include "llvm/Support/raw_ostream.h"
#include <string>
#include <vector>

namespace libtorch_tidy::merge {

struct ReportFile {
  std::string Name;
  std::string Content;
};

/// The merge of \p Inputs (all `--format=json` reports or all SARIF logs of
/// libtorch-tidy), serialized in the inputs' format.
llvm::Expected<std::string> mergeReports(llvm::ArrayRef<ReportFile> Inputs);

/// `libtorch-tidy merge [-o <file>] <report>...` with \p Args the arguments
/// after `merge`. Writes the merge to the file (atomically) or to \p Out;
/// errors are one line on \p Err. Returns the exit code: 0, or 2 for bad
/// usage, unreadable or mismatched inputs, or an unwritable output.
int runMergeCommand(llvm::ArrayRef<const char *> Args, llvm::raw_ostream &Out,
                    llvm::raw_ostream &Err);

} // namespace libtorch_tidy::merge

#endif // LIBTORCH_TIDY_DRIVER_MERGE_MERGE_H
