#include "util.h"

double evaluate(torch::nn::Linear &model, torch::Tensor input) {
  int *unused = 0;
  (void)unused;
  return half(model->forward(input).size(0));
}
