// RUN: %check_libtorch_tidy --variants plugin-mock,cli-mock,cli-real %s libtorch-eval-mode-not-restored %t

#include <torch/torch.h>

#include <cstddef>

struct NetImpl : torch::nn::Module {
  NetImpl()
      : fc(register_module("fc", torch::nn::Linear(4, 1))),
        drop(register_module("drop", torch::nn::Dropout(0.5))) {}
  torch::Tensor forward(torch::Tensor x) { return fc(drop(x)); }
  torch::nn::Linear fc;
  torch::nn::Dropout drop;
};
TORCH_MODULE(Net);

struct Points : torch::data::datasets::Dataset<Points> {
  torch::data::Example<> get(size_t index) override {
    return {torch::zeros({4}), torch::zeros({1})};
  }
  c10::optional<size_t> size() const override { return 64; }
};

using Loader = decltype(torch::data::make_data_loader(
    Points().map(torch::data::transforms::Stack<>()),
    torch::data::DataLoaderOptions().batch_size(8).workers(2)));

// The evaluation inline in the epoch loop, after the step loop.
void fit_inline(Net model, Loader &train_loader, Loader &test_loader,
                torch::Device device) {
  torch::optim::SGD optimizer(model->parameters(), 0.01);
  // CHECK-FIXES: {{^}}  for (int epoch = 0; epoch < 10; ++epoch) {{[{]}}{{$}}
  // CHECK-FIXES-NEXT: {{^}}    model->train();{{$}}
  for (int epoch = 0; epoch < 10; ++epoch) {
    for (auto &batch : *train_loader) {
      optimizer.zero_grad();
      auto out = model->forward(batch.data.to(device));
      // CHECK-MESSAGES: :[[@LINE-1]]:18: warning: 'model' is trained in eval mode after the first evaluation: the training loop switches it to eval() and never back to train() before this forward pass, so dropout stays off and batch norm normalizes with its running statistics for the rest of training [libtorch-eval-mode-not-restored]
      torch::mse_loss(out, batch.target.to(device)).backward();
      optimizer.step();
    }
    model->eval();
    // CHECK-MESSAGES: :[[@LINE-1]]:12: note: 'model' is switched to eval mode here, on every iteration of the training loop; call 'model->train()' at the top of the loop body or right after the evaluation
    torch::NoGradGuard no_grad;
    for (auto &batch : *test_loader)
      model->forward(batch.data.to(device));
  }
}

// The usual split: train_epoch() and test() called from the epoch loop of
// main(), the module passed by reference, eval() inside test().
void train_epoch(Net &net, Loader &loader, torch::optim::Optimizer &optimizer,
                 torch::Device device) {
  for (auto &batch : *loader) {
    optimizer.zero_grad();
    auto loss = torch::nll_loss(net(batch.data.to(device)),
                                // CHECK-MESSAGES: :[[@LINE-1]]:33: warning: 'net' is trained in eval mode after the first evaluation
                                batch.target.to(device));
    loss.backward();
    optimizer.step();
  }
}

double test(Net &net, Loader &loader, torch::Device device) {
  torch::NoGradGuard no_grad;
  net->eval();
  // CHECK-MESSAGES: :[[@LINE-1]]:8: note: 'net' is switched to eval mode here
  double correct = 0;
  for (auto &batch : *loader)
    correct += net->forward(batch.data.to(device)).sum().item<double>();
  return correct;
}

int main() {
  torch::Device device(torch::kCUDA);
  Net model;
  model->to(device);
  torch::optim::Adam optimizer(model->parameters());
  auto train_loader = torch::data::make_data_loader(
      Points().map(torch::data::transforms::Stack<>()),
      torch::data::DataLoaderOptions().batch_size(8).workers(2));
  auto test_loader = torch::data::make_data_loader(
      Points().map(torch::data::transforms::Stack<>()),
      torch::data::DataLoaderOptions().batch_size(8).workers(2));
  // CHECK-FIXES: {{^}}  for (int epoch = 1; epoch <= 5; ++epoch) {{[{]}}{{$}}
  // CHECK-FIXES-NEXT: {{^}}    model->train();{{$}}
  for (int epoch = 1; epoch <= 5; ++epoch) {
    train_epoch(model, train_loader, optimizer, device);
    test(model, test_loader, device);
  }
  fit_inline(model, train_loader, test_loader, device);
}

// A trainer class: the module is a member, the loop in one method, the
// evaluation in another; `train(false)` is eval() too.
class Trainer {
public:
  Trainer(Loader &train, Loader &valid)
      : optimizer_(model_->parameters(), 0.1), train_(train), valid_(valid) {}

  void fit(int epochs) {
    // CHECK-FIXES: {{^}}    for (int epoch = 0; epoch < epochs; ++epoch) {{[{]}}{{$}}
    // CHECK-FIXES-NEXT: {{^}}      model_->train();{{$}}
    for (int epoch = 0; epoch < epochs; ++epoch) {
      for (auto &batch : *train_) {
        optimizer_.zero_grad();
        torch::Tensor loss = torch::mse_loss(model_(batch.data), batch.target);
        // CHECK-MESSAGES: :[[@LINE-1]]:46: warning: 'model_' is trained in eval mode after the first evaluation
        loss.backward();
        optimizer_.step();
      }
      validate();
    }
  }

private:
  void validate() {
    model_->train(false);
    // CHECK-MESSAGES: :[[@LINE-1]]:13: note: 'model_' is switched to eval mode here
    torch::NoGradGuard no_grad;
    for (auto &batch : *valid_)
      model_(batch.data);
  }

