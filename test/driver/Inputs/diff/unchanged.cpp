#include "points.h"

void other() {
  auto loader = torch::data::make_data_loader(Points(), 64);
}
