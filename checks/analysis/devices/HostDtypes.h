//===--- HostDtypes.h - Element types of host tensors -----------*- C++ -*-===//
//
// Part of libtorch-tidy. SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//
//
// Which element type (c10::ScalarType) an expression names, which a host
// tensor certainly has, and whether a copy to the device is given a tensor
// that was just widened on the host (`images.to(torch::kFloat).to(device)`
// of a uint8 tensor: the host converts, then four times the bytes cross
// the bus). Unknown stays unknown: a tensor from a parameter, a member or a
// call of our own says nothing about its element type.
//
//===----------------------------------------------------------------------===//

#ifndef LIBTORCH_TIDY_CHECKS_ANALYSIS_DEVICES_HOSTDTYPES_H
#define LIBTORCH_TIDY_CHECKS_ANALYSIS_DEVICES_HOSTDTYPES_H

#include "clang/AST/ASTContext.h"
#include "clang/AST/ExprCXX.h"
#include "llvm/ADT/StringRef.h"
#include <optional>

namespace clang::tidy::libtorch::analysis {

/// The c10::ScalarType enumerator (`Byte`, `Float`, ...) that \p E names:
/// `torch::kUInt8`, `at::kFloat`, `c10::ScalarType::Half`, and
/// TensorOptions given one (`TensorOptions().dtype(torch::kByte)`,
/// `torch::dtype(torch::kInt16)`, a ScalarType converted to options), read
/// through constants. None when \p E names no element type.
std::optional<llvm::StringRef> scalarTypeNamed(const Expr *E);

/// Bytes per element of a ScalarType enumerator; 0 when not known.
unsigned elementBytes(llvm::StringRef ScalarType);

/// How a message names a ScalarType enumerator: `uint8` for `Byte`,
/// `float32` for `Float`; the enumerator itself when it has no such name.
llvm::StringRef dtypeDisplayName(llvm::StringRef ScalarType);

/// The element type a tensor expression certainly has: a factory or
/// `from_blob` given one in its options, through element-type preserving
/// views (`permute`, `unsqueeze`, `clone`, `x[i]`, ...) and local
/// variables that only ever hold such tensors. None when not known.
std::optional<llvm::StringRef> knownElementType(const Expr *Tensor);

/// A host tensor widened before it is copied to the device.
struct HostWidening {
  /// `x.to(torch::kFloat)` / `x.toType(torch::kFloat)`.
  const CXXMemberCallExpr *Conversion = nullptr;
  llvm::StringRef From, To;
  /// How many times the bytes grow (To's size over From's).
  unsigned Ratio = 0;
  /// The copy is applied to the conversion itself, nothing in between.
  bool Adjacent = false;
};

/// \p CopySource is the object of a `.to(device)` / `.cuda()`: the result
/// of a conversion to a wider element type (maybe followed by arithmetic or
/// views that keep it) of a tensor provably in host memory whose element
/// type is known to be narrower.
std::optional<HostWidening> hostWideningBefore(const Expr *CopySource,
                                               ASTContext &Context);

/// A conversion to a 64-bit element type right before a copy to the
/// device (`mask.to(torch::kLong).to(device)`): the host converts, and the
/// wide tensor crosses the bus. Copying first and converting on the device
/// gives the same tensor.
struct HostConversion {
  /// `x.to(torch::kLong)` / `x.toType(torch::kLong)`.
  const CXXMemberCallExpr *Conversion = nullptr;
  llvm::StringRef To;
  /// The element type of `x` when it is known; empty otherwise.
  llvm::StringRef From;
};

/// \p CopySource is the object of a `.to(device)` / `.cuda()` and is itself
/// a conversion to an 8-byte element type (Long, Double) of a tensor that
/// is not known to be on the device and not known to have an element type
/// of 8 bytes or more (for those the conversion saves nothing).
std::optional<HostConversion> wideConversionBeforeCopy(const Expr *CopySource,
                                                       ASTContext &Context);

/// Whether a fix may swap \p Widening's conversion and \p Copy
/// (`x.to(kFloat).to(device)` becomes `x.to(device).to(kFloat)`, the same
/// values on the same device): nothing stands between the two calls (not
/// even a comment), both are written outside macros, the conversion does
/// nothing but convert, the copy names a device and no dtype (it would
/// convert again), and the narrow tensor is not itself made by a call that
/// the swap would leave copied (a factory: another finding).
bool isWideningSwappable(const HostWidening &Widening,
                         const CXXMemberCallExpr &Copy, const SourceManager &SM,
                         const LangOptions &LangOpts);

} // namespace clang::tidy::libtorch::analysis

#endif // LIBTORCH_TIDY_CHECKS_ANALYSIS_DEVICES_HOSTDTYPES_H
