#include "metrics.h"

#include <iostream>

namespace det {

void MetricLogger::update(const std::map<std::string, torch::Tensor> &losses) {
  for (const auto &[name, value] : losses)
    sums_[name] += value.item<double>();
  ++count_;
}

void MetricLogger::print_and_reset(int64_t epoch) {
  std::cout << "epoch " << epoch;
  for (const auto &[name, sum] : sums_)
    std::cout << ' ' << name << '=' << sum / static_cast<double>(count_);
  std::cout << '\n';
  sums_.clear();
  count_ = 0;
}

} // namespace det
