//===--- IncludePrefix.cpp - The system includes a unit starts with -------===//
//
// Part of libtorch-tidy. SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

#include "preamble/IncludePrefix.h"

#include <algorithm>

using namespace llvm;

namespace libtorch_tidy::preamble {
namespace {

/// Skips spaces and tabs (not newlines).
StringRef skipBlanks(StringRef S) { return S.ltrim(" \t\f\v"); }

/// Skips whitespace, newlines and complete comments. Returns false when a
/// comment does not end or a line continues with a backslash.
bool skipTrivia(StringRef &S) {
  while (true) {
    S = S.ltrim(" \t\f\v\r\n");
    if (S.starts_with("//")) {
      size_t End = S.find('\n');
      StringRef Comment = S.take_front(End);
      // A `// ... \` comment continues on the next line.
      if (Comment.rtrim("\r").ends_with("\\"))
        return false;
      S = End == StringRef::npos ? StringRef() : S.drop_front(End);
      continue;
    }
    if (S.starts_with("/*")) {
      size_t End = S.find("*/", 2);
      if (End == StringRef::npos)
        return false;
      S = S.drop_front(End + 2);
      continue;
    }
    return true;
  }
}

} // namespace

std::string IncludePrefix::headerText() const {
  std::string Text = "#ifndef LIBTORCH_TIDY_INCLUDE_PREFIX\n"
                     "#define LIBTORCH_TIDY_INCLUDE_PREFIX\n";
  for (const std::string &Header : Headers)
    Text += "#include <" + Header + ">\n";
  Text += "#endif\n";
  return Text;
}

IncludePrefix leadingSystemIncludes(StringRef Text) {
  IncludePrefix Prefix;
  Text.consume_front("\xEF\xBB\xBF"); // a UTF-8 byte order mark
  while (skipTrivia(Text) && Text.consume_front("#")) {
    StringRef Line = Text.take_front(Text.find('\n'));
    StringRef Rest = skipBlanks(Line);
    if (!Rest.consume_front("include") || Rest.empty() ||
        (Rest.front() != ' ' && Rest.front() != '\t' && Rest.front() != '<'))
      break;
    Rest = skipBlanks(Rest);
    if (!Rest.consume_front("<"))
      break;
    size_t Close = Rest.find('>');
    if (Close == StringRef::npos || Close == 0)
      break;
    StringRef Header = Rest.take_front(Close);
    StringRef After = skipBlanks(Rest.drop_front(Close + 1)).rtrim("\r");
    // Only a `//` comment may follow; it must not continue the line.
    if (!After.empty() && (!After.starts_with("//") || After.ends_with("\\")))
      break;
    if (Header.contains('\\') || Line.rtrim("\r").ends_with("\\"))
      break;
    Prefix.Headers.push_back(Header.str());
    Text = Text.drop_front(Line.size());
  }
  auto LastLibTorch =
      std::find_if(Prefix.Headers.rbegin(), Prefix.Headers.rend(),
                   [](StringRef H) { return isLibTorchHeader(H); });
  if (LastLibTorch != Prefix.Headers.rend())
    Prefix.Headers.erase(LastLibTorch.base(), Prefix.Headers.end());
  return Prefix;
}

bool isLibTorchHeader(StringRef Header) {
  return Header.starts_with("torch/") || Header.starts_with("ATen/") ||
         Header.starts_with("c10/") || Header.starts_with("caffe2/");
}

} // namespace libtorch_tidy::preamble
