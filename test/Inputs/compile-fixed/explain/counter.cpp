#include <torch/torch.h>

#define OWN 1
#undef OWN

int unique_id = __COUNTER__;
