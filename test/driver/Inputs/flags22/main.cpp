// Input of clang-tidy-22-flags.test: a finding in the main file and in two
// headers, and an argument that breaks the unit unless it is removed.
#include "kept.h"
#include "excluded.h"

#ifdef BREAK_THE_UNIT
#error the removed argument reached the compiler
#endif

int *inMain = 0;
