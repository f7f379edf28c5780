//===--- StandardModules.cpp - clang-tidy's own modules in the CLI --------===//
//
// Part of libtorch-tidy. SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//
//
// Every module of the major's clang-tidy is linked into the CLI from its static
// library (driver/CMakeLists.txt). A module registers itself from a static
// object that nothing references, so the linker would drop it: clang-tidy's
// own anchors (ClangTidyForceLinker.h, what clang-tidy's main includes) make
// each module's object file needed. The `libtorch` module has its anchor in
// Main.cpp.
//
//===----------------------------------------------------------------------===//

#include "clang-tidy/ClangTidyForceLinker.h"
