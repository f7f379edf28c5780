//===--- FingerprintLineHash.h - GitHub's line hashes -----------*- C++ -*-===//
//
// Part of libtorch-tidy. SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//
//
// GitHub code scanning identifies an alert across commits by
// `partialFingerprints.primaryLocationLineHash`. Its SARIF upload action
// (`github/codeql-action/upload-sarif`) computes that value itself from the
// checked-out file, fills it in where a result has none, and warns ("found
// existing inconsistent fingerprint value") where a result carries a
// different one. So the SARIF writer computes exactly that value, by the same
// algorithm, for every result:
//
// - The file's bytes are decoded as UTF-8 (ill-formed sequences become one
//   U+FFFD per maximal subpart, as Node.js decodes them) and read as UTF-16
//   code units.
// - Spaces and tabs are dropped; `\r\n`, `\r` and `\n` each become one `\n`
//   (a `\n` right after a `\r` is dropped, unless a space or tab came between
//   them). The value 65535 marks the end of the file, followed by zeros.
// - A line's hash is a polynomial rolling hash (base 37, modulo 2^64) of the
//   100 units starting at the line's first unit; the hex digits of its
//   unsigned value, without leading zeros.
// - `:<n>` follows, n counting how often that hash has occurred in the file
//   so far, in line order (every line counts, not only reported ones).
//
// Lines are numbered as Clang numbers them (`\r\n`, `\r` and `\n` end one).
// The value changes when the reported line or the next ~100 characters
// change; libtorch-tidy's own edit-stable fingerprint (Fingerprint.h) is
// written beside it.
//
//===----------------------------------------------------------------------===//

#ifndef LIBTORCH_TIDY_DRIVER_REPORT_FINGERPRINTLINEHASH_H
#define LIBTORCH_TIDY_DRIVER_REPORT_FINGERPRINTLINEHASH_H

#include "llvm/ADT/StringRef.h"
#include <cstdint>
#include <string>
#include <vector>

namespace libtorch_tidy::report {

/// \p Utf8 as UTF-16 code units; every maximal subpart of an ill-formed
/// sequence becomes U+FFFD (the WHATWG Encoding Standard's UTF-8 decoder).
std::vector<uint16_t> decodeUtf8AsUtf16(llvm::StringRef Utf8);

/// GitHub's `primaryLocationLineHash` of every line of \p Content: element
/// I is the value of line I + 1 (`<hex>:<occurrence>`). A file that ends in
/// a line break has one more, empty, line.
std::vector<std::string> githubLineHashes(llvm::StringRef Content);

} // namespace libtorch_tidy::report

#endif // LIBTORCH_TIDY_DRIVER_REPORT_FINGERPRINTLINEHASH_H
