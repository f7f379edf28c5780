#pragma once

#include <cstddef>

inline std::size_t batchSize() { return 64; }
