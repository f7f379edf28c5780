// Input of clang-tidy-22-flags.test: left out by --exclude-header-filter.
int *inExcluded = 0;
