#include <torch/torch.h>

int before = 0;
#include <vector>
