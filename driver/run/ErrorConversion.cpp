//===--- ErrorConversion.cpp - clang-tidy errors as findings --------------===//
//
// Part of libtorch-tidy. SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

#include "run/ErrorConversion.h"
#include "Catalog.h"
#include "model/TextPosition.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/SHA256.h"
#include <algorithm>
#include <set>

using namespace llvm;
using clang::tidy::ClangTidyError;

namespace libtorch_tidy::run {

ErrorConverter::ErrorConverter(std::string BuildDirectory,
                               const ParsedContents &ParsedFiles)
    : BuildDirectory(std::move(BuildDirectory)) {
  for (const auto &[Name, Bytes] : ParsedFiles)
    Parsed.emplace(absolutePath(Name), Bytes);
}

std::string ErrorConverter::absolutePath(StringRef Path) const {
  if (Path.empty())
    return "";
  SmallString<256> Absolute(Path);
  if (!sys::path::is_absolute(Absolute)) {
    Absolute = BuildDirectory;
    sys::path::append(Absolute, Path);
  }
  sys::path::remove_dots(Absolute, /*remove_dot_dot=*/true);
  // One file reached through a symbolic link in one unit and its real path
  // in another is one file: reported once, fixed once.
  SmallString<256> Real;
  if (!sys::fs::real_path(Absolute, Real))
    return std::string(Real);
  return std::string(Absolute);
}

const std::string *ErrorConverter::contents(const std::string &AbsolutePath) {
  if (auto P = Parsed.find(AbsolutePath); P != Parsed.end())
    return &P->second;
  auto [It, Inserted] = Files.try_emplace(AbsolutePath);
  if (Inserted) {
    ErrorOr<std::unique_ptr<MemoryBuffer>> Buffer = MemoryBuffer::getFile(
        AbsolutePath, /*IsText=*/false, /*RequiresNullTerminator=*/false);
    if (Buffer)
      It->second = (*Buffer)->getBuffer().str();
  }
  return It->second ? &*It->second : nullptr;
}

model::Location
ErrorConverter::location(StringRef File, unsigned Offset,
                         ArrayRef<clang::tooling::FileByteRange> Ranges) {
  model::Location L;
  L.File = File.str();
  L.AbsoluteFile = absolutePath(File);
  L.Offset = Offset;
  const std::string *Text =
      L.AbsoluteFile.empty() ? nullptr : contents(L.AbsoluteFile);
  if (!Text)
    return L;
  L.Begin = model::positionAt(*Text, Offset);
  L.End = L.Begin;
  // The end of the first highlighted range that covers the location.
  for (const clang::tooling::FileByteRange &R : Ranges)
    if (absolutePath(R.FilePath) == L.AbsoluteFile && R.FileOffset <= Offset &&
        Offset <= R.FileOffset + R.Length) {
      L.End = model::positionAt(*Text, R.FileOffset + R.Length);
      break;
    }
  return L;
}

std::vector<model::Replacement> ErrorConverter::replacements(
    const StringMap<clang::tooling::Replacements> &Fix) const {
  std::vector<model::Replacement> Result;
  for (const auto &FileAndReplacements : Fix)
    for (const clang::tooling::Replacement &R : FileAndReplacements.second)
      if (R.isApplicable())
        Result.push_back({absolutePath(R.getFilePath()), R.getOffset(),
                          R.getLength(), R.getReplacementText().str()});
  // StringMap order is unspecified: sort for deterministic output.
  std::stable_sort(
      Result.begin(), Result.end(),
      [](const model::Replacement &A, const model::Replacement &B) {
        return std::tie(A.File, A.Offset) < std::tie(B.File, B.Offset);
      });
  return Result;
}

std::vector<model::ByteRange>
ErrorConverter::ranges(ArrayRef<clang::tooling::FileByteRange> Ranges) {
  std::vector<model::ByteRange> Result;
  for (const clang::tooling::FileByteRange &R : Ranges)
    Result.push_back({R.FilePath, R.FileOffset, R.Length});
  return Result;
}

void ErrorConverter::convert(const std::vector<ClangTidyError> &Errors,
                             model::TranslationUnitResult &Unit) {
  std::set<std::string> Touched;
  for (const ClangTidyError &Error : Errors) {
    model::Finding F;
    F.CheckId = Error.DiagnosticName;
    for (const clang::tidy::libtorch::CheckInfo &Info :
         clang::tidy::libtorch::checkCatalog())
      if (Info.Id == F.CheckId)
        F.Tier = clang::tidy::libtorch::tierName(Info.Tier).str();
    const bool CompilerError =
        Error.DiagLevel == ClangTidyError::Error && !Error.IsWarningAsError;
    F.Severity =
        (CompilerError || Error.IsWarningAsError) ? "error" : "warning";
    F.Message = Error.Message.Message;
    F.Where = location(Error.Message.FilePath, Error.Message.FileOffset,
                       Error.Message.Ranges);
    F.Fixes = replacements(Error.Message.Fix);
    F.Ranges = ranges(Error.Message.Ranges);
    for (const clang::tooling::DiagnosticMessage &Message : Error.Notes) {
      model::Note N;
      N.Message = Message.Message;
      N.Where = location(Message.FilePath, Message.FileOffset, Message.Ranges);
      N.Fixes = replacements(Message.Fix);
      N.Ranges = ranges(Message.Ranges);
      F.Notes.push_back(std::move(N));
    }
    // Compiler errors' fix-its too (--fix-errors applies them): a file is
    // edited only with the digest of the bytes that were parsed.
    if (!F.Where.AbsoluteFile.empty())
      Touched.insert(F.Where.AbsoluteFile);
    for (const model::Replacement &R : F.Fixes)
      Touched.insert(R.File);
    for (const model::Note &N : F.Notes)
      for (const model::Replacement &R : N.Fixes)
        Touched.insert(R.File);
    if (CompilerError)
      Unit.CompilerErrors.push_back(std::move(F));
    else
      Unit.Findings.push_back(std::move(F));
  }
  for (const std::string &File : Touched)
    if (auto P = Parsed.find(File); P != Parsed.end())
      Unit.ContentDigests[File] = model::contentDigest(P->second);
}

} // namespace libtorch_tidy::run
