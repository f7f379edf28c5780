//===--- ProbeOutput.h - What the probe wrote -------------------*- C++ -*-===//
//
// Part of libtorch-tidy. SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

#ifndef LIBTORCH_TIDY_RUNTIME_VERIFY_HARNESS_PROBEOUTPUT_H
#define LIBTORCH_TIDY_RUNTIME_VERIFY_HARNESS_PROBEOUTPUT_H

#include "RunData.h"
#include <string>

namespace libtorch_tidy::verify {

/// Sums every probe-<pid>.json a run left in \p Dir (one per LibTorch
/// process of the run); unreadable files are skipped. The step start times
/// and the time outside LibTorch ops are those of the process that ran the
/// most steps.
ProbeCounts readProbe(const std::string &Dir);

} // namespace libtorch_tidy::verify

#endif // LIBTORCH_TIDY_RUNTIME_VERIFY_HARNESS_PROBEOUTPUT_H
