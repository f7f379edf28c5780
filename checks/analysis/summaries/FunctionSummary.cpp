//===--- FunctionSummary.cpp - What a summary says ------------------------===//
//
// Part of libtorch-tidy. SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

#include "analysis/summaries/FunctionSummary.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/SHA256.h"

namespace clang::tidy::libtorch::analysis {

std::string placeDigest(llvm::StringRef Content) {
  return llvm::toHex(llvm::SHA256::hash(llvm::arrayRefFromStringRef(Content)),
                     /*LowerCase=*/true);
}

llvm::StringRef whatItMakes(const SummarizedHostCopy &Copy) {
  return Copy.Constant ? "rebuilds a tensor from constant host data"
                       : "makes a tensor in host memory";
}

std::string remedyThere(const SummarizedHostCopy &Copy) {
  if (Copy.Constant)
    return "make it on the device once there (a static or a member), and "
           "use that tensor";
  return "pass the device to '" + Copy.Factory +
         "' there to create it on the GPU";
}

} // namespace clang::tidy::libtorch::analysis
