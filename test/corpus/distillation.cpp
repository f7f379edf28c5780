// Knowledge distillation: a frozen teacher runs under NoGradGuard inside the
// student's training step.
#include <torch/torch.h>

#include <iostream>

struct MlpImpl : torch::nn::Module {
  MlpImpl(int64_t in, int64_t hidden, int64_t out)
      : body(register_module("body", torch::nn::Sequential(torch::nn::Linear(in, hidden), torch::nn::ReLU(),
                                                           torch::nn::Linear(hidden, out)))) {}
  torch::Tensor forward(torch::Tensor x) { return body->forward(x); }
  torch::nn::Sequential body;
};
TORCH_MODULE(Mlp);

int main() {
  const auto device = torch::cuda::is_available() ? torch::Device(torch::kCUDA, 0) : torch::Device(torch::kCPU);
  Mlp teacher(64, 512, 10), student(64, 32, 10);
  teacher->to(device);
  student->to(device);
  teacher->eval();
  torch::optim::Adam opt(student->parameters(), 1e-3);
  const double temperature = 4.0;
  auto pool = torch::randn({20000, 64}, device);
  for (int64_t step = 0; step < 5000; ++step) { // EXPECT: libtorch-missing-autocast, libtorch-tf32-disabled
    auto idx = torch::randint(pool.size(0), {128}, torch::TensorOptions().device(device).dtype(torch::kLong));
    auto x = pool.index_select(0, idx);
    torch::Tensor soft;
    {
      torch::NoGradGuard no_grad; // OK: the teacher needs no graph
      soft = torch::softmax(teacher->forward(x) / temperature, 1);
    }
    auto loss = torch::kl_div(torch::log_softmax(student->forward(x) / temperature, 1), soft,
                              at::Reduction::Mean) * (temperature * temperature);
    opt.zero_grad(); // EXPECT: libtorch-zero-grad-set-to-none
    loss.backward();
    opt.step();
  }
  std::cout << "distilled\n";
}
