// Batched with missing_header_too.cpp, which includes the same header: it does
// not exist, and the hoisted #include names this file (#line), the first.
#include <torch/torch.h>

#include <libtorch_tidy_no_such_header.h>

int main() { return 0; }
