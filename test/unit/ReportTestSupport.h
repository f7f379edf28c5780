//===--- ReportTestSupport.h - Sample runs for the report tests -*- C++ -*-===//
//
// Part of libtorch-tidy. SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

#ifndef LIBTORCH_TIDY_TEST_UNIT_REPORTTESTSUPPORT_H
#define LIBTORCH_TIDY_TEST_UNIT_REPORTTESTSUPPORT_H

#include "model/Findings.h"
#include "report/SourceText.h"

#include <map>
#include <string>

namespace libtorch_tidy::report::testing {

/// Source files that exist only in memory, under a project root that does not
/// exist on disk (so no symbolic link resolution interferes).
struct MemoryProject {
  std::string Root = "/nonexistent-project";
  std::map<std::string, std::string> Files;

  std::string path(const std::string &Relative) const {
    return Root + "/" + Relative;
  }
  void add(const std::string &Relative, std::string Content) {
    Files[path(Relative)] = std::move(Content);
  }
  SourceFiles sources() const {
    std::map<std::string, std::string> Copy = Files;
    return SourceFiles(
        [Copy](llvm::StringRef Path) -> std::optional<std::string> {
          auto It = Copy.find(Path.str());
          if (It == Copy.end())
            return std::nullopt;
          return It->second;
        });
  }

  /// A finding of \p Check at byte \p Offset of \p Relative, with the line
  /// and columns computed from the file's content, \p Length bytes long.
  model::Finding finding(const std::string &Check, const std::string &Relative,
                         unsigned Offset, unsigned Length,
                         const std::string &Message) const {
    SourceText Text(Files.at(path(Relative)));
    model::Finding F;
    F.CheckId = Check;
    F.Tier = llvm::StringRef(Check).starts_with("libtorch-") ? "default" : "";
    F.Message = Message;
    F.Where.File = Relative;
    F.Where.AbsoluteFile = path(Relative);
    F.Where.Offset = Offset;
    F.Where.Begin = Text.positionOf(Offset);
    F.Where.End = Text.positionOf(Offset + Length);
    return F;
  }

  /// Byte offset of the first occurrence of \p Needle in \p Relative.
  unsigned offsetOf(const std::string &Relative, const std::string &Needle,
                    unsigned Nth = 0) const {
    const std::string &Content = Files.at(path(Relative));
    size_t At = Content.find(Needle);
    while (Nth-- > 0)
      At = Content.find(Needle, At + 1);
    return static_cast<unsigned>(At);
  }
};

inline model::RunResult emptyRun() {
  model::RunResult Run;
  Run.ToolVersion = "0.1.0";
  Run.LibTorchVersion = "1.13.1";
  Run.EnabledChecks = {"libtorch-dataloader-no-workers",
                       "libtorch-host-sync-in-loop"};
  return Run;
}

} // namespace libtorch_tidy::report::testing

#endif // LIBTORCH_TIDY_TEST_UNIT_REPORTTESTSUPPORT_H
