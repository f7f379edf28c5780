//===--- FingerprintLineHash.cpp - GitHub's line hashes -------------------===//
//
// Part of libtorch-tidy. SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

#include "FingerprintLineHash.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/StringExtras.h"
#include <iterator>
#include <map>
#include <utility>

namespace libtorch_tidy::report {

namespace {

/// The number of units a line's hash covers.
constexpr unsigned WindowSize = 100;
constexpr uint64_t Base = 37;
/// Stands for the end of the file, after the last unit of the file.
constexpr uint16_t EndOfFile = 65535;

void appendCodePoint(uint32_t CodePoint, std::vector<uint16_t> &Units) {
  if (CodePoint < 0x10000) {
    Units.push_back(static_cast<uint16_t>(CodePoint));
    return;
  }
  CodePoint -= 0x10000;
  Units.push_back(static_cast<uint16_t>(0xD800 + (CodePoint >> 10)));
  Units.push_back(static_cast<uint16_t>(0xDC00 + (CodePoint & 0x3FF)));
}

/// The units the hash reads: spaces and tabs dropped, every line break one
/// `\n`, then the end-of-file marker. \p LineStarts gets the index of the
/// first unit of every line.
std::vector<uint16_t> normalizedUnits(const std::vector<uint16_t> &Units,
                                      std::vector<size_t> &LineStarts) {
  std::vector<uint16_t> Normal;
  Normal.reserve(Units.size() + 1);
  bool AfterCarriageReturn = false;
  bool AtLineStart = true;
  auto Emit = [&](uint16_t Unit) {
    if (AtLineStart)
      LineStarts.push_back(Normal.size());
    AtLineStart = Unit == '\n';
    Normal.push_back(Unit);
  };
  for (uint16_t Unit : Units) {
    // A space or tab between `\r` and `\n` makes them two line breaks.
    const bool Skip =
        Unit == ' ' || Unit == '\t' || (AfterCarriageReturn && Unit == '\n');
    AfterCarriageReturn = !Skip && Unit == '\r';
    if (!Skip)
      Emit(Unit == '\r' ? '\n' : Unit);
  }
  Emit(EndOfFile);
  return Normal;
}

/// The lead bytes of a sequence of two to four bytes: how many continuation
/// bytes follow and which bits of the lead belong to the code point.
struct LeadRange {
  unsigned char First, Last;
  unsigned Needed;
  unsigned char Bits;
};
constexpr LeadRange LeadRanges[] = {
    {0xC2, 0xDF, 1, 0x1F}, {0xE0, 0xEF, 2, 0x0F}, {0xF0, 0xF4, 3, 0x07}};

/// The range the first continuation byte after \p Lead must fall in: it
/// rules out overlong forms, surrogates and code points past U+10FFFF.
std::pair<unsigned char, unsigned char> firstContinuation(unsigned char Lead) {
  switch (Lead) {
  case 0xE0:
    return {0xA0, 0xBF};
  case 0xED:
    return {0x80, 0x9F};
  case 0xF0:
    return {0x90, 0xBF};
  case 0xF4:
    return {0x80, 0x8F};
  default:
    return {0x80, 0xBF};
  }
}

} // namespace

std::vector<uint16_t> decodeUtf8AsUtf16(llvm::StringRef Utf8) {
  std::vector<uint16_t> Units;
  Units.reserve(Utf8.size());
  const auto *Bytes = reinterpret_cast<const unsigned char *>(Utf8.data());
  const size_t Size = Utf8.size();
  size_t I = 0;
  while (I < Size) {
    const unsigned char Lead = Bytes[I];
    if (Lead < 0x80) {
      Units.push_back(Lead);
      ++I;
      continue;
    }
    const LeadRange *Range = llvm::find_if(LeadRanges, [&](const LeadRange &R) {
      return R.First <= Lead && Lead <= R.Last;
    });
    if (Range == std::end(LeadRanges)) {
      Units.push_back(0xFFFD);
      ++I;
      continue;
    }
    const unsigned Needed = Range->Needed;
    uint32_t CodePoint = Lead & Range->Bits;
    auto [Lower, Upper] = firstContinuation(Lead);
    size_t Next = I + 1;
    unsigned Seen = 0;
    while (Seen < Needed && Next < Size && Bytes[Next] >= Lower &&
           Bytes[Next] <= Upper) {
      CodePoint = (CodePoint << 6) | (Bytes[Next] & 0x3F);
      Lower = 0x80;
      Upper = 0xBF;
      ++Seen;
      ++Next;
    }
    // A sequence cut short is replaced as a whole; the byte that cut it
    // starts the next sequence.
    appendCodePoint(Seen == Needed ? CodePoint : 0xFFFD, Units);
    I = Next;
  }
  return Units;
}

std::vector<std::string> githubLineHashes(llvm::StringRef Content) {
  std::vector<size_t> LineStarts;
  const std::vector<uint16_t> Units =
      normalizedUnits(decodeUtf8AsUtf16(Content), LineStarts);
  std::vector<std::string> Hashes;
  Hashes.reserve(LineStarts.size());
  std::map<uint64_t, unsigned> Occurrences;
  for (size_t Start : LineStarts) {
    // Horner's rule over the window; past the end-of-file marker the window
    // holds zeros. Unsigned arithmetic wraps modulo 2^64 as the hash does.
    uint64_t Hash = 0;
    for (size_t K = Start; K < Start + WindowSize; ++K)
      Hash = Hash * Base + (K < Units.size() ? Units[K] : 0);
    Hashes.push_back(llvm::utohexstr(Hash, /*LowerCase=*/true) + ":" +
                     std::to_string(++Occurrences[Hash]));
  }
  return Hashes;
}

} // namespace libtorch_tidy::report
