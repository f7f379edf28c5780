#include "helpers.h"

void use() { helper(); }
