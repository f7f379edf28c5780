//===--- LibTorchTidyModule.cpp - The `libtorch` clang-tidy module --------===//
//
// Part of libtorch-tidy. SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

#include "clang-compat/ClangCompat.h" // ClangTidyModuleRegistry
#include "clang-tidy/ClangTidyModule.h"

#include "AnomalyDetectionEnabledCheck.h"
#include "BlockingHostToDeviceCopyCheck.h"
#include "ConstantFeaturesInLoopCheck.h"
#include "ConvBiasBeforeBatchnormCheck.h"
#include "CpuOnlyDeviceCheck.h"
#include "CudnnBenchmarkCheck.h"
#include "DataParallelCheck.h"
#include "DataloaderEnforceOrderingCheck.h"
#include "DataloaderNoWorkersCheck.h"
#include "EmptyCacheInLoopCheck.h"
#include "EvalModeNotRestoredCheck.h"
#include "EvalWithoutNoGradCheck.h"
#include "FrozenModuleRequiresGradCheck.h"
#include "HostSyncInLoopCheck.h"
#include "InputNotOnDeviceCheck.h"
#include "LoopInvariantSetupCheck.h"
#include "MissingAutocastCheck.h"
#include "ModuleNotOnDeviceCheck.h"
#include "PerElementDeviceWriteCheck.h"
#include "PinMemoryInLoopCheck.h"
#include "TensorCreatedOffDeviceCheck.h"
#include "Tf32DisabledCheck.h"
#include "ZeroGradAccumulationCheck.h"
#include "ZeroGradSetToNoneCheck.h"

namespace clang::tidy {
namespace libtorch {

class LibTorchTidyModule : public ClangTidyModule {
public:
  void addCheckFactories(ClangTidyCheckFactories &CheckFactories) override {
#define LIBTORCH_CHECK(Id, Class, Tier, HasFixIt, Evidence, Summary)           \
  CheckFactories.registerCheck<Class>(Id);
#include "Catalog.def"
  }
};

} // namespace libtorch

// Register the module with clang-tidy's registry: this is what `--load`
// and the statically linked CLI both see.
static ClangTidyModuleRegistry::Add<libtorch::LibTorchTidyModule>
    X("libtorch-module", "Adds LibTorch GPU-utilization checks.");

// This anchor is used to force the linker to link in the generated object
// file and thus register the LibTorchTidyModule.
// NOLINTNEXTLINE(misc-use-anonymous-namespace)
volatile int LibTorchTidyModuleAnchorSource = 0;

} // namespace clang::tidy
