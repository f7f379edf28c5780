#include <torch/torch.h>

#ifndef STEPS
#define STEPS 3
#endif
#if STEPS > 2
#define OWN 1
#undef OWN
#else
#error too few steps
#endif
