// Input of clang-tidy-22-flags.test: shown with --header-filter.
int *inKept = 0;
