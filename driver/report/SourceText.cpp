//===--- SourceText.cpp - Source files as lines and columns ---------------===//
//
// Part of libtorch-tidy. SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

#include "SourceText.h"

#include "llvm/Support/MemoryBuffer.h"
#include <algorithm>

namespace libtorch_tidy::report {

SourceText::SourceText(std::string Text)
    : Content(std::move(Text)), Lines(Content) {}

unsigned SourceText::utf16Offset(unsigned ByteOffset) const {
  ByteOffset = std::min<unsigned>(ByteOffset, Content.size());
  return model::utf16Length(llvm::StringRef(Content.data(), ByteOffset));
}

SourceFiles::SourceFiles()
    : Read([](llvm::StringRef Path) -> std::optional<std::string> {
        auto Buffer = llvm::MemoryBuffer::getFile(Path, /*IsText=*/false,
                                                  /*RequiresNullTerminator=*/
                                                  false);
        if (!Buffer)
          return std::nullopt;
        return (*Buffer)->getBuffer().str();
      }) {}

SourceFiles::SourceFiles(Reader Read) : Read(std::move(Read)) {}

void SourceFiles::onlyAsParsed(const model::RunResult &Run) {
  for (const model::TranslationUnitResult &Unit : Run.Units)
    for (const auto &[File, Digest] : Unit.ContentDigests)
      ParsedDigests[File].insert(Digest);
}

const SourceText *SourceFiles::get(llvm::StringRef AbsolutePath) {
  auto It = Cache.find(AbsolutePath);
  if (It == Cache.end()) {
    std::optional<std::string> Content = Read(AbsolutePath);
    auto Parsed = ParsedDigests.find(AbsolutePath);
    if (Content && Parsed != ParsedDigests.end() &&
        (Parsed->second.size() != 1 ||
         *Parsed->second.begin() != model::contentDigest(*Content)))
      Content.reset();
    It =
        Cache
            .emplace(AbsolutePath.str(),
                     Content ? std::make_unique<SourceText>(std::move(*Content))
                             : nullptr)
            .first;
  }
  return It->second.get();
}

} // namespace libtorch_tidy::report
