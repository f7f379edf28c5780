// Running averages of the named losses, printed every epoch.
#pragma once

#include <torch/torch.h>

#include <map>
#include <string>

namespace det {

class MetricLogger {
public:
  // Adds this step's losses to the running sums.
  void update(const std::map<std::string, torch::Tensor> &losses);
  void print_and_reset(int64_t epoch);

private:
  std::map<std::string, double> sums_;
  int64_t count_ = 0;
};

} // namespace det
