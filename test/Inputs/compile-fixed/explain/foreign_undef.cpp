#include <torch/torch.h>

#undef TORCH_CHECK
