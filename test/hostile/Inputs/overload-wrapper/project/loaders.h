// The project's own data loader, which missing-header-overload.cpp calls:
// LibTorch's, with worker threads. Its `int` batch size is an exact match,
// so it wins over LibTorch's make_data_loader (whose options are converted
// from the integer) wherever both are visible.
#pragma once
#include <torch/torch.h>

#include <utility>

template <typename Dataset>
auto make_data_loader(Dataset dataset, int batch_size) {
  return torch::data::make_data_loader(
      std::move(dataset),
      torch::data::DataLoaderOptions().batch_size(batch_size).workers(4));
}
