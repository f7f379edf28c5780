//===--- CudaCommands.cpp - nvcc entries of a compilation database --------===//
//
// Part of libtorch-tidy. SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

#include "units/CudaCommands.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/Support/Path.h"

using namespace llvm;

namespace libtorch_tidy {
namespace {

/// nvcc options that only concern device code or nvcc itself, with whether
/// they take a value (as the next argument or after '=').
struct NvccOption {
  StringRef Name;
  bool TakesValue;
};
const NvccOption DroppedOptions[] = {
    {"-gencode", true},
    {"--generate-code", true},
    {"-arch", true},
    {"--gpu-architecture", true},
    {"-code", true},
    {"--gpu-code", true},
    {"-Xptxas", true},
    {"--ptxas-options", true},
    {"-Xnvlink", true},
    {"--nvlink-options", true},
    {"-Xcudafe", true},
    {"-Xfatbin", true},
    {"--fatbin-options", true},
    {"-Xarchive", true},
    {"--archive-options", true},
    {"-Xlinker", true},
    {"--linker-options", true},
    {"-maxrregcount", true},
    {"--maxrregcount", true},
    {"-t", true},
    {"--threads", true},
    {"-default-stream", true},
    {"--default-stream", true},
    {"-cudart", true},
    {"--cudart", true},
    {"-cudadevrt", true},
    {"--cudadevrt", true},
    {"-rdc", true},
    {"--relocatable-device-code", true},
    {"-optf", true},
    {"--options-file", true},
    {"-diag-suppress", true},
    {"--diag-suppress", true},
    {"-diag-warn", true},
    {"--diag-warn", true},
    {"-diag-error", true},
    {"--diag-error", true},
    {"-Werror", true}, // nvcc's `-Werror all-warnings`; the host's is -Werror=
    {"-expt-relaxed-constexpr", false},
    {"--expt-relaxed-constexpr", false},
    {"-expt-extended-lambda", false},
    {"--expt-extended-lambda", false},
    {"-extended-lambda", false},
    {"--extended-lambda", false},
    {"-use_fast_math", false},
    {"--use_fast_math", false},
    {"-lineinfo", false},
    {"--generate-line-info", false},
    {"-G", false},
    {"--device-debug", false},
    {"-dc", false},
    {"--device-c", false},
    {"-dw", false},
    {"--device-w", false},
    {"-dlink", false},
    {"--device-link", false},
    {"-dlto", false},
    {"-keep", false},
    {"--keep", false},
    {"-res-usage", false},
    {"--resource-usage", false},
    {"-forward-unknown-to-host-compiler", false},
    {"--forward-unknown-to-host-compiler", false},
    {"-allow-unsupported-compiler", false},
    {"--allow-unsupported-compiler", false},
};

/// nvcc's long spellings of host compiler options.
const std::pair<StringRef, StringRef> RenamedOptions[] = {
    {"--include-path", "-I"},      {"--system-include", "-isystem"},
    {"--define-macro", "-D"},      {"--undefine-macro", "-U"},
    {"--pre-include", "-include"}, {"--output-file", "-o"},
    {"--optimize", "-O"},          {"--std", "-std="},
};

/// Splits `Name=Value` or `Name` (value in the next argument) for \p Name.
bool matchOption(ArrayRef<std::string> Args, size_t &I, StringRef Name,
                 bool TakesValue, std::string *Value) {
  StringRef Arg = Args[I];
  if (Arg == Name) {
    if (TakesValue && I + 1 < Args.size()) {
      ++I;
      if (Value)
        *Value = Args[I];
    }
    return true;
  }
  if (TakesValue && Arg.starts_with(Name) &&
      Arg.drop_front(Name.size()).starts_with("=")) {
    if (Value)
      *Value = Arg.drop_front(Name.size() + 1).str();
    return true;
  }
  return false;
}

} // namespace

bool isNvccCommand(ArrayRef<std::string> CommandLine) {
  if (CommandLine.empty())
    return false;
  StringRef Program = sys::path::filename(CommandLine.front());
  Program.consume_back(".exe");
  return Program == "nvcc";
}

bool isCudaSource(StringRef File, ArrayRef<std::string> CommandLine) {
  StringRef Extension = sys::path::extension(File);
  if (Extension.equals_insensitive(".cu") ||
      Extension.equals_insensitive(".cuh"))
    return true;
  for (size_t I = 0; I < CommandLine.size(); ++I) {
    StringRef Arg = CommandLine[I];
    StringRef Language;
    if ((Arg == "-x" || Arg == "--x") && I + 1 < CommandLine.size())
      Language = CommandLine[I + 1];
    else if (Arg.starts_with("-x") && Arg.size() > 2 && Arg != "-xc++")
      Language = Arg.drop_front(2);
    else if (Arg.starts_with("--x="))
      Language = Arg.drop_front(4);
    if (Language == "cu" || Language == "cuda" || Language == "cuda-cpp-output")
      return true;
  }
  return false;
}

std::vector<std::string> hostCommandFromNvcc(ArrayRef<std::string> Args) {
  std::vector<std::string> Host = {"c++"};
  for (size_t I = 1; I < Args.size(); ++I) {
    StringRef Arg = Args[I];
    std::string Value;
    if (matchOption(Args, I, "-Xcompiler", true, &Value) ||
        matchOption(Args, I, "--compiler-options", true, &Value)) {
      SmallVector<StringRef, 4> Parts;
      StringRef(Value).split(Parts, ',', -1, /*KeepEmpty=*/false);
      for (StringRef Part : Parts)
        Host.push_back(Part.trim().str());
      continue;
    }
    if (matchOption(Args, I, "-ccbin", true, &Value) ||
        matchOption(Args, I, "--compiler-bindir", true, &Value)) {
      // A directory, or a C compiler, says where nvcc finds the host
      // compiler rather than which C++ driver runs.
      if (sys::path::filename(Value).contains("++"))
        Host.front() = Value;
      continue;
    }
    if (llvm::any_of(DroppedOptions, [&](const NvccOption &Option) {
          return matchOption(Args, I, Option.Name, Option.TakesValue, nullptr);
        }))
      continue;
    // `-x cu` on a host file cannot happen (it would be a CUDA source);
    // nvcc's `-x c++` is the host's too.
    bool Renamed = false;
    for (const auto &[Long, Short] : RenamedOptions) {
      if (matchOption(Args, I, Long, true, &Value)) {
        if (Short.ends_with("=") || Short == "-O")
          Host.push_back(Short.str() + Value);
        else {
          Host.push_back(Short.str());
          Host.push_back(Value);
        }
        Renamed = true;
        break;
      }
    }
    if (Renamed)
      continue;
    if (Arg == "--compile") {
      Host.push_back("-c");
      continue;
    }
    // Any other long option is nvcc's (host compilers spell theirs with one
    // dash, and clang would reject an unknown one as an error).
    if (Arg.starts_with("--") && Arg != "--")
      continue;
    Host.push_back(Arg.str());
  }
  return Host;
}

} // namespace libtorch_tidy
