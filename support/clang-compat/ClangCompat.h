//===--- ClangCompat.h - One spelling for every supported LLVM major -----===//
//
// libtorch-tidy builds against several LLVM majors (CMakeLists.txt lists
// them). Where Clang's API differs between them, the difference lives here,
// as inline wrappers guarded by CLANG_VERSION_MAJOR; call sites stay
// unguarded. Each wrapper names the major that changed the API.
//
//===----------------------------------------------------------------------===//

#ifndef LIBTORCH_TIDY_SUPPORT_CLANG_COMPAT_CLANGCOMPAT_H
#define LIBTORCH_TIDY_SUPPORT_CLANG_COMPAT_CLANGCOMPAT_H

#include "clang-tidy/ClangTidy.h"
#include "clang-tidy/ClangTidyDiagnosticConsumer.h"
#include "clang/AST/ASTContext.h"
#include "clang/AST/DeclCXX.h"
#include "clang/AST/ExprCXX.h"
#include "clang/AST/TypeLoc.h"
#include "clang/Basic/Diagnostic.h"
#include "clang/Basic/DiagnosticOptions.h"
#include "clang/Basic/SourceManager.h"
#include "clang/Basic/Version.h"
#include "clang/Frontend/CompilerInstance.h"
#include "clang/Frontend/CompilerInvocation.h"
#include "clang/Frontend/TextDiagnosticPrinter.h"
#include "clang/Lex/PreprocessorOptions.h"
#include "clang/Serialization/ASTWriter.h"
#include "llvm/ADT/StringSet.h"
#include "llvm/Option/ArgList.h"
#include "llvm/Option/OptTable.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Path.h"
#if CLANG_VERSION_MAJOR >= 22
#include "clang/Options/Options.h"
#else
#include "clang/Driver/Options.h"
#endif
// ClangTidyModuleRegistry: LLVM 22 moved it into ClangTidyModule.h and
// deprecated the header of its own (#warning on every include).
#if CLANG_VERSION_MAJOR >= 22
#include "clang-tidy/ClangTidyModule.h"
#else
#include "clang-tidy/ClangTidyModuleRegistry.h"
#endif
#include <memory>
#include <string>
#include <vector>

