#include <vector>
#include <torch/torch.h>
