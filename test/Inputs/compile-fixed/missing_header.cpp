// Batched, and its header does not exist: the #include hoisted above the
// batch's namespaces still names this file (#line), so only it is blamed.
#include <torch/torch.h>

#include <libtorch_tidy_no_such_header.h>

int main() { return 0; }
