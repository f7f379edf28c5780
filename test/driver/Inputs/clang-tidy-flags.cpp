// Input of clang-tidy-flags.test: one modernize-use-nullptr finding a line.
int *first = 0;
int *second = 0;
int *third = 0;
