#include "project.h"

std::size_t twoBatches() { return 2 * batchSize(); }
