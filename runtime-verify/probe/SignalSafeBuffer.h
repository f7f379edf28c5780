//===--- SignalSafeBuffer.h - JSON text without allocation ------*- C++ -*-===//
//
// Part of libtorch-tidy. SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//
//
// The probe writes its counts from a SIGTERM handler too: text into a
// static buffer, no allocation, no locale, no stdio.
//
//===----------------------------------------------------------------------===//

#ifndef LIBTORCH_TIDY_RUNTIME_VERIFY_PROBE_SIGNALSAFEBUFFER_H
#define LIBTORCH_TIDY_RUNTIME_VERIFY_PROBE_SIGNALSAFEBUFFER_H

#include <cstddef>
#include <cstdint>

namespace libtorch_tidy_probe {

struct Buffer {
  char *Data;
  size_t Size;
  size_t Cap;
  void put(const char *S) {
    while (*S && Size + 1 < Cap)
      Data[Size++] = *S++;
  }
  void num(uint64_t V) {
    char Tmp[24];
    int N = 0;
    do {
      Tmp[N++] = static_cast<char>('0' + V % 10);
      V /= 10;
    } while (V);
    while (N && Size + 1 < Cap)
      Data[Size++] = Tmp[--N];
  }
  void field(const char *Name, uint64_t V) {
    put("\"");
    put(Name);
    put("\":");
    num(V);
  }
};

} // namespace libtorch_tidy_probe

#endif
