#include <torch/torch.h>

#include "helper.h"
