//===--- SourceText.cpp - Source files as lines and columns ---------------===//
//
// Part of libtorch-tidy. SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

#include "SourceText.h"

#include "llvm/Support/MemoryBuffer.h"
#include <algorithm>

namespace libtorch_tidy::report {

unsigned utf16Length(llvm::StringRef Utf8Text) {
  unsigned Units = 0;
  for (unsigned char Byte : Utf8Text) {
    if ((Byte & 0xC0) == 0x80)
      continue; // continuation byte
    Units += Byte >= 0xF0 ? 2 : 1;
  }
  return Units;
}

SourceText::SourceText(std::string Text) : Content(std::move(Text)) {
  LineStarts.push_back(0);
  for (unsigned I = 0; I < Content.size(); ++I)
    if (Content[I] == '\n' && I + 1 < Content.size())
      LineStarts.push_back(I + 1);
}

llvm::StringRef SourceText::line(unsigned Line) const {
  if (Line == 0 || Line > LineStarts.size())
    return {};
  unsigned Begin = LineStarts[Line - 1];
  unsigned End = Line < LineStarts.size() ? LineStarts[Line] : Content.size();
  llvm::StringRef Text(Content.data() + Begin, End - Begin);
  if (Text.endswith("\n"))
    Text = Text.drop_back();
  if (Text.endswith("\r"))
    Text = Text.drop_back();
  return Text;
}

model::Position SourceText::positionOf(unsigned ByteOffset) const {
  ByteOffset = std::min<unsigned>(ByteOffset, Content.size());
  auto After =
      std::upper_bound(LineStarts.begin(), LineStarts.end(), ByteOffset);
  unsigned Line = After - LineStarts.begin();
  unsigned LineStart = LineStarts[Line - 1];
  llvm::StringRef Before(Content.data() + LineStart, ByteOffset - LineStart);
  return {Line, static_cast<unsigned>(Before.size()) + 1,
          utf16Length(Before) + 1};
}

unsigned SourceText::utf16Offset(unsigned ByteOffset) const {
  ByteOffset = std::min<unsigned>(ByteOffset, Content.size());
  return utf16Length(llvm::StringRef(Content.data(), ByteOffset));
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

const SourceText *SourceFiles::get(llvm::StringRef AbsolutePath) {
  auto It = Cache.find(AbsolutePath);
  if (It == Cache.end()) {
    std::optional<std::string> Content = Read(AbsolutePath);
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
