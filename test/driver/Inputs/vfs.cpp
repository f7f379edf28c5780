// Input of clang-tidy-flags.test: the header exists only in the overlay.
#include "overlaid.h"

int *inMain = 0;
