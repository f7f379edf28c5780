//===--- Fingerprint.cpp - Stable identities of findings ------------------===//
//
// Part of libtorch-tidy. SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

#include "Fingerprint.h"
#include "ProjectRoot.h"

#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/SHA256.h"
#include <algorithm>
#include <map>

namespace libtorch_tidy::report {

namespace {

/// Numbers the findings of each hash in line, column, message order and
/// writes `<hash>:<n>` into every copy of each finding.
void numberOccurrences(model::RunResult &Run,
                       const std::map<model::FindingKey, std::string> &HashOf) {
  std::map<std::string, std::vector<const model::Finding *>> ByHash;
  std::vector<model::Finding> Unique = model::uniqueFindings(Run);
  for (const model::Finding &F : Unique)
    ByHash[HashOf.at(model::keyOf(F))].push_back(&F);
  std::map<model::FindingKey, std::string> Fingerprints;
  for (auto &[Hash, Group] : ByHash) {
    std::stable_sort(
        Group.begin(), Group.end(),
        [](const model::Finding *A, const model::Finding *B) {
          return std::tie(A->Where.Begin.Line, A->Where.Begin.Column,
                          A->Where.Offset, A->Message) <
                 std::tie(B->Where.Begin.Line, B->Where.Begin.Column,
                          B->Where.Offset, B->Message);
        });
    for (unsigned I = 0; I < Group.size(); ++I)
      Fingerprints[model::keyOf(*Group[I])] =
          Hash + ":" + std::to_string(I + 1);
  }
  for (model::TranslationUnitResult &Unit : Run.Units)
    for (model::Finding &F : Unit.Findings)
      F.Fingerprint = Fingerprints.at(model::keyOf(F));
}

} // namespace

std::string fingerprintHash(llvm::StringRef CheckId,
                            llvm::StringRef ProjectPath,
                            llvm::StringRef LineContent) {
  std::string Squeezed;
  for (char C : LineContent)
    if (!llvm::isSpace(C))
      Squeezed += C;
  llvm::SHA256 Hasher;
  // Zero bytes separate the parts: none of them contains one.
  for (llvm::StringRef Part :
       {CheckId, ProjectPath, llvm::StringRef(Squeezed)}) {
    Hasher.update(Part);
    Hasher.update(llvm::StringRef("\0", 1));
  }
  std::array<uint8_t, 32> Digest = Hasher.final();
  return llvm::toHex(llvm::ArrayRef<uint8_t>(Digest).take_front(8),
                     /*LowerCase=*/true);
}

llvm::StringRef fingerprintHashPart(llvm::StringRef Fingerprint) {
  return Fingerprint.rsplit(':').first;
}

void assignFingerprints(model::RunResult &Run, llvm::StringRef ProjectRoot,
                        SourceFiles &Sources) {
  std::map<model::FindingKey, std::string> HashOf;
  for (const model::TranslationUnitResult &Unit : Run.Units)
    for (const model::Finding &F : Unit.Findings) {
      model::FindingKey Key = model::keyOf(F);
      if (HashOf.count(Key))
        continue;
      std::string Content;
      const SourceText *Text = Sources.get(F.Where.AbsoluteFile);
      if (Text && F.Where.Begin.Line >= 1 &&
          F.Where.Begin.Line <= Text->lineCount())
        Content = Text->line(F.Where.Begin.Line).str();
      else
        Content = "message:" + F.Message;
      HashOf[Key] = fingerprintHash(
          F.CheckId, projectPath(F.Where.AbsoluteFile, ProjectRoot), Content);
    }
  numberOccurrences(Run, HashOf);
}

void renumberFingerprints(model::RunResult &Run) {
  std::map<model::FindingKey, std::string> HashOf;
  for (const model::TranslationUnitResult &Unit : Run.Units)
    for (const model::Finding &F : Unit.Findings)
      HashOf.emplace(model::keyOf(F), fingerprintHashPart(F.Fingerprint).str());
  numberOccurrences(Run, HashOf);
}

} // namespace libtorch_tidy::report
