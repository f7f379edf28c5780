// A periodic guard whose condition the analysis cannot read, named by the
// PeriodicGuardMacros option in test/checks/*-guard-macros.cpp.
#pragma once

namespace myproj {
bool every_n_steps();
} // namespace myproj

#define EVERY_N_STEPS(body)                                                    \
  do {                                                                         \
    if (myproj::every_n_steps()) {                                             \
      body;                                                                    \
    }                                                                          \
  } while (0)
