#pragma once
#include "points.h"

inline void helper() {
  auto helper_loader = torch::data::make_data_loader(Points(), 16);
}