namespace clang::compat {

/// The type a class declares, unqualified. LLVM 22 deleted
/// TagDecl::getTypeForDecl() and ASTContext::getRecordType().
inline QualType typeOfClass(const RecordDecl &Record) {
#if CLANG_VERSION_MAJOR >= 22
  return Record.getASTContext().getCanonicalTagType(&Record);
#else
  return Record.getASTContext().getRecordType(&Record);
#endif
}

/// Where a call begins, whatever kind of call it is: the callee object of
/// an overloaded `operator()` (`model(x)` begins at `model`), the first
/// operand of a binary operator. LLVM 21 made CallExpr::getBeginLoc() an
/// inline function that a call through a `CallExpr` (not the dynamic class)
/// binds to, and which gives the location of the operator itself for an
/// overloaded operator call; Stmt::getBeginLoc() dispatches on the class.
inline SourceLocation beginOf(const CallExpr &Call) {
  return static_cast<const Stmt &>(Call).getBeginLoc();
}

/// What the qualifier of a name names: `::` (Global), a namespace
/// (Namespace, an alias resolved to the namespace it names), or neither (no
/// qualifier, a class). LLVM 22 made NestedNameSpecifier a value and folded
/// namespaces and their aliases into one kind.
struct QualifierScope {
  bool Global = false;
  const NamespaceDecl *Namespace = nullptr;
};
inline QualifierScope qualifierScopeOf(const DeclRefExpr &Name) {
#if CLANG_VERSION_MAJOR >= 22
  const NestedNameSpecifier Qualifier = Name.getQualifier();
  if (Qualifier.getKind() == NestedNameSpecifier::Kind::Global)
    return {true, nullptr};
  if (Qualifier.getKind() == NestedNameSpecifier::Kind::Namespace)
    return {false,
            Qualifier.getAsNamespaceAndPrefix().Namespace->getNamespace()};
  return {};
#else
  const NestedNameSpecifier *Qualifier = Name.getQualifier();
  if (!Qualifier)
    return {};
  switch (Qualifier->getKind()) {
  case NestedNameSpecifier::Global:
    return {true, nullptr};
  case NestedNameSpecifier::Namespace:
    return {false, Qualifier->getAsNamespace()};
  case NestedNameSpecifier::NamespaceAlias:
    return {false, Qualifier->getAsNamespaceAlias()->getNamespace()};
  default:
    return {};
  }
#endif
}

/// Calls a RecursiveASTVisitor base's TraverseTypeLoc from a derived
/// visitor's override. LLVM 22 added the TraverseQualifier argument; an
/// override declares it (defaulted to true) on every major.
template <typename Base>
bool traverseTypeLocAs(Base &Visitor, TypeLoc Loc, bool TraverseQualifier) {
#if CLANG_VERSION_MAJOR >= 22
  return Visitor.Base::TraverseTypeLoc(Loc, TraverseQualifier);
#else
  (void)TraverseQualifier;
  return Visitor.Base::TraverseTypeLoc(Loc);
#endif
}

//===--- Files -----------------------------------------------------------===//

/// The real path of a file of SourceManager's file table (fileinfo_begin()),
/// or the name it was opened by.
inline StringRef fileTableName(FileEntryRef File) {
  StringRef Real = File.getFileEntry().tryGetRealPathName();
  return Real.empty() ? File.getName() : Real;
}

/// \p Path made absolute against \p Directory. LLVM 22 moved the function
/// from llvm::sys::fs to llvm::sys::path.
inline void makeAbsolute(const llvm::Twine &Directory,
                         llvm::SmallVectorImpl<char> &Path) {
#if CLANG_VERSION_MAJOR >= 22
  llvm::sys::path::make_absolute(Directory, Path);
#else
  llvm::sys::fs::make_absolute(Directory, Path);
#endif
}

//===--- Diagnostics -----------------------------------------------------===//

/// DiagnosticOptions as a DiagnosticsEngine is built on: reference-counted
/// up to LLVM 20, owned by whoever builds the engine since LLVM 21.
#if CLANG_VERSION_MAJOR >= 22
using DiagnosticOptionsPtr = std::unique_ptr<DiagnosticOptions>;
inline DiagnosticOptionsPtr newDiagnosticOptions() {
  return std::make_unique<DiagnosticOptions>();
}
inline IntrusiveRefCntPtr<DiagnosticIDs> newDiagnosticIDs() {
  return DiagnosticIDs::create();
}
inline DiagnosticOptions &engineOptions(DiagnosticOptionsPtr &Options) {
  return *Options;
}
#else
using DiagnosticOptionsPtr = IntrusiveRefCntPtr<DiagnosticOptions>;
inline DiagnosticOptionsPtr newDiagnosticOptions() {
  return DiagnosticOptionsPtr(new DiagnosticOptions());
}
inline IntrusiveRefCntPtr<DiagnosticIDs> newDiagnosticIDs() {
  return IntrusiveRefCntPtr<DiagnosticIDs>(new DiagnosticIDs());
}
inline DiagnosticOptionsPtr engineOptions(DiagnosticOptionsPtr &Options) {
  return Options;
}
#endif

/// A printer of diagnostics in clang's text format on \p Options, which must
/// outlive it.
inline std::unique_ptr<TextDiagnosticPrinter>
newTextDiagnosticPrinter(raw_ostream &OS, DiagnosticOptionsPtr &Options) {
#if CLANG_VERSION_MAJOR >= 22
  return std::make_unique<TextDiagnosticPrinter>(OS, *Options);
#else
  return std::make_unique<TextDiagnosticPrinter>(OS, Options.get());
#endif
}

/// The DiagnosticsEngine a ClangTidyContext reports through, delivering to
/// \p Client. Since LLVM 21 the context owns the engine's options: the
/// engine must not outlive the context.
inline std::unique_ptr<DiagnosticsEngine>
attachDiagnosticsEngine(tidy::ClangTidyContext &Context,
                        DiagnosticConsumer &Client) {
  DiagnosticOptionsPtr Options = newDiagnosticOptions();
  auto Engine = std::make_unique<DiagnosticsEngine>(
      newDiagnosticIDs(), engineOptions(Options), &Client,
      /*ShouldOwnClient=*/false);
#if CLANG_VERSION_MAJOR >= 22
  Context.setDiagnosticsEngine(std::move(Options), Engine.get());
#else
  Context.setDiagnosticsEngine(Engine.get());
#endif
  return Engine;
}

//===--- clang-tidy ------------------------------------------------------===//

/// The checks clang-tidy enables when nothing else names checks (its
/// ClangTidyMain.cpp): clang-tidy 19 enables the static analyzer's too,
/// clang-tidy 22 does not.
#if CLANG_VERSION_MAJOR >= 22
constexpr const char *DefaultChecks = "clang-diagnostic-*";
#else
constexpr const char *DefaultChecks = "clang-diagnostic-*,clang-analyzer-*";
#endif

/// The `HeaderFilterRegex` clang-tidy uses when neither `--header-filter`
/// nor a configuration file sets one (its ClangTidyOptions.cpp):
/// clang-tidy 22 shows the findings of every non-system header, clang-tidy
/// 19 those of the main file only.
#if CLANG_VERSION_MAJOR >= 22
constexpr const char *DefaultHeaderFilterRegex = ".*";
#else
constexpr const char *DefaultHeaderFilterRegex = "";
#endif

/// The checks \p Options enable, as clang-tidy resolves them: no alpha
/// analyzer checks, and the custom checks of LLVM 22's experimental
/// `CustomChecks` only when asked for (LLVM 19 has none).
inline std::vector<std::string>
enabledCheckNames(const tidy::ClangTidyOptions &Options,
                  bool ExperimentalCustomChecks = false) {
#if CLANG_VERSION_MAJOR >= 22
  return tidy::getCheckNames(Options,
                             /*AllowEnablingAnalyzerAlphaCheckers=*/false,
                             ExperimentalCustomChecks);
#else
  (void)ExperimentalCustomChecks;
  return tidy::getCheckNames(Options,
                             /*AllowEnablingAnalyzerAlphaCheckers=*/false);
#endif
}

/// clang-tidy's experimental switches a ClangTidyContext is built with.
struct TidyContextFlags {
  bool EnableModuleHeadersParsing = false;
  bool ExperimentalCustomChecks = false;
};

/// A ClangTidyContext with the alpha analyzer checks off, as clang-tidy's
/// default. LLVM 22 added the custom checks' switch.
inline std::unique_ptr<tidy::ClangTidyContext>
newTidyContext(std::unique_ptr<tidy::ClangTidyOptionsProvider> Provider,
               TidyContextFlags Flags) {
#if CLANG_VERSION_MAJOR >= 22
  return std::make_unique<tidy::ClangTidyContext>(
      std::move(Provider), /*AllowEnablingAnalyzerAlphaCheckers=*/false,
      Flags.EnableModuleHeadersParsing, Flags.ExperimentalCustomChecks);
#else
  return std::make_unique<tidy::ClangTidyContext>(
      std::move(Provider), /*AllowEnablingAnalyzerAlphaCheckers=*/false,
      Flags.EnableModuleHeadersParsing);
#endif
}

/// Whether clang-tidy has `RemovedArgs` (`--removed-arg`), new in LLVM 22.
constexpr bool HasRemovedArgs = CLANG_VERSION_MAJOR >= 22;

/// The arguments `RemovedArgs` (`--removed-arg`) takes out of a compile
/// command, null for none. LLVM 22 added the option; LLVM 19 has none.
inline const std::vector<std::string> *
removedArgsOf(const tidy::ClangTidyOptions &Options) {
#if CLANG_VERSION_MAJOR >= 22
  return Options.RemovedArgs ? &*Options.RemovedArgs : nullptr;
#else
  (void)Options;
  return nullptr;
#endif
}
inline void setRemovedArgs(tidy::ClangTidyOptions &Options,
                           std::vector<std::string> Args) {
#if CLANG_VERSION_MAJOR >= 22
  Options.RemovedArgs = std::move(Args);
#else
  (void)Options;
  (void)Args;
#endif
}

/// Every check name and every check option key the linked modules know.
/// LLVM 22 renamed NamesAndOptions (with Names) to ChecksAndOptions (with
/// Checks).
struct ChecksAndOptionKeys {
  llvm::StringSet<> Checks;
  llvm::StringSet<> Options;
};
inline ChecksAndOptionKeys allChecksAndOptionKeys() {
#if CLANG_VERSION_MAJOR >= 22
  tidy::ChecksAndOptions All = tidy::getAllChecksAndOptions(
      /*AllowEnablingAnalyzerAlphaCheckers=*/false,
      /*ExperimentalCustomChecks=*/false);
  return {std::move(All.Checks), std::move(All.Options)};
#else
  tidy::NamesAndOptions All = tidy::getAllChecksAndOptions(
      /*AllowEnablingAnalyzerAlphaCheckers=*/false);
  return {std::move(All.Names), std::move(All.Options)};
#endif
}

//===--- The compiler driver's command line ------------------------------===//

/// Parses a command line as the clang driver does (not clang-cl, DXC or
/// flang). LLVM 17 made those modes option visibilities rather than flags;
/// LLVM 22 moved the option table from clang::driver to clang.
inline llvm::opt::InputArgList
parseClangDriverArguments(ArrayRef<const char *> Args, unsigned &MissingIndex,
                          unsigned &MissingCount) {
#if CLANG_VERSION_MAJOR >= 22
  return getDriverOptTable().ParseArgs(
      Args, MissingIndex, MissingCount,
      llvm::opt::Visibility(options::ClangOption));
#else
  return driver::getDriverOptTable().ParseArgs(
      Args, MissingIndex, MissingCount,
      llvm::opt::Visibility(driver::options::ClangOption));
#endif
}

/// Whether the clang driver does not know an option or refuses it.
inline bool isUnknownOrUnsupportedOption(const llvm::opt::Option &Option) {
#if CLANG_VERSION_MAJOR >= 22
  namespace ids = options;
#else
  namespace ids = driver::options;
#endif
  return Option.getID() == ids::OPT_UNKNOWN || Option.hasFlag(ids::Unsupported);
}

//===--- Frontend --------------------------------------------------------===//

/// A compiler instance for \p Invocation. LLVM 22 takes the invocation in
/// the constructor and dropped setInvocation().
inline std::unique_ptr<CompilerInstance>
newCompilerInstance(std::shared_ptr<CompilerInvocation> Invocation,
                    std::shared_ptr<PCHContainerOperations> ContainerOps) {
#if CLANG_VERSION_MAJOR >= 22
  return std::make_unique<CompilerInstance>(std::move(Invocation),
                                            std::move(ContainerOps));
#else
  auto Clang = std::make_unique<CompilerInstance>(std::move(ContainerOps));
  Clang->setInvocation(std::move(Invocation));
  return Clang;
#endif
}

/// Diagnostics for \p Clang delivered to \p Client, which it owns, before
/// \p Files is given to it. LLVM 22 builds them on the instance's file
/// system, which must be set first: the one \p Files reads through.
inline void createDiagnostics(CompilerInstance &Clang, FileManager &Files,
                              DiagnosticConsumer *Client) {
#if CLANG_VERSION_MAJOR >= 22
  Clang.setVirtualFileSystem(Files.getVirtualFileSystemPtr());
#else
  (void)Files;
#endif
  Clang.createDiagnostics(Client, /*ShouldOwnClient=*/true);
}

/// The PCH writer GeneratePCHAction builds for \p CI, writing into
/// \p Buffer. The arguments are clang's own for each major: LLVM 17 put
/// BuildingImplicitModule before ShouldCacheASTInMemory (a positional
/// `bool` that would silently take the other's value), LLVM 22 added the
/// code generation options.
inline std::unique_ptr<PCHGenerator>
newPCHGenerator(CompilerInstance &CI, StringRef OutputFile, StringRef Sysroot,
                std::shared_ptr<PCHBuffer> Buffer) {
  const FrontendOptions &Frontend = CI.getFrontendOpts();
#if CLANG_VERSION_MAJOR >= 22
  return std::make_unique<PCHGenerator>(
      CI.getPreprocessor(), CI.getModuleCache(), OutputFile, Sysroot,
      std::move(Buffer), CI.getCodeGenOpts(), Frontend.ModuleFileExtensions,
      CI.getPreprocessorOpts().AllowPCHWithCompilerErrors,
      Frontend.IncludeTimestamps, Frontend.BuildingImplicitModule,
      +CI.getLangOpts().CacheGeneratedPCH);
#else
  return std::make_unique<PCHGenerator>(
      CI.getPreprocessor(), CI.getModuleCache(), OutputFile, Sysroot,
      std::move(Buffer), Frontend.ModuleFileExtensions,
      CI.getPreprocessorOpts().AllowPCHWithCompilerErrors,
      Frontend.IncludeTimestamps, Frontend.BuildingImplicitModule,
      +CI.getLangOpts().CacheGeneratedPCH);
#endif
}

} // namespace clang::compat

#endif // LIBTORCH_TIDY_SUPPORT_CLANG_COMPAT_CLANGCOMPAT_H
