#include "../third_party/include/helper.h"

void train() {
  auto loader = torch::data::make_data_loader(Points(), 64);
}
