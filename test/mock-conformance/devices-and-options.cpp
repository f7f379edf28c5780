// RUN: %clangxx_syntax_mock %s && %clangxx_syntax_real_pch %s
// CONFORMANCE: 1.13 2.15
//
// Conformance program for the mock LibTorch headers: c10::Device,
// DeviceType, ScalarType, TensorOptions, factories, the at::Tensor API and
// free functions, host-syncing calls, printing and TORCH_CHECK.

#include <torch/torch.h>

#include <cstdint>
#include <iostream>
#include <sstream>
#include <string>
#include <tuple>
#include <vector>

int main() {
  // Devices.
  torch::Device cpu(torch::kCPU);
  torch::Device cuda0(torch::kCUDA, 0);
  torch::Device parsed("cuda:1");
  c10::Device dev = torch::cuda::is_available() ? torch::kCUDA : torch::kCPU;
  at::Device dev2 = c10::DeviceType::CUDA;
  torch::DeviceType t = dev.type();
  c10::DeviceIndex index = cuda0.index();
  bool on_gpu = dev.is_cuda() || parsed.is_cpu() || t == at::kCUDA;
  (void)index;
  (void)on_gpu;
  (void)dev2;
  size_t ngpu = torch::cuda::device_count();
  bool cudnn = torch::cuda::cudnn_is_available();
  (void)ngpu;
  (void)cudnn;

  // Dtypes and options.
  torch::Dtype dt = torch::kFloat32;
  at::ScalarType st = at::kDouble;
  c10::ScalarType half = torch::kHalf;
  auto mask_t = torch::ones({3}, torch::kBool);
  auto bytes_t = torch::zeros({3}, torch::dtype(torch::kByte));
  (void)mask_t;
  (void)bytes_t;
  (void)dt;
  (void)st;
  (void)half;
  auto opts = torch::TensorOptions()
                  .dtype(torch::kFloat)
                  .device(dev)
                  .requires_grad(true)
                  .pinned_memory(false)
                  .layout(torch::kStrided)
                  .memory_format(torch::MemoryFormat::Contiguous);
  auto opts2 = torch::dtype(torch::kBFloat16).device(torch::kCUDA, 0);
  auto opts3 = at::TensorOptions(torch::kCUDA);
  c10::TensorOptions opts4 = torch::device(dev).dtype(torch::kInt);
  (void)opts2;
  (void)opts3;
  (void)opts4;
  std::cout << opts.device() << opts.dtype() << opts.requires_grad()
            << opts.pinned_memory() << std::endl;

  // Factories.
  auto a = torch::randn({32, 10}, dev);
  auto b = torch::zeros({2}, torch::TensorOptions().dtype(torch::kFloat).device(dev));
  auto c = torch::ones({4, 4}, torch::kFloat);
  auto d = torch::empty({3}, opts);
  auto e = torch::full({2, 2}, 1.5);
  auto f = torch::rand({5});
  auto g = torch::randint(10, {3, 3});
  auto h = torch::arange(0, 10, 2, torch::kLong);
  auto i = torch::eye(3, dev);
  auto j = torch::linspace(0, 1, 50);
  auto k = torch::zeros_like(a);
  auto l = torch::ones_like(a, torch::kHalf);
  auto m = torch::empty_like(a);
  auto n = torch::randn_like(a);
  auto o = torch::rand_like(a);
  auto p = torch::full_like(a, 7);
  auto q = torch::tensor({1.0, 2.0, 3.0});
  auto r = torch::tensor({1, 2, 3}, torch::kLong);
  auto s = torch::tensor(3.5);
  std::vector<float> host_data(16, 1.0f);
  auto blob = torch::from_blob(host_data.data(), {4, 4});
  auto blob2 = torch::from_blob(host_data.data(), {4, 4}, torch::kFloat);
  auto at_zeros = at::zeros({2, 2}, at::kFloat);
  auto at_randn = at::randn({2, 2});
  std::vector<int64_t> shape{2, 8};
  auto from_vec = torch::zeros(shape);
  torch::IntArrayRef sizes = a.sizes();
  at::IntArrayRef braced{3, 4};
  (void)braced;

  // Moves and host syncs.
  auto x = a.to(dev);
  x = a.to(dev, /*non_blocking=*/true);
  x = a.to(torch::kCUDA);
  x = a.to(torch::kCPU);
  x = a.to(torch::kFloat);
  x = a.toType(torch::kByte);
  x = a.to(torch::kHalf, /*non_blocking=*/false, /*copy=*/true);
  x = a.to(dev, torch::kHalf);
  x = a.to(dev, torch::kHalf, true);
  x = a.to(b);
  x = a.to(torch::TensorOptions().device(dev).dtype(torch::kFloat), true);
  x = a.cuda();
  x = a.cpu();
  x = a.pin_memory();
  bool pinned = a.is_pinned();
  at::Scalar sc = a.sum().item();
  float fv = a.sum().item<float>();
  double dv = sc.toDouble() + sc.to<double>() + sc.toFloat();
  int64_t iv = a.sum().item<int64_t>();
  float *ptr = a.data_ptr<float>();
  void *vptr = a.data_ptr();
  auto acc = a.accessor<float, 2>();
  float first = acc[0][0];
  auto nz = a.nonzero();
  auto ms = a.masked_select(a > 0);
  bool nonzero = a.sum().is_nonzero();
  bool same = a.equal(b);
  bool close = a.allclose(b);
  auto uniq = torch::unique_consecutive(g);
  auto uniq2 = at::_unique2(g);
  auto uniq3 = at::unique_dim(g, 0);
  auto uniq4 = torch::_unique(g);
  (void)std::get<0>(uniq);
  (void)std::get<1>(uniq2);
  (void)std::get<2>(uniq3);
  (void)std::get<0>(uniq4);
  (void)pinned;
  (void)fv;
  (void)dv;
  (void)iv;
  (void)ptr;
  (void)vptr;
  (void)first;
  (void)nz;
  (void)ms;
  (void)nonzero;
  (void)same;
  (void)close;

  // Shape, dtype, device queries.
  int64_t rows = a.size(0);
  int64_t numel = a.numel();
  int64_t dims = a.dim();
  caffe2::TypeMeta meta = a.dtype();
  at::ScalarType sct = a.scalar_type();
  torch::Device where = a.device();
  bool def = a.defined() && a.is_cuda() && meta == torch::kFloat;
  (void)rows;
  (void)numel;
  (void)dims;
  (void)sct;
  (void)where;
  (void)def;
  (void)sizes;

  // Views and math.
  auto y = a.view({-1}).reshape({4, 80}).flatten().unsqueeze(0).squeeze();
  y = a.contiguous().contiguous(torch::MemoryFormat::ChannelsLast);
  y = a.clone();
  y = a.mean();
  y = a.sum(1);
  y = a.sum(torch::IntArrayRef{0, 1}, /*keepdim=*/true);
  y = a.max();
  auto mx = a.max(/*dim=*/1);
  (void)std::get<1>(mx);
  y = a.argmax(1);
  y = a.argmax();
  y = a.eq(b);
  y = a.index_select(0, h);
  using torch::indexing::Slice;
  y = a.index({Slice(), 0});
  y = a.index({a > 0});
  y = a.index({"...", Slice(0, 2)});
  a.index_put_({0}, 1.0);
  y = torch::where(a > 0, a, b);
  y = torch::where(a > 0, a, 0.0);
  std::vector<torch::Tensor> where_nz = torch::where(a > 0);
  y = a.repeat_interleave(2);
  y = torch::repeat_interleave(h);
  y = a.repeat_interleave(h, 0, 8);
  y = h.bincount();
  y = torch::bincount(h, {}, 10);
  y = a.histc(10, 0, 1);
  y = torch::histc(a);
  (void)where_nz;
  y = a[0];
  y = a[0][1];
  y = a + b;
  y = a - 1;
  y = 2 * a;
  y = a / b;
  y = a * b;
  y = a == b;
  y = a != 1;
  y = a < b;
  y = a >= 0.5;
  a += b;
  a -= 1;
  a *= b;
  a /= 2.0;
  y = torch::relu(a) + torch::sigmoid(a) + torch::tanh(a);
  y = torch::softmax(a, 1);
  y = torch::log_softmax(a, 1);
  y = torch::cat({a, b}, 0);
  y = torch::cat(std::vector<torch::Tensor>{a, b});
  y = torch::stack({a, b});
  y = torch::mse_loss(a, b);
  y = torch::binary_cross_entropy(torch::sigmoid(a), b);
  y = torch::cross_entropy_loss(a, g);
  y = torch::sin(a) + torch::cos(a) + torch::exp(a) + torch::log(a) +
      torch::sqrt(a) + torch::abs(a) + torch::square(a);
  y = torch::matmul(a, b.t()) + torch::mm(a, b.t());
  y = torch::pow(a, 2) + torch::clamp(a, 0.0, 1.0) + torch::clamp(a, 0.0);
  y = torch::sum(a, {1}) + torch::mean(a, {1}, /*keepdim=*/true);
  y = torch::logsumexp(a, {1}) + torch::transpose(a, 0, 1).sum();
  y = a.sin().cos() + a.pow(2) + a.clamp(0.0, 1.0) + a.matmul(b.t());
  y = torch::nll_loss(a, g);
  y.copy_(a, /*non_blocking=*/true);
  y.zero_();
  y.detach_();
  y = y.detach();
  y.requires_grad_();
  y.requires_grad_(false);
  bool rg = y.requires_grad();
  (void)rg;

  // Printing and checks.
  std::cout << a << std::endl;
  std::ostringstream os;
  os << a.sizes() << a.device() << a.dtype();
  torch::print(a);
  torch::print(a, 120);
  at::print(std::cout, a, 80);
  TORCH_CHECK(a.dim() == 2, "expected 2-d input, got ", a.dim());
  TORCH_CHECK(a.defined());

  c10::optional<int64_t> maybe = c10::nullopt;
  torch::optional<torch::Tensor> maybe_t = a;
  at::optional<double> maybe_d;
  (void)maybe;
  (void)maybe_t;
  (void)maybe_d;
  (void)c;
  (void)d;
  (void)e;
  (void)f;
  (void)i;
  (void)j;
  (void)k;
  (void)l;
  (void)m;
  (void)n;
  (void)o;
  (void)p;
  (void)q;
  (void)r;
  (void)s;
  (void)blob;
  (void)blob2;
  (void)at_zeros;
  (void)at_randn;
  (void)from_vec;
  return 0;
}
