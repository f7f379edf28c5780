// Batched with missing_header.cpp, whose failing batch names only that
// file: this one is left to compile alone.
#include <torch/torch.h>

#include <libtorch_tidy_no_such_header.h>

int main() { return 0; }
