//===--- Fingerprint.h - Stable identities of findings ----------*- C++ -*-===//
//
// Part of libtorch-tidy. SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//
//
// One fingerprint per finding, used by every consumer that must recognise a
// finding again in a later run: the `fingerprint` of `--format=json`, SARIF's
// `partialFingerprints.primaryLocationLineHash` (GitHub code scanning tracks
// alerts across commits with it) and `--baseline`.
//
// A fingerprint is `<hash>:<occurrence>`. The hash is the first 16 hex digits
// of SHA-256 over the check id, the file's path relative to the project root,
// and the content of the reported line with all whitespace removed; line
// numbers do not enter it, so inserting or deleting unrelated lines, or
// re-indenting, keeps it. The occurrence (1-based) tells apart findings with
// the same hash (the same check on identical lines of one file), counted in
// line and column order, as GitHub does for its own line hashes. When the
// line cannot be read, the finding's message stands in for its content.
//
//===----------------------------------------------------------------------===//

#ifndef LIBTORCH_TIDY_DRIVER_REPORT_FINGERPRINT_H
#define LIBTORCH_TIDY_DRIVER_REPORT_FINGERPRINT_H

#include "SourceText.h"
#include "model/Findings.h"

#include "llvm/ADT/StringRef.h"
#include <string>

namespace libtorch_tidy::report {

/// The hash part of a fingerprint.
std::string fingerprintHash(llvm::StringRef CheckId,
                            llvm::StringRef ProjectPath,
                            llvm::StringRef LineContent);

/// The hash part of \p Fingerprint (everything before the last `:`).
llvm::StringRef fingerprintHashPart(llvm::StringRef Fingerprint);

/// Sets `Fingerprint` of every finding of \p Run (every copy of a finding
/// that several units report gets the same value), reading reported lines
/// through \p Sources. Compiler errors get none.
void assignFingerprints(model::RunResult &Run, llvm::StringRef ProjectRoot,
                        SourceFiles &Sources);

/// Recomputes the occurrence part of every fingerprint of \p Run from the hash
/// parts, for a run assembled from shards that each numbered their own.
void renumberFingerprints(model::RunResult &Run);

} // namespace libtorch_tidy::report

#endif // LIBTORCH_TIDY_DRIVER_REPORT_FINGERPRINT_H
