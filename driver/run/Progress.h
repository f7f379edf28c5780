//===--- Progress.h - What the CLI shows while units run --------*- C++ -*-===//
//
// Part of libtorch-tidy. SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//
//
// `--progress=auto|bar|plain|none`, on standard error. `plain` prints one
// line per finished unit, in the order they finish, for logs without a
// terminal (CI):
//
//   [12/340] src/train.cpp 4.1 s, 2 findings
//   [13/340] src/data.cpp cached, no findings
//   [14/340] src/eval.cpp 1.2 s, no findings, preamble rebuilt (the cached
//            one was damaged and removed)
//
// `bar` shows the same text on one line that is redrawn in place, taken off
// the screen while findings are printed. `auto` is `bar` on a terminal and
// `plain` otherwise, and `none` with `--quiet`.
//
//===----------------------------------------------------------------------===//

#ifndef LIBTORCH_TIDY_DRIVER_RUN_PROGRESS_H
#define LIBTORCH_TIDY_DRIVER_RUN_PROGRESS_H

#include "model/Findings.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/Support/raw_ostream.h"
#include <cstddef>
#include <optional>
#include <string>

namespace libtorch_tidy::run {

enum class ProgressStyle { None, Bar, Plain };

/// The style `--progress=<Option>` asks for; \p Option was validated by the
/// command-line parser.
ProgressStyle progressStyle(llvm::StringRef Option, bool Quiet,
                            bool StderrIsTerminal);

/// The text of one unit's progress line, without the line end:
/// `[12/340] src/train.cpp 4.1 s, 2 findings`. \p Seconds is unset for a
/// unit replayed from the cache.
std::string progressLine(size_t Finished, size_t Total, llvm::StringRef File,
                         const model::TranslationUnitResult &Unit,
                         std::optional<double> Seconds);

class ProgressReporter {
public:
  /// \p Columns: the terminal's width for the bar (0: unknown).
  ProgressReporter(llvm::raw_ostream &OS, ProgressStyle Style, size_t Total,
                   unsigned Columns);
  ~ProgressReporter() { end(); }

  /// One more unit is done (analyzed, failed, or replayed from the cache).
  void finished(llvm::StringRef File, const model::TranslationUnitResult &Unit,
                std::optional<double> Seconds);
  /// Takes the bar off the screen before other output is printed...
  void suspend();
  /// ...and draws it again afterwards.
  void resume();
  /// Removes the bar for good; nothing is drawn after this.
  void end();

private:
  void draw();

  llvm::raw_ostream &OS;
  ProgressStyle Style;
  size_t Total;
  unsigned Columns;
  size_t Done = 0;
  std::string Bar;
  bool Shown = false;
  bool Ended = false;
};

} // namespace libtorch_tidy::run

#endif // LIBTORCH_TIDY_DRIVER_RUN_PROGRESS_H
