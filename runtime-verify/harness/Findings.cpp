//===--- Findings.cpp - What the analyzer reported ------------------------===//
//
// Part of libtorch-tidy. SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

#include "Findings.h"

#include <fstream>
#include <sstream>

namespace libtorch_tidy::verify {
namespace {

std::string trim(const std::string &S) {
  const size_t B = S.find_first_not_of(" \t");
  if (B == std::string::npos)
    return {};
  const size_t E = S.find_last_not_of(" \t\r");
  return S.substr(B, E - B + 1);
}

// A YAML scalar as clang's YAML writer emits it: plain, or single-quoted
// with '' for a quote. (Long messages are not folded by that writer.)
std::string scalar(const std::string &Raw) {
  std::string S = trim(Raw);
  if (S.size() >= 2 && S.front() == '\'' && S.back() == '\'') {
    std::string Out;
    for (size_t I = 1; I + 1 < S.size(); ++I) {
      Out += S[I];
      if (S[I] == '\'' && S[I + 1] == '\'')
        ++I;
    }
    return Out;
  }
  if (S.size() >= 2 && S.front() == '"' && S.back() == '"')
    return S.substr(1, S.size() - 2);
  return S;
}

size_t indentOf(const std::string &L) { return L.find_first_not_of(' '); }

unsigned lineOfOffset(const std::string &File, unsigned Offset) {
  std::ifstream In(File, std::ios::binary);
  if (!In)
    return 0;
  unsigned Line = 1;
  char C;
  for (unsigned I = 0; I < Offset && In.get(C); ++I)
    if (C == '\n')
      ++Line;
  return Line;
}

} // namespace

bool parseExportedFixes(const std::string &Yaml, std::vector<Finding> &Out,
                        std::string &Error) {
  std::istringstream In(Yaml);
  std::string L;
  bool SawDiagnostics = false;
  Finding *Cur = nullptr;
  // Indentation of the current diagnostic's DiagnosticMessage block; fields
  // deeper than it belong to it, Notes at the diagnostic's level end it.
  size_t MessageIndent = std::string::npos;
  bool InMessage = false;
  while (std::getline(In, L)) {
    const std::string T = trim(L);
    if (T == "Diagnostics:" || T == "Diagnostics:    []") {
      SawDiagnostics = true;
      continue;
    }
    if (T.rfind("- DiagnosticName:", 0) == 0) {
      Out.emplace_back();
      Cur = &Out.back();
      Cur->Check = scalar(T.substr(17));
      InMessage = false;
      continue;
    }
    if (Cur == nullptr)
      continue;
    const size_t Indent = indentOf(L);
    if (T == "DiagnosticMessage:") {
      InMessage = true;
      MessageIndent = Indent;
      continue;
    }
    if (InMessage && Indent <= MessageIndent)
      InMessage = false;
    if (!InMessage || Indent != MessageIndent + 2)
      continue;
    if (T.rfind("Message:", 0) == 0)
      Cur->Message = scalar(T.substr(8));
    else if (T.rfind("FilePath:", 0) == 0)
      Cur->File = scalar(T.substr(9));
    else if (T.rfind("FileOffset:", 0) == 0)
      Cur->Offset = static_cast<unsigned>(std::stoul(trim(T.substr(11))));
    else if (T.rfind("Replacements:", 0) == 0)
      Cur->HasFix = trim(T.substr(13)) != "[]";
  }
  if (!SawDiagnostics && Yaml.find("MainSourceFile") == std::string::npos) {
    Error = "not an export-fixes document";
    return false;
  }
  for (Finding &F : Out)
    F.Line = lineOfOffset(F.File, F.Offset);
  return true;
}

Metric metricOf(const std::string &Check) {
  if (Check == "libtorch-anomaly-detection-enabled")
    return Metric::LocalScalarDensePerStep;
  if (Check == "libtorch-host-sync-in-loop")
    return Metric::HostSyncsPerStep;
  if (Check == "libtorch-blocking-host-to-device-copy")
    return Metric::BlockingH2DPerStep;
  if (Check == "libtorch-tensor-created-off-device")
    return Metric::H2DPerStep;
  return Metric::StepsPerSecond;
}

} // namespace libtorch_tidy::verify
