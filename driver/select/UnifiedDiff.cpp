//===--- UnifiedDiff.cpp - Changed lines from a unified diff --------------===//
//
// Part of libtorch-tidy. SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

#include "select/UnifiedDiff.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/ADT/StringExtras.h"
#include <algorithm>

using namespace llvm;

namespace libtorch_tidy::select {

void ChangedLines::add(unsigned First, unsigned Last) {
  if (First == 0)
    First = 1;
  if (Last < First)
    return;
  Ranges.emplace_back(First, Last);
  std::sort(Ranges.begin(), Ranges.end());
  std::vector<std::pair<unsigned, unsigned>> Merged;
  for (const auto &Range : Ranges) {
    if (!Merged.empty() && Range.first <= Merged.back().second + 1)
      Merged.back().second = std::max(Merged.back().second, Range.second);
    else
      Merged.push_back(Range);
  }
  Ranges = std::move(Merged);
}

bool ChangedLines::contains(unsigned Line) const {
  auto It =
      std::upper_bound(Ranges.begin(), Ranges.end(), Line,
                       [](unsigned L, const std::pair<unsigned, unsigned> &R) {
                         return L < R.first;
                       });
  if (It == Ranges.begin())
    return false;
  return Line <= std::prev(It)->second;
}

std::string unquoteGitPath(StringRef Text) {
  if (Text.size() < 2 || !Text.starts_with("\"") || !Text.ends_with("\""))
    return Text.str();
  StringRef Body = Text.drop_front().drop_back();
  std::string Out;
  for (size_t I = 0; I < Body.size(); ++I) {
    char C = Body[I];
    if (C != '\\' || I + 1 == Body.size()) {
      Out += C;
      continue;
    }
    char E = Body[++I];
    switch (E) {
    case 'a':
      Out += '\a';
      break;
    case 'b':
      Out += '\b';
      break;
    case 'f':
      Out += '\f';
      break;
    case 'n':
      Out += '\n';
      break;
    case 'r':
      Out += '\r';
      break;
    case 't':
      Out += '\t';
      break;
    case 'v':
      Out += '\v';
      break;
    default:
      if (E >= '0' && E <= '7') {
        unsigned Value = 0, Digits = 0;
        while (Digits < 3 && I < Body.size() && Body[I] >= '0' &&
               Body[I] <= '7') {
          Value = Value * 8 + (Body[I] - '0');
          ++I, ++Digits;
        }
        --I;
        Out += static_cast<char>(Value);
      } else {
        Out += E; // \" and \\ .
      }
    }
  }
  return Out;
}

namespace {

/// The path of a `---`/`+++` line: C-quoted, or up to the tab that git puts
/// after names with spaces and `diff -u` puts before its timestamp.
std::string headerPath(StringRef Rest) {
  Rest = Rest.rtrim("\r");
  if (Rest.starts_with("\"")) {
    // Find the closing quote that is not escaped.
    for (size_t I = 1; I < Rest.size(); ++I) {
      if (Rest[I] == '\\') {
        ++I;
        continue;
      }
      if (Rest[I] == '"')
        return unquoteGitPath(Rest.take_front(I + 1));
    }
    return Rest.str();
  }
  return Rest.split('\t').first.str();
}

/// Parses `@@ -a[,b] +c[,d] @@`.
bool parseHunkHeader(StringRef Line, unsigned &OldCount, unsigned &NewStart,
                     unsigned &NewCount) {
  if (!Line.consume_front("@@ -"))
    return false;
  auto [Old, Rest] = Line.split(' ');
  auto [OldStartText, OldCountText] = Old.split(',');
  unsigned OldStart;
  if (OldStartText.getAsInteger(10, OldStart))
    return false;
  OldCount = 1;
  if (!OldCountText.empty() && OldCountText.getAsInteger(10, OldCount))
    return false;
  if (!Rest.consume_front("+"))
    return false;
  auto [New, Tail] = Rest.split(' ');
  if (!Tail.starts_with("@@"))
    return false;
  auto [NewStartText, NewCountText] = New.split(',');
  if (NewStartText.getAsInteger(10, NewStart))
    return false;
  NewCount = 1;
  return NewCountText.empty() || !NewCountText.getAsInteger(10, NewCount);
}

Error malformed(size_t LineIndex, const char *What) {
  return createStringError(inconvertibleErrorCode(),
                           "malformed diff at line %zu: %s; pass the output "
                           "of 'git diff' or 'diff -u'",
                           LineIndex + 1, What);
}

/// Reads the hunk whose header is \p Lines[\p I] into \p Into (the file of
/// the last `+++` header; null before one): its added lines, and for a pure
/// deletion the lines on either side of it. Leaves
/// \p I on the hunk's last line.
Error readHunk(ArrayRef<StringRef> Lines, size_t &I, ChangedLines *Into) {
  unsigned OldLeft, NewLine, NewLeft;
  if (!parseHunkHeader(Lines[I], OldLeft, NewLine, NewLeft))
    return malformed(I, "bad hunk header");
  if (!Into)
    return malformed(I, "hunk without a '+++' file header");
  // With -U0, a hunk that only deletes names the line before the deletion.
  if (NewLeft == 0)
    ++NewLine;
  bool BlockAdds = false, BlockDeletes = false;
  auto EndBlock = [&] {
    // A pure deletion touches the lines on either side of where it was.
    if (BlockDeletes && !BlockAdds)
      Into->add(NewLine > 1 ? NewLine - 1 : 1, NewLine);
    BlockAdds = BlockDeletes = false;
  };
  while (OldLeft > 0 || NewLeft > 0) {
    if (++I >= Lines.size())
      return malformed(I - 1, "hunk ends early");
    StringRef Body = Lines[I];
    char Kind = Body.empty() ? ' ' : Body.front();
    if (Kind == '\\')
      continue; // "\ No newline at end of file"
    if (Kind == '+') {
      if (NewLeft == 0)
        return malformed(I, "more added lines than the hunk header says");
      Into->add(NewLine, NewLine);
      BlockAdds = true;
      ++NewLine, --NewLeft;
    } else if (Kind == '-') {
      if (OldLeft == 0)
        return malformed(I, "more removed lines than the hunk header says");
      BlockDeletes = true;
      --OldLeft;
    } else if (Kind == ' ') {
      EndBlock();
      if (OldLeft == 0 || NewLeft == 0)
        return malformed(I, "more context lines than the hunk header says");
      ++NewLine, --OldLeft, --NewLeft;
    } else {
      return malformed(I, "unexpected line inside a hunk");
    }
  }
  EndBlock();
  // The marker may follow the last line of a hunk.
  while (I + 1 < Lines.size() && Lines[I + 1].starts_with("\\"))
    ++I;
  return Error::success();
}

} // namespace

Expected<ParsedDiff> parseUnifiedDiff(StringRef Text) {
  ParsedDiff Result;
  SmallVector<StringRef, 0> Lines;
  Text.split(Lines, '\n');
  if (!Lines.empty() && Lines.back().empty())
    Lines.pop_back();

  std::string OldPath;
  ChangedLines *Current = nullptr;
  ChangedLines Discarded;
  bool StripPrefix = false;
  bool SawHeader = false;

  for (size_t I = 0; I < Lines.size(); ++I) {
    StringRef Line = Lines[I];
    if (Line.starts_with("diff --git ")) {
      SawHeader = true;
      Result.FromGit = true;
      Current = nullptr;
      OldPath.clear();
      continue;
    }
    if (Line.starts_with("--- ")) {
      OldPath = headerPath(Line.drop_front(4));
      continue;
    }
    if (Line.starts_with("+++ ")) {
      SawHeader = true;
      std::string NewPath = headerPath(Line.drop_front(4));
      Current = nullptr;
      if (NewPath == "/dev/null") {
        // A deleted file has no new lines: read its hunks, keep nothing.
        Discarded = ChangedLines();
        Current = &Discarded;
        continue;
      }
      // git's default prefixes; a diff made with --no-prefix has none.
      StripPrefix =
          StringRef(NewPath).starts_with("b/") &&
          (StringRef(OldPath).starts_with("a/") || OldPath == "/dev/null");
      if (StripPrefix)
        NewPath.erase(0, 2);
      Current = &Result.Files[NewPath];
      continue;
    }
    if (!Line.starts_with("@@ "))
      continue; // index, mode, rename, similarity, commit message ...

    if (Error E = readHunk(Lines, I, Current))
      return std::move(E);
  }
  // An empty diff says nothing changed; text without a single file header
  // is not a diff at all (a log, a file given by mistake), and analyzing
  // nothing because of it would pass a gate silently.
  if (!SawHeader && !Text.trim().empty())
    return createStringError(inconvertibleErrorCode(),
                             "the input holds no diff (no 'diff --git' or "
                             "'+++' file header); pass the output of 'git "
                             "diff' or 'diff -u'");
  return Result;
}

} // namespace libtorch_tidy::select
