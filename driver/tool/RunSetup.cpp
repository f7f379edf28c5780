//===--- RunSetup.cpp - What every process of a run sets up first ---------===//
//
// Part of libtorch-tidy. SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

#include "tool/RunSetup.h"
#include "config/CheckOptionValues.h"
#include "config/ConfigQueries.h"

using namespace llvm;

namespace libtorch_tidy::tool {

Expected<RunConfiguration> configureRun(const ToolOptions &Tool) {
  RunConfiguration Run;
  Run.Files =
      makeIntrusiveRefCnt<vfs::OverlayFileSystem>(vfs::getRealFileSystem());
  if (Error E = applyVfsOverlay(Tool, *Run.Files))
    return std::move(E);
  Expected<std::unique_ptr<clang::tidy::ClangTidyOptionsProvider>> Provider =
      createOptionsProvider(Tool, Run.Files);
  if (!Provider)
    return Provider.takeError();
  Run.Provider = std::move(*Provider);
  return std::move(Run);
}

Expected<CompilationSetup>
setUpUnits(const ToolOptions &Tool,
           std::unique_ptr<clang::tooling::CompilationDatabase> Fixed,
           const char *Argv0) {
  Expected<CompilationSetup> Setup =
      setUpCompilations(Tool, std::move(Fixed), Argv0);
  if (!Setup)
    return Setup.takeError();
  if (Error E = checkDiscoveredConfigs(Tool, Setup->Files))
    return std::move(E);
  return Setup;
}

bool reportInvalidCheckOptionValues(
    clang::tidy::ClangTidyOptionsProvider &Provider, StringRef File,
    raw_ostream &Errors) {
  std::vector<std::string> Invalid = invalidCheckOptionValues(Provider, File);
  for (const std::string &Problem : Invalid)
    Errors << "libtorch-tidy: error: " << Problem << "\n";
  return !Invalid.empty();
}

} // namespace libtorch_tidy::tool
