//===--- FixApplier.cpp - --fix: write the fix-its into the files ---------===//
//
// Part of libtorch-tidy. SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

#include "fix/FixApplier.h"
#include "io/FileIO.h"
#include "model/TextPosition.h"
#include "clang/Format/Format.h"
#include "clang/Tooling/Core/Replacement.h"
#include "llvm/ADT/SmallString.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/Errno.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/SHA256.h"
#include <algorithm>
#include <set>
#include <tuple>
#include <unistd.h>

using namespace llvm;
using libtorch_tidy::model::Finding;
using libtorch_tidy::model::Replacement;

namespace libtorch_tidy::fix {
namespace {

bool sameEdit(const Replacement &A, const Replacement &B) {
  return A.File == B.File && A.Offset == B.Offset && A.Length == B.Length &&
         A.Text == B.Text;
}

/// Whether applying both \p A and \p B (same file) is ambiguous.
bool overlaps(const Replacement &A, const Replacement &B) {
  if (sameEdit(A, B))
    return false;
  const unsigned AEnd = A.Offset + A.Length, BEnd = B.Offset + B.Length;
  if (A.Length == 0 && B.Length == 0)
    return A.Offset == B.Offset; // which insertion goes first?
  // An insertion conflicts with a replacement it falls strictly inside; at
  // either end of it, it goes before or after the replaced text.
  if (A.Length == 0)
    return B.Offset < A.Offset && A.Offset < BEnd;
  if (B.Length == 0)
    return A.Offset < B.Offset && B.Offset < AEnd;
  return A.Offset < BEnd && B.Offset < AEnd;
}

bool editOrder(const Replacement &A, const Replacement &B) {
  // Insertions before replacements that start at the same offset.
  return std::tie(A.Offset, A.Length, A.Text) <
         std::tie(B.Offset, B.Length, B.Text);
}

std::string normalizedPath(StringRef Path) {
  SmallString<256> Result(Path);
  sys::path::remove_dots(Result, /*remove_dot_dot=*/true);
  return std::string(Result);
}

/// A file --fix may rewrite: a regular one (io::writeFile writes through a
/// FIFO or a device, which --fix must never touch), read through the one
/// file-I/O module.
Expected<std::string> readFile(StringRef Path) {
  std::string Error;
  std::optional<std::string> Text =
      io::readRegularFile(Path.str(), io::MaxReportBytes, "source file", Error);
  if (!Text)
    return createStringError(inconvertibleErrorCode(), "%s", Error.c_str());
  return std::move(*Text);
}

/// \p Code with \p Edits applied, with clang-format's cleanup around them
/// and, for a style other than "none", the edited lines formatted: what
/// clang-tidy's --fix writes.
Expected<std::string> fixedContent(StringRef File, StringRef Code,
                                   ArrayRef<Replacement> Edits,
                                   StringRef StyleName) {
  clang::tooling::Replacements Replaces;
  for (const Replacement &R : Edits)
    if (Error E = Replaces.add(
            clang::tooling::Replacement(File, R.Offset, R.Length, R.Text))) {
      // Edits the plan accepted never overlap; should clang's rules differ,
      // apply them as planned, without cleanup.
      consumeError(std::move(E));
      return applyReplacements(Code, Edits);
    }
  Expected<clang::format::FormatStyle> Style =
      clang::format::getStyle(StyleName, File, "none", Code);
  if (!Style)
    return createStringError(
        inconvertibleErrorCode(), "invalid FormatStyle '%s' (%s)",
        StyleName.str().c_str(), toString(Style.takeError()).c_str());
  if (Expected<clang::tooling::Replacements> Cleaned =
          clang::format::cleanupAroundReplacements(Code, Replaces, *Style))
    Replaces = std::move(*Cleaned);
  else
    consumeError(Cleaned.takeError());
  if (StyleName != "none") {
    if (Expected<clang::tooling::Replacements> Formatted =
            clang::format::formatReplacements(Code, Replaces, *Style))
      Replaces = std::move(*Formatted);
    else
      consumeError(Formatted.takeError());
  }
  return clang::tooling::applyAllReplacements(Code, Replaces);
}

} // namespace

bool fixesOverlap(ArrayRef<Replacement> A, ArrayRef<Replacement> B) {
  for (const Replacement &RA : A)
    for (const Replacement &RB : B) {
      if (normalizedPath(RA.File) != normalizedPath(RB.File))
        continue;
      Replacement NA = RA, NB = RB;
      NA.File = NB.File = "";
      if (overlaps(NA, NB))
        return true;
    }
  return false;
}

const std::vector<Replacement> *chosenFix(const Finding &F, bool FixNotes) {
  if (!F.Fixes.empty())
    return &F.Fixes;
  if (!FixNotes)
    return nullptr;
  const std::vector<Replacement> *Found = nullptr;
  for (const model::Note &N : F.Notes) {
    if (N.Fixes.empty())
      continue;
    if (Found)
      return nullptr; // two notes offer fixes: not ours to choose
    Found = &N.Fixes;
  }
  return Found;
}

FixPlan planFixes(ArrayRef<const Finding *> Findings,
                  const FixOptions &Options) {
  FixPlan Plan;
  Plan.Accepted.assign(Findings.size(), false);
  // Which finding put each accepted edit there, for conflict reports.
  std::map<std::string, std::vector<std::pair<Replacement, std::string>>> Taken;
  for (size_t Index = 0; Index < Findings.size(); ++Index) {
    const Finding &F = *Findings[Index];
    const std::vector<Replacement> *Fix = chosenFix(F, Options.FixNotes);
    if (!Fix)
      continue;
    std::vector<Replacement> Edits = *Fix;
    for (Replacement &R : Edits)
      R.File = normalizedPath(R.File);
    // A fix whose own edits overlap is broken; one that overlaps an accepted
    // fix loses to it.
    std::optional<FixConflict> Conflict;
    for (size_t I = 0; I < Edits.size() && !Conflict; ++I) {
      for (size_t J = I + 1; J < Edits.size() && !Conflict; ++J)
        if (Edits[I].File == Edits[J].File && overlaps(Edits[I], Edits[J]))
          Conflict = FixConflict{Edits[I].File, Edits[I].Offset, F.CheckId,
                                 F.CheckId, Edits[J].Offset};
      for (const auto &[Other, OtherCheck] : Taken[Edits[I].File])
        if (!Conflict && overlaps(Edits[I], Other))
          Conflict = FixConflict{Edits[I].File, Edits[I].Offset, F.CheckId,
                                 OtherCheck, Other.Offset};
    }
    if (Conflict) {
      Plan.Conflicts.push_back(*Conflict);
      continue;
    }
    ++Plan.Fixes;
    Plan.Accepted[Index] = true;
    for (const Replacement &R : Edits) {
      auto &Accepted = Taken[R.File];
      bool Duplicate =
          std::any_of(Accepted.begin(), Accepted.end(), [&](const auto &Entry) {
            return sameEdit(Entry.first, R);
          });
      if (!Duplicate)
        Accepted.emplace_back(R, F.CheckId);
    }
  }
  for (auto &[File, Accepted] : Taken) {
    if (Accepted.empty())
      continue;
    std::vector<Replacement> &Edits = Plan.Edits[File];
    for (const auto &Entry : Accepted)
      Edits.push_back(Entry.first);
    std::sort(Edits.begin(), Edits.end(), editOrder);
  }
  return Plan;
}

Expected<std::string> applyReplacements(StringRef Content,
                                        ArrayRef<Replacement> Edits) {
  std::string Result;
  Result.reserve(Content.size());
  size_t Copied = 0;
  for (const Replacement &R : Edits) {
    if (R.Offset < Copied ||
        static_cast<size_t>(R.Offset) + R.Length > Content.size())
      return createStringError(
          inconvertibleErrorCode(),
          "an edit at offset %u reaches past the end of the file or "
          "overlaps another",
          R.Offset);
    Result.append(Content.data() + Copied, R.Offset - Copied);
    Result += R.Text;
    Copied = R.Offset + R.Length;
  }
  Result.append(Content.data() + Copied, Content.size() - Copied);
  return Result;
}

namespace {

/// The digest each file had when the analysis read it; a file read by two
/// units with different content has two.
std::map<std::string, std::set<std::string>>
recordedDigests(const model::RunResult &Run) {
  std::map<std::string, std::set<std::string>> Recorded;
  for (const model::TranslationUnitResult &Unit : Run.Units)
    for (const auto &[File, Digest] : Unit.ContentDigests)
      Recorded[normalizedPath(File)].insert(Digest);
  return Recorded;
}

/// \p File's content if it is what the analysis read, else an error line.
Expected<std::string>
verifiedContent(const std::string &File,
                const std::map<std::string, std::set<std::string>> &Recorded) {
  auto Fail = [&](const Twine &Why) {
    return createStringError(inconvertibleErrorCode(), Why);
  };
  Expected<std::string> Text = readFile(File);
  if (!Text)
    return Fail(toString(Text.takeError()) + "; no fixes were applied to it");
  auto It = Recorded.find(File);
  if (It == Recorded.end())
    return Fail("'" + File +
                "' has no content digest from the analysis; no fixes were "
                "applied to it: re-run libtorch-tidy --fix");
  if (It->second.size() != 1)
    return Fail("'" + File +
                "' changed while it was being analyzed; no fixes were "
                "applied to it: re-run libtorch-tidy --fix");
  if (model::contentDigest(*Text) != *It->second.begin())
    return Fail("'" + File +
                "' changed since it was analyzed; no fixes were applied to "
                "it: re-run libtorch-tidy --fix");
  return Text;
}

/// A plan checked against the files: what the output says and whether
/// anything may be written.
struct Prepared {
  FixPlan Plan;
  /// For each finding given, each replacement of its chosen fix and whether
  /// it is to be written.
  std::vector<std::vector<std::pair<Replacement, bool>>> PerFinding;
  /// Replacements attempted.
  unsigned Total = 0;
  std::vector<std::string> ConflictMessages;
  /// Files that changed since the analysis, or cannot be read: when there
  /// are any, nothing is written.
  std::vector<std::string> Errors;
};

/// planFixes(), then checks every file to change against the digests of
/// \p Run, and says per finding what will be written. Writes nothing.
Prepared prepareFixes(const model::RunResult &Run,
                      ArrayRef<const Finding *> Findings,
                      const FixOptions &Options) {
  Prepared P;
  P.Plan = planFixes(Findings, Options);
  std::map<std::string, std::set<std::string>> Recorded = recordedDigests(Run);

  // Every file is checked before any is written: the fix of one finding
  // may span files, and a stale file means the analysis is stale.
  for (const auto &[File, Edits] : P.Plan.Edits) {
    Expected<std::string> Text = verifiedContent(File, Recorded);
    if (!Text) {
      P.Errors.push_back(toString(Text.takeError()));
      continue;
    }
    // Edits replayed from the result cache, or from a worker, are data read
    // back from disk: one that does not fit the file it is for would make
    // clang's rewriter write out of bounds, or claim a fix it never made.
    for (const Replacement &R : Edits)
      if (static_cast<uint64_t>(R.Offset) + R.Length > Text->size()) {
        P.Errors.push_back(
            "'" + File + "': a fix-it at offset " + std::to_string(R.Offset) +
            " (length " + std::to_string(R.Length) + ") lies outside its " +
            std::to_string(Text->size()) +
            " bytes; the recorded result is corrupt, no fixes were applied: "
            "re-run with --no-cache");
        break;
      }
  }

  for (const FixConflict &C : P.Plan.Conflicts) {
    std::string Where = C.File;
    std::string OtherWhere = "offset " + std::to_string(C.OtherOffset);
    // Lines and columns only from the bytes the offsets were computed on.
    Expected<std::string> Text = verifiedContent(C.File, Recorded);
    if (Text) {
      model::TextLines Lines(*Text);
      model::Position At = Lines.positionOf(C.Offset);
      Where += ":" + std::to_string(At.Line) + ":" + std::to_string(At.Column);
      model::Position Other = Lines.positionOf(C.OtherOffset);
      OtherWhere = "line " + std::to_string(Other.Line) + ", column " +
                   std::to_string(Other.Column);
    } else {
      consumeError(Text.takeError());
    }
    P.ConflictMessages.push_back(
        (Twine(Where) + ": warning: fix of [" + C.CheckId +
         "] not applied: it overlaps the fix of [" + C.OtherCheckId + "] at " +
         OtherWhere + "; run --fix again to apply it to the fixed code")
            .str());
  }

  P.PerFinding.resize(Findings.size());
  for (size_t I = 0; I < Findings.size(); ++I) {
    const std::vector<Replacement> *Fix =
        chosenFix(*Findings[I], Options.FixNotes);
    if (!Fix)
      continue;
    const bool Applies = P.Plan.Accepted[I] && P.Errors.empty();
    for (const Replacement &R : *Fix) {
      P.PerFinding[I].emplace_back(R, Applies);
      ++P.Total;
    }
  }
  return P;
}

/// Writes a prepared plan without Errors: each file checked again against
/// its digest, cleaned up and formatted as clang-tidy does, and replaced
/// atomically. Returns one line per file that could not be written; adds
/// the files written to \p Written, with their content before the fixes to
/// \p Originals.
std::vector<std::string>
writeFixes(const model::RunResult &Run, const Prepared &P,
           const FixOptions &Options, std::vector<std::string> &Written,
           std::map<std::string, std::string> &Originals) {
  std::vector<std::string> Errors;
  if (!P.Errors.empty())
    return P.Errors;
  std::map<std::string, std::set<std::string>> Recorded = recordedDigests(Run);
  for (const auto &[File, Edits] : P.Plan.Edits) {
    // Checked again right before writing, to keep the window small.
    Expected<std::string> Text = verifiedContent(File, Recorded);
    if (!Text) {
      Errors.push_back(toString(Text.takeError()));
      continue;
    }
    std::string Style = Options.StyleFor ? Options.StyleFor(File) : "none";
    Expected<std::string> Fixed = fixedContent(File, *Text, Edits, Style);
    if (!Fixed) {
      Errors.push_back("'" + File + "': " + toString(Fixed.takeError()) +
                       "; no fixes were applied to it");
      continue;
    }
    if (std::optional<std::string> Problem =
            io::writeFile(File, *Fixed, io::FileMode::Preserve)) {
      Errors.push_back(*Problem + "; no fixes were applied to it");
      continue;
    }
    Written.push_back(File);
    Originals[File] = std::move(*Text);
  }
  return Errors;
}

/// For each finding of \p P, each replacement of its fix and whether it was
/// written: planned, and every file it edits in \p Written.
std::vector<std::vector<std::pair<Replacement, bool>>>
writtenOutcome(const Prepared &P, ArrayRef<std::string> Written) {
  std::set<std::string> Done(Written.begin(), Written.end());
  std::vector<std::vector<std::pair<Replacement, bool>>> Outcome(
      P.PerFinding.size());
  for (size_t I = 0; I < P.PerFinding.size(); ++I) {
    bool Applied = !P.PerFinding[I].empty();
    for (const auto &[R, Applies] : P.PerFinding[I])
      Applied = Applied && Applies && Done.count(normalizedPath(R.File));
    for (const auto &Entry : P.PerFinding[I])
      Outcome[I].emplace_back(Entry.first, Applied);
  }
  return Outcome;
}

} // namespace

FixOutcome applyFixes(const model::RunResult &Run,
                      ArrayRef<const Finding *> Findings,
                      const FixOptions &Options) {
  Prepared P = prepareFixes(Run, Findings, Options);
  FixOutcome Outcome;
  Outcome.Conflicts = P.Plan.Conflicts;
  Outcome.ConflictMessages = P.ConflictMessages;
  Outcome.Suggested = P.Total;
  Outcome.Errors =
      writeFixes(Run, P, Options, Outcome.WrittenFiles, Outcome.Originals);
  // A fix counts as applied when it was planned and all its files written.
  Outcome.PerFinding = writtenOutcome(P, Outcome.WrittenFiles);
  for (const auto &Replacements : Outcome.PerFinding) {
    Outcome.AppliedFixes += !Replacements.empty() && Replacements[0].second;
    for (const auto &Entry : Replacements)
      Outcome.AppliedReplacements += Entry.second;
  }
  return Outcome;
}

} // namespace libtorch_tidy::fix
