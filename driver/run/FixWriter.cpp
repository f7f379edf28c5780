//===--- FixWriter.cpp - Apply fix-its to the files -----------------------===//
//
// Part of libtorch-tidy. SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

#include "run/FixWriter.h"
#include "clang/Format/Format.h"
#include "clang/Tooling/Core/Replacement.h"
#include "llvm/ADT/StringMap.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/raw_ostream.h"

using namespace llvm;
namespace tooling = clang::tooling;

namespace libtorch_tidy::run {

const std::vector<report::Replacement> *chosenFix(const report::Finding &F,
                                                  bool FixNotes) {
  if (!F.Fixes.empty())
    return &F.Fixes;
  if (!FixNotes)
    return nullptr;
  const std::vector<report::Replacement> *Result = nullptr;
  for (const report::Note &N : F.Notes)
    if (!N.Fixes.empty()) {
      if (Result)
        return nullptr; // two different fixes in notes: none is chosen
      Result = &N.Fixes;
    }
  return Result;
}

FixPlan planFixes(ArrayRef<const report::Finding *> Findings, bool FixNotes) {
  FixPlan Outcome;
  StringMap<tooling::Replacements> PerFile;
  for (const report::Finding *F : Findings) {
    auto &Attempts = Outcome.PerFinding.emplace_back();
    const std::vector<report::Replacement> *Fix = chosenFix(*F, FixNotes);
    if (!Fix)
      continue;
    for (const report::Replacement &R : *Fix) {
      ++Outcome.Total;
      tooling::Replacement Repl(R.File, R.Offset, R.Length, R.Text);
      tooling::Replacements &Replaces = PerFile[R.File];
      bool Applies = false;
      if (Error Err = Replaces.add(Repl)) {
        // As clang-tidy: a conflict with an earlier edit is resolved when
        // the replacement can simply be shifted past it, else skipped.
        errs() << "Trying to resolve conflict: " << toString(std::move(Err))
               << "\n";
        unsigned NewOffset = Replaces.getShiftedCodePosition(Repl.getOffset());
        unsigned NewLength = Replaces.getShiftedCodePosition(Repl.getOffset() +
                                                             Repl.getLength()) -
                             NewOffset;
        if (NewLength == Repl.getLength()) {
          Replaces = Replaces.merge(tooling::Replacements(
              tooling::Replacement(R.File, NewOffset, NewLength, R.Text)));
          Applies = true;
        } else {
          errs() << "Can't resolve conflict, skipping the replacement.\n";
        }
      } else {
        Applies = true;
      }
      Outcome.Applied += Applies;
      Attempts.emplace_back(R, Applies);
    }
  }
  for (const auto &FileAndReplaces : PerFile)
    for (const tooling::Replacement &R : FileAndReplaces.second)
      Outcome.PerFile[FileAndReplaces.first().str()].push_back(
          {R.getFilePath().str(), R.getOffset(), R.getLength(),
           R.getReplacementText().str()});
  return Outcome;
}

std::vector<std::string>
writeFixes(const FixPlan &Plan,
           const std::function<std::string(StringRef)> &StyleFor) {
  std::vector<std::string> Failures;
  for (const auto &[Path, Edits] : Plan.PerFile) {
    StringRef File = Path;
    tooling::Replacements Replaces;
    for (const report::Replacement &R : Edits)
      consumeError(Replaces.add(
          tooling::Replacement(R.File, R.Offset, R.Length, R.Text)));
    ErrorOr<std::unique_ptr<MemoryBuffer>> Buffer = MemoryBuffer::getFile(
        File, /*IsText=*/false, /*RequiresNullTerminator=*/false);
    if (!Buffer) {
      Failures.push_back("cannot read '" + File.str() +
                         "': " + Buffer.getError().message());
      continue;
    }
    StringRef Code = (*Buffer)->getBuffer();
    Expected<clang::format::FormatStyle> Style =
        clang::format::getStyle(StyleFor(File), File, "none");
    if (!Style) {
      Failures.push_back(toString(Style.takeError()));
      continue;
    }
    Expected<tooling::Replacements> Cleaned =
        clang::format::cleanupAroundReplacements(Code, Replaces, *Style);
    if (!Cleaned) {
      Failures.push_back(toString(Cleaned.takeError()));
      continue;
    }
    tooling::Replacements Final = *Cleaned;
    if (Expected<tooling::Replacements> Formatted =
            clang::format::formatReplacements(Code, *Cleaned, *Style))
      Final = std::move(*Formatted);
    else
      errs() << toString(Formatted.takeError()) << ". Skipping formatting.\n";
    Expected<std::string> NewCode = tooling::applyAllReplacements(Code, Final);
    if (!NewCode) {
      Failures.push_back("cannot apply the fixes to '" + File.str() +
                         "': " + toString(NewCode.takeError()));
      continue;
    }
    // writeToOutput writes a temporary file next to the target and renames
    // it into place: never a half-written source file.
    if (Error E = writeToOutput(File, [&](raw_ostream &OS) {
          OS << *NewCode;
          return Error::success();
        }))
      Failures.push_back("cannot write '" + File.str() +
                         "': " + toString(std::move(E)));
  }
  return Failures;
}

} // namespace libtorch_tidy::run
