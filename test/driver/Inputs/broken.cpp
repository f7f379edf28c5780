#include <torch/torch.h>

void train() {
  auto loader = torch::data::make_data_loader(
}
