// A class template's training member defined in a header
// (Inputs/template-trainer.h): what does not depend on the template's
// parameters is analyzed in the template itself, and each finding is
// reported once, whether the unit instantiates the template never, once or
// twice.
//
// RUN: %check_libtorch_tidy --variants plugin-mock,cli-mock %s libtorch-host-sync-in-loop,libtorch-loop-invariant-setup %t -- --header-filter=template-trainer -- -I%S/Inputs -DINSTANTIATIONS=0
// RUN: %check_libtorch_tidy --variants plugin-mock,cli-mock %s libtorch-host-sync-in-loop,libtorch-loop-invariant-setup %t -- --header-filter=template-trainer -- -I%S/Inputs -DINSTANTIATIONS=1
// RUN: %check_libtorch_tidy --variants plugin-mock,cli-mock %s libtorch-host-sync-in-loop,libtorch-loop-invariant-setup %t -- --header-filter=template-trainer -- -I%S/Inputs -DINSTANTIATIONS=2
//
// CHECK-MESSAGES: template-trainer.h:40:{{[0-9]+}}: warning: {{.*}} [libtorch-loop-invariant-setup]
// CHECK-MESSAGES: template-trainer.h:47:{{[0-9]+}}: warning: {{.*}} [libtorch-host-sync-in-loop]

#include "template-trainer.h"

#include <iostream>

struct PrintLogger {
  void scalar(const char *Name, float Value) {
    std::cout << Name << ' ' << Value << '\n';
  }
};

struct SilentLogger {
  void scalar(const char *, float) {}
};

#if INSTANTIATIONS >= 1
void train_printing(TemplateLoader &loader, torch::Device device) {
  PrintLogger log;
  Trainer<PrintLogger> trainer(loader, log, device);
  trainer.fit();
}
#endif

#if INSTANTIATIONS >= 2
void train_silent(TemplateLoader &loader, torch::Device device) {
  SilentLogger log;
  Trainer<SilentLogger> trainer(loader, log, device);
  trainer.fit();
}
#endif
