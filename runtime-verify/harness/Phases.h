//===--- Phases.h - verify's progress lines ---------------------*- C++ -*-===//
//
// Part of libtorch-tidy. SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

#ifndef LIBTORCH_TIDY_RUNTIME_VERIFY_HARNESS_PHASES_H
#define LIBTORCH_TIDY_RUNTIME_VERIFY_HARNESS_PHASES_H

#include <fmt/format.h>

#include <chrono>
#include <filesystem>
#include <iostream>
#include <string>

namespace libtorch_tidy::verify {

using Clock = std::chrono::steady_clock;

inline double secondsSince(Clock::time_point Start) {
  return std::chrono::duration<double>(Clock::now() - Start).count();
}

/// One line on stderr when a phase ends, so that a log shows where the time
/// goes while the run lasts: `libtorch-tidy verify: build fixed: 35.2 s`.
inline void phaseDone(const std::string &Phase, Clock::time_point Start,
                      const std::string &Detail = "") {
  std::cerr << fmt::format("libtorch-tidy verify: {}: {:.1f} s{}{}\n", Phase,
                           secondsSince(Start), Detail.empty() ? "" : ", ",
                           Detail);
}

inline std::string countOf(size_t N, const char *One, const char *Many) {
  return fmt::format("{} {}", N, N == 1 ? One : Many);
}

/// The directory of this executable, for its siblings.
inline std::string selfDir() {
  std::error_code EC;
  return std::filesystem::read_symlink("/proc/self/exe", EC)
      .parent_path()
      .string();
}

} // namespace libtorch_tidy::verify

#endif
