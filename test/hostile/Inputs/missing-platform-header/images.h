// A dataset of image files, listed with a platform's directory API: the
// header is not found on this one, and nothing here uses what it declares.
#pragma once
#include <io.h>

#include <torch/torch.h>

#include <cstddef>
#include <string>
#include <utility>
#include <vector>

struct Images : torch::data::datasets::Dataset<Images> {
  explicit Images(std::vector<std::string> files) : files(std::move(files)) {}
  torch::data::Example<> get(size_t index) override {
    return {torch::zeros({3, 8, 8}), torch::zeros({1})};
  }
  c10::optional<size_t> size() const override { return files.size(); }
  std::vector<std::string> files;
};
