#include "shared.h"

void trainA() {
  auto loader = torch::data::make_data_loader(Points(), 32);
}
