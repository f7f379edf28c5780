#include <stddef.h>
#include <torch/torch.h>

size_t batchSize() { return 64; }
