//===--- Progress.cpp - What the CLI shows while units run ----------------===//
//
// Part of libtorch-tidy. SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

#include "run/Progress.h"
#include "llvm/ADT/SmallString.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Format.h"
#include "llvm/Support/Path.h"

using namespace llvm;

namespace libtorch_tidy::run {
namespace {

/// \p Path relative to the working directory when it lies below it.
std::string displayName(StringRef Path) {
  SmallString<256> Cwd;
  if (sys::fs::current_path(Cwd))
    return Path.str();
  StringRef Relative = Path;
  if (Relative.consume_front(Cwd) && !Relative.empty() &&
      sys::path::is_separator(Relative.front()))
    return Relative.drop_front().str();
  return Path.str();
}

std::string countOrNone(size_t N, StringRef One, StringRef Many) {
  if (N == 0)
    return ("no " + Many).str();
  return std::to_string(N) + " " + (N == 1 ? One : Many).str();
}

} // namespace

ProgressStyle progressStyle(StringRef Option, bool Quiet,
                            bool StderrIsTerminal) {
  if (Option == "none")
    return ProgressStyle::None;
  if (Option == "bar")
    return ProgressStyle::Bar;
  if (Option == "plain")
    return ProgressStyle::Plain;
  // auto: --quiet asks for the findings only.
  if (Quiet)
    return ProgressStyle::None;
  return StderrIsTerminal ? ProgressStyle::Bar : ProgressStyle::Plain;
}

std::string progressLine(size_t Finished, size_t Total, StringRef File,
                         const model::TranslationUnitResult &Unit,
                         std::optional<double> Seconds) {
  std::string Line;
  raw_string_ostream OS(Line);
  OS << "[" << Finished << "/" << Total << "] " << displayName(File) << " ";
  if (Seconds)
    OS << format("%.1f", *Seconds) << " s";
  else
    OS << "cached";
  using Status = model::TranslationUnitResult::Status;
  if (Unit.State == Status::Failed) {
    OS << ", failed";
    return Line;
  }
  OS << ", " << countOrNone(Unit.Findings.size(), "finding", "findings");
  if (Unit.State == Status::CompileErrors)
    OS << ", "
       << countOrNone(Unit.CompilerErrors.size(), "compiler error",
                      "compiler errors");
  if (Seconds && !Unit.Preamble.empty())
    OS << ", preamble " << Unit.Preamble;
  // Otherwise a damaged cache would cost a rebuild without a word.
  if (Seconds && Unit.Preamble == "rebuilt")
    OS << " (the cached one was damaged and removed)";
  return Line;
}

ProgressReporter::ProgressReporter(raw_ostream &OS, ProgressStyle Style,
                                   size_t Total, unsigned Columns)
    : OS(OS), Style(Style), Total(Total), Columns(Columns) {
  if (Style == ProgressStyle::Bar && Total > 0) {
    Bar = "[0/" + std::to_string(Total) + "] analyzing";
    draw();
  }
}

void ProgressReporter::finished(StringRef File,
                                const model::TranslationUnitResult &Unit,
                                std::optional<double> Seconds) {
  ++Done;
  if (Ended || Style == ProgressStyle::None)
    return;
  std::string Line = progressLine(Done, Total, File, Unit, Seconds);
  if (Style == ProgressStyle::Plain) {
    OS << Line << "\n";
    OS.flush();
    return;
  }
  Bar = std::move(Line);
  draw();
}

void ProgressReporter::draw() {
  // A line longer than the terminal wraps, and `\r` would then redraw only
  // its last part.
  StringRef Text = Bar;
  if (Columns > 1)
    Text = Text.take_front(Columns - 1);
  OS << "\r\x1b[K" << Text;
  OS.flush();
  Shown = true;
}

void ProgressReporter::suspend() {
  if (!Shown)
    return;
  OS << "\r\x1b[K";
  OS.flush();
  Shown = false;
}

void ProgressReporter::resume() {
  if (!Ended && Style == ProgressStyle::Bar && !Bar.empty())
    draw();
}

void ProgressReporter::end() {
  suspend();
  Ended = true;
}

} // namespace libtorch_tidy::run