  Net model_;
  torch::optim::SGD optimizer_;
  Loader &train_;
  Loader &valid_;
};

// Not flagged: train() at the top of each epoch.
void restored_at_top(Net model, Loader &train_loader, Loader &test_loader) {
  torch::optim::SGD optimizer(model->parameters(), 0.01);
  for (int epoch = 0; epoch < 10; ++epoch) {
    model->train();
    for (auto &batch : *train_loader) {
      optimizer.zero_grad();
      torch::mse_loss(model(batch.data), batch.target).backward();
      optimizer.step();
    }
    model->eval();
    torch::NoGradGuard no_grad;
    for (auto &batch : *test_loader)
      model(batch.data);
  }
}

// Not flagged: train() right after the evaluation, and train(true).
void restored_after(Net model, Loader &train_loader, Loader &test_loader) {
  torch::optim::SGD optimizer(model->parameters(), 0.01);
  for (int epoch = 0; epoch < 10; ++epoch) {
    for (auto &batch : *train_loader) {
      optimizer.zero_grad();
      torch::mse_loss(model(batch.data), batch.target).backward();
      optimizer.step();
    }
    model->eval();
    {
      torch::NoGradGuard no_grad;
      for (auto &batch : *test_loader)
        model(batch.data);
    }
    model->train(true);
  }
}

// Not flagged: the evaluation function restores train mode itself.
void evaluate_and_restore(Net &net, Loader &loader) {
  net->eval();
  {
    torch::NoGradGuard no_grad;
    for (auto &batch : *loader)
      net(batch.data);
  }
  net->train();
}

void restored_by_callee(Net model, Loader &train_loader, Loader &test_loader) {
  torch::optim::SGD optimizer(model->parameters(), 0.01);
  for (int epoch = 0; epoch < 10; ++epoch) {
    for (auto &batch : *train_loader) {
      optimizer.zero_grad();
      torch::mse_loss(model(batch.data), batch.target).backward();
      optimizer.step();
    }
    evaluate_and_restore(model, test_loader);
  }
}

// Not flagged: eval() only after the epoch loop.
void eval_after_training(Net model, Loader &train_loader, Loader &test_loader) {
  torch::optim::SGD optimizer(model->parameters(), 0.01);
  for (int epoch = 0; epoch < 10; ++epoch)
    for (auto &batch : *train_loader) {
      optimizer.zero_grad();
      torch::mse_loss(model(batch.data), batch.target).backward();
      optimizer.step();
    }
  model->eval();
  torch::NoGradGuard no_grad;
  for (auto &batch : *test_loader)
    model(batch.data);
}

// Not flagged: eval() on a teacher that no optimizer trains; the student
// is the module trained.
void distill(Net student, Net teacher, Loader &loader) {
  torch::optim::SGD optimizer(student->parameters(), 0.01);
  for (int epoch = 0; epoch < 10; ++epoch) {
    teacher->eval();
    for (auto &batch : *loader) {
      optimizer.zero_grad();
      torch::Tensor target = teacher(batch.data).detach();
      torch::mse_loss(student(batch.data), target).backward();
      optimizer.step();
    }
  }
}

// Not flagged: eval() in the last epoch only, or right before leaving the
// loop (early stopping).
void last_epoch(Net model, Loader &train_loader, int epochs) {
  torch::optim::SGD optimizer(model->parameters(), 0.01);
  for (int epoch = 0; epoch < epochs; ++epoch) {
    for (auto &batch : *train_loader) {
      optimizer.zero_grad();
      torch::mse_loss(model(batch.data), batch.target).backward();
      optimizer.step();
    }
    if (epoch + 1 == epochs)
      model->eval();
  }
}

void early_stop(Net model, Loader &train_loader, double limit) {
  torch::optim::SGD optimizer(model->parameters(), 0.01);
  for (int epoch = 0; epoch < 100; ++epoch) {
    double total = 0;
    for (auto &batch : *train_loader) {
      optimizer.zero_grad();
      auto loss = torch::mse_loss(model(batch.data), batch.target);
      loss.backward();
      optimizer.step();
      total += 1;
    }
    if (total < limit) {
      model->eval();
      break;
    }
  }
}

// Not flagged: a function this unit cannot see is given the module; it
// may switch it back (a helper defined in another file).
void set_training_mode(Net &net);

void unseen_restore(Net model, Loader &train_loader, Loader &test_loader) {
  torch::optim::SGD optimizer(model->parameters(), 0.01);
  for (int epoch = 0; epoch < 10; ++epoch) {
    set_training_mode(model);
    for (auto &batch : *train_loader) {
      optimizer.zero_grad();
      torch::mse_loss(model(batch.data), batch.target).backward();
      optimizer.step();
    }
    model->eval();
  }
}
