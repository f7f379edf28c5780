#include "points.h"

void train() {
  // A finding that was there before the change.
  auto old_loader = torch::data::make_data_loader(Points(), 64);
}

void evaluate() {
  auto new_loader = torch::data::make_data_loader(Points(), 32);
}
