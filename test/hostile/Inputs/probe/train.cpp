#include <torch/torch.h>

#include <cstddef>

struct Points : torch::data::datasets::Dataset<Points> {
  torch::data::Example<> get(size_t index) override {
    return {torch::zeros({2}), torch::zeros({1})};
  }
  c10::optional<size_t> size() const override { return 64; }
};

// Project settings, when the build generated them.
#if __has_include("generated_settings.h")
#include "generated_settings.h"
#endif
// Site settings, from CPATH.
#include <site_settings.h>
