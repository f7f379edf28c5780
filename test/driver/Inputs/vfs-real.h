// What the overlay of clang-tidy-flags.test maps overlaid.h to.
int *inHeader = 0;
