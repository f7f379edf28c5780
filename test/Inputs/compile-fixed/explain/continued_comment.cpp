// A comment that a backslash continues hides the next line: \
#include <torch/torch.h>

int x;
