#include <torch/torch.h>

// A macro over two lines; its second line starts with # (stringizing),
// which is not a directive.
#define NAME_OF(x) \
  #x

const char *name = NAME_OF(torch);
