// The training loop of a project whose dataset header includes a header of
// another platform: the loop names nothing the missing header declares, and
// its C string calls involve no LibTorch object, so its findings stay.
#include "images.h"

#include <cstdio>
#include <cstring>

static bool isImage(const char *name) { return strstr(name, ".jpg") != nullptr; }

void train(torch::nn::Linear model, torch::optim::SGD &optimizer,
           const std::vector<std::string> &names) {
  std::vector<std::string> files;
  for (const std::string &name : names)
    if (isImage(name.c_str()) || strstr(name.c_str(), ".png"))
      files.push_back(name);
  auto loader = torch::data::make_data_loader(
      Images(files).map(torch::data::transforms::Stack<>()), 16);
  model->to(torch::kCUDA);
  for (auto &batch : *loader) {
    optimizer.zero_grad();
    auto loss = torch::mse_loss(model(batch.data.to(torch::kCUDA)),
                                batch.target.to(torch::kCUDA));
    loss.backward();
    optimizer.step();
    std::printf("%f\n", loss.item<float>());
  }
}
