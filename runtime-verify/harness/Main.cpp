//===--- Main.cpp - libtorch-tidy verify ----------------------------------===//
//
// Part of libtorch-tidy. SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//
//
// `libtorch-tidy verify`: runs the analyzer on a target's sources, applies
// the fix-its to a scratch copy, builds both variants, runs each several
// times (alternating, same arguments and environment, each under a time
// limit, with the probe preloaded) and reports what each finding cost.
//
// Exit codes: 0 every build and run succeeded; 2 bad usage, or a build or a
// run failed (each failure is a report line).
//
//===----------------------------------------------------------------------===//

#include "Options.h"
#include "Verifier.h"
#include "Watchdog.h"

#include <cstdlib>
#include <cstring>

using namespace libtorch_tidy::verify;

int main(int Argc, char **Argv) {
  // The copy of the harness that cleans up after a killed one (Watchdog.h).
  if (Argc == 4 && std::strcmp(Argv[1], WatchdogArgument) == 0)
    return watchdogMain(std::atoi(Argv[2]), Argv[3]);
  Verifier V(parseOptions(Argc, Argv));
  return V.run();
}
