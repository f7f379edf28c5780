//===--- CheckOptionValues.cpp - CheckOptions of the wrong type -----------===//
//
// Part of libtorch-tidy. SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

#include "config/CheckOptionValues.h"
#include "clang-compat/ClangCompat.h"
#include "clang-compat/ClangCompat.h" // ClangTidyModuleRegistry
#include "clang-tidy/ClangTidyCheck.h"
#include "clang-tidy/ClangTidyDiagnosticConsumer.h"
#include "clang-tidy/ClangTidyModule.h"
#include "clang/Basic/Diagnostic.h"
#include "clang/Basic/DiagnosticOptions.h"

using namespace clang::tidy;
using namespace llvm;

namespace libtorch_tidy {
namespace {

/// The option a clang-tidy configuration diagnostic is about ("invalid
/// configuration value 'abc' for option 'check.Option'; expected ...").
StringRef optionNamed(StringRef Message) {
  StringRef Rest = Message.split("for option '").second;
  return Rest.split('\'').first;
}

/// Where \p Key was set last for \p File: a .clang-tidy path, or clang-tidy's
/// name for a command-line source ("command-line option '-config'").
std::string sourceOf(ClangTidyOptionsProvider &Provider, StringRef File,
                     StringRef Key) {
  std::string Source;
  for (const ClangTidyOptionsProvider::OptionsSource &S :
       Provider.getRawOptions(File))
    if (S.first.CheckOptions.count(Key))
      Source = S.second;
  return Source;
}

} // namespace

std::vector<std::string>
invalidCheckOptionValues(ClangTidyOptionsProvider &Provider, StringRef File) {
  ClangTidyOptions Options = Provider.getOptions(File);
  ClangTidyContext Context(std::make_unique<DefaultOptionsProvider>(
      ClangTidyGlobalOptions(), Options));
  ClangTidyDiagnosticConsumer Consumer(Context);
  const std::unique_ptr<clang::DiagnosticsEngine> Engine =
      clang::compat::attachDiagnosticsEngine(Context, Consumer);
  Context.setCurrentFile(File);

  // Creating the enabled checks reads their options (constructors call
  // Options.get), and a value that does not parse is reported then.
  ClangTidyCheckFactories Factories;
  for (const ClangTidyModuleRegistry::entry &Module :
       ClangTidyModuleRegistry::entries())
    Module.instantiate()->addCheckFactories(Factories);
  std::vector<std::unique_ptr<ClangTidyCheck>> Checks =
      Factories.createChecks(&Context);
  Engine->getClient()->finish();

  std::vector<std::string> Problems;
  for (const ClangTidyError &Error : Consumer.take()) {
    if (Error.DiagnosticName != "clang-tidy-config")
      continue;
    StringRef Message = Error.Message.Message;
    std::string Source = sourceOf(Provider, File, optionNamed(Message));
    Problems.push_back((Source.empty() ? "" : "'" + Source + "': ") +
                       Message.str() + "; correct the value in CheckOptions");
  }
  return Problems;
}

} // namespace libtorch_tidy
