// Evaluation that takes its results to the host: predicted ids decoded into
// text, images written to files. The copy is what the loop is for; a copy
// reduced further on the host, or collected into a container, is not.
// The plugin on the real headers runs in libtorch-host-sync-in-loop.cpp; here three ways:
// RUN: %check_libtorch_tidy --variants plugin-mock,cli-mock,cli-real %s libtorch-host-sync-in-loop %t

#include <torch/torch.h>

#include <string>
#include <vector>

// The project's output code: it reads host tensors.
std::string decode(const torch::Tensor &ids);
void write_image(const torch::Tensor &image, const std::string &path);

void caption(torch::nn::Linear model, const std::vector<torch::Tensor> &batches,
             torch::Device device, std::vector<std::string> &captions) {
  torch::NoGradGuard no_grad;
  model->eval();
  for (const auto &batch : batches) {
    auto out = model(batch.to(device));
    // Negatives: the results go to the host to be decoded and written.
    auto ids = out.argmax(1).cpu();
    captions.push_back(decode(ids));
    write_image(out.to(torch::kCPU), "out.png");
    // Reduced on the host: that could have run on the device.
    auto host = out.cpu();
    // CHECK-MESSAGES: :[[@LINE-1]]:21: warning: 'cpu()' copies the tensor to the host and waits for the GPU on every evaluation batch [libtorch-host-sync-in-loop]
    captions.push_back(decode(host.argmax(1)));
  }
}

void collect(torch::nn::Linear model, const std::vector<torch::Tensor> &batches,
             torch::Device device, std::vector<torch::Tensor> &all) {
  torch::NoGradGuard no_grad;
  model->eval();
  for (const auto &batch : batches) {
    // Collected in a container: one copy after the loop would do.
    all.push_back(model(batch.to(device)).cpu());
    // CHECK-MESSAGES: :[[@LINE-1]]:43: warning: 'cpu()' copies the tensor to the host and waits for the GPU on every evaluation batch [libtorch-host-sync-in-loop]
  }
}

// In a training step, output on every step is still a wait per step.
void train(torch::nn::Linear model, torch::optim::SGD &optimizer,
           const std::vector<torch::Tensor> &batches, torch::Device device) {
  for (const auto &batch : batches) {
    auto out = model(batch.to(device));
    auto loss = out.sum();
    optimizer.zero_grad();
    loss.backward();
    optimizer.step();
    write_image(out.detach().cpu(), "step.png");
    // CHECK-MESSAGES: :[[@LINE-1]]:30: warning: 'cpu()' copies the tensor to the host and waits for the GPU on every training step [libtorch-host-sync-in-loop]
  }
}
