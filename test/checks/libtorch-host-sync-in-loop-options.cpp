// The plugin on the real headers runs in libtorch-host-sync-in-loop.cpp; here three ways:
// RUN: %check_libtorch_tidy --variants plugin-mock,cli-mock,cli-real %s libtorch-host-sync-in-loop %t -- \
// RUN:   '--config={CheckOptions: {libtorch-host-sync-in-loop.SyncFunctions: "myproj::wait_all;::myproj::Timer::stop", libtorch-host-sync-in-loop.PeriodicGuardMacros: "EVERY_N_STEPS"}}'

#include <torch/torch.h>

#include <iostream>

namespace myproj {
void wait_all();
struct Timer {
  static void stop();
};
bool should_log();
} // namespace myproj

// A guard whose condition we cannot read; the option names it.
#define EVERY_N_STEPS(body)                                                    \
  do {                                                                         \
    if (myproj::should_log()) {                                                \
      body;                                                                    \
    }                                                                          \
  } while (0)

void train(torch::nn::Linear model, torch::optim::SGD &optimizer,
           torch::Tensor x, torch::Device device) {
  for (int step = 0; step < 100; ++step) {
    auto loss = model(x.to(device)).sum();
    loss.backward();
    optimizer.step();
    myproj::wait_all();
    // CHECK-MESSAGES: :[[@LINE-1]]:5: warning: 'myproj::wait_all()' is listed in SyncFunctions: it waits for the GPU on every training step [libtorch-host-sync-in-loop]
    myproj::Timer::stop();
    // CHECK-MESSAGES: :[[@LINE-1]]:5: warning: 'myproj::Timer::stop()' is listed in SyncFunctions
    EVERY_N_STEPS(std::cout << loss.item<float>() << '\n');
  }
}
