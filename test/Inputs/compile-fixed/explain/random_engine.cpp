#include <torch/torch.h>

// <random> is not among the headers that <torch/torch.h> includes: the
// files batched with this one must include it too, or the batch would give
// them a header they lack alone.
#include <iostream>
#include <random>

std::mt19937 engine(7);
