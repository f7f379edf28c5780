// Code that real LibTorch rejects, so the mock must reject it too.
// compare-qualified-names.sh compiles this file against both header sets and
// requires compile errors on exactly the lines marked "REJECTED" (and on no
// other line) in both. "REJECTED [1.13]" marks a line that only the listed
// LibTorch versions reject (the mock in the matching mode): the others must
// compile it.

#include <torch/torch.h>

#include <vector>

void optimizer_zero_grad_has_no_parameter(torch::optim::SGD &opt) {
  opt.zero_grad(true); // REJECTED [1.13]: 1.13 has `void zero_grad()`.
}

void cuda_and_cpu_take_no_arguments(torch::Tensor t) {
  (void)t.cuda(true); // REJECTED
  (void)t.cpu(true);  // REJECTED
}

void dataloader_options_have_no_pin_memory() {
  (void)torch::data::DataLoaderOptions(32).pin_memory(true); // REJECTED
}

void sequential_call_operator_returns_void(torch::nn::Sequential seq,
                                           torch::Tensor x) {
  torch::Tensor y = seq(x); // REJECTED: forward is a template.
  (void)y;
}

void ambiguous_sum_over_braced_dims(torch::Tensor t) {
  (void)t.sum({0, 1}, true); // REJECTED [1.13]: IntArrayRef vs DimnameList.
}

void not_reached_through_torch_h() {
  at::autocast::set_enabled(true);                  // REJECTED
  (void)torch::jit::load("model.pt");               // REJECTED
  torch::autograd::InferenceMode guard;             // REJECTED
  (void)torch::nn::parallel::data_parallel;         // REJECTED
}

void explicit_module_constructors(torch::nn::Module &m) {
  torch::nn::Linear l = torch::nn::LinearOptions(2, 3); // REJECTED: explicit
  (void)l;
}

void matmul_precision_takes_a_string_in_2_15(at::Context &ctx) {
  ctx.setFloat32MatmulPrecision(
      at::Float32MatmulPrecision::HIGH); // REJECTED [2.15]
}

void no_named_tensors_in_2_15(torch::Tensor t) {
  (void)t.size(at::Dimname::wildcard()); // REJECTED [2.15]
}

void torch_make_unique_is_gone_in_2_15() {
  (void)torch::make_unique<int>(1); // REJECTED [2.15]
}
