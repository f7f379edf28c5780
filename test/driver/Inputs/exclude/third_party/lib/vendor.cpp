#include "../include/helper.h"

void vendorLoop() {
  auto loader = torch::data::make_data_loader(Points(), 32);
}
