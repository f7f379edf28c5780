// Mock of torch/optim.h (torch::optim), for fast check tests.
//
// Mirrors (declarations and qualified names as in LibTorch 1.13):
//   torch/optim/optimizer.h   OptimizerOptions, OptimizerParamGroup,
//                             Optimizer (step(LossClosure = nullptr),
//                             zero_grad(), param_groups(), add_param_group)
//   torch/optim/{sgd,adam,adamw,rmsprop,adagrad}.h
//   torch/optim/schedulers/{lr_scheduler,step_lr}.h  (torch::optim::StepLR)
//
// LibTorch 1.13: `void Optimizer::zero_grad()` (no parameter; zeroes grads).
// LibTorch 2.x (-DLIBTORCH_MOCK_VERSION_MAJOR=2):
//   `void Optimizer::zero_grad(bool set_to_none = true)`.
#pragma once

#include <torch/nn.h>
#include <torch/types.h>

#include <tuple>

namespace ska {
// c10/util/flat_hash_map.h (declared only; the mock never stores state).
template <typename K, typename V, typename H = std::hash<K>,
          typename E = std::equal_to<K>,
          typename A = std::allocator<std::pair<K, V>>>
class flat_hash_map;
} // namespace ska

namespace at {
class Tensor;
} // namespace at
namespace torch {
using at::Tensor;
namespace serialize {
class OutputArchive;
class InputArchive;
} // namespace serialize
} // namespace torch

namespace torch {
namespace optim {

class TORCH_API OptimizerParamState {
public:
  virtual std::unique_ptr<OptimizerParamState> clone() const;
  virtual void serialize(torch::serialize::InputArchive &archive);
  virtual void serialize(torch::serialize::OutputArchive &archive) const;
  virtual ~OptimizerParamState() = default;
};

template <typename Derived>
class OptimizerCloneableParamState : public OptimizerParamState {
  std::unique_ptr<OptimizerParamState> clone() const override;
};

class TORCH_API OptimizerOptions {
public:
  virtual std::unique_ptr<OptimizerOptions> clone() const;
  virtual void serialize(torch::serialize::InputArchive &archive);
  virtual void serialize(torch::serialize::OutputArchive &archive) const;
  virtual ~OptimizerOptions() = default;
  virtual double get_lr() const;
  virtual void set_lr(const double lr);
};

template <typename Derived>
class OptimizerCloneableOptions : public OptimizerOptions {
private:
  std::unique_ptr<OptimizerOptions> clone() const override;
};

/// Stores parameters in the param_group and stores a pointer to the
/// OptimizerOptions
class TORCH_API OptimizerParamGroup {
public:
  OptimizerParamGroup(const OptimizerParamGroup &param_group);
  OptimizerParamGroup(std::vector<Tensor> params);
  OptimizerParamGroup(std::vector<Tensor> params,
                      std::unique_ptr<OptimizerOptions> options);

  bool has_options() const;
  OptimizerOptions &options();
  const OptimizerOptions &options() const;
  void set_options(std::unique_ptr<OptimizerOptions> options);
  std::vector<Tensor> &params();
  const std::vector<Tensor> &params() const;

protected:
  std::vector<Tensor> params_;
  std::unique_ptr<OptimizerOptions> options_;
};

class TORCH_API Optimizer {
public:
  Optimizer(const Optimizer &optimizer) = delete;
  Optimizer(Optimizer &&optimizer) = default;

#if LIBTORCH_MOCK_VERSION_MAJOR >= 2
  explicit Optimizer(const std::vector<OptimizerParamGroup> &param_groups,
                     std::unique_ptr<OptimizerOptions> defaults);
#else
  explicit Optimizer(std::vector<OptimizerParamGroup> param_groups,
                     std::unique_ptr<OptimizerOptions> defaults);
#endif

  /// Constructs the `Optimizer` from a vector of parameters.
  explicit Optimizer(std::vector<Tensor> parameters,
                     std::unique_ptr<OptimizerOptions> defaults);

  /// Adds the given param_group to the optimizer's param_group list.
  void add_param_group(const OptimizerParamGroup &param_group);

  virtual ~Optimizer() = default;

  using LossClosure = std::function<Tensor()>;
  /// A loss function closure, which is expected to return the loss value.
  virtual Tensor step(LossClosure closure = nullptr) = 0;

  /// Adds the given vector of parameters to the optimizer's parameter list.
  void add_parameters(const std::vector<Tensor> &parameters);

#if LIBTORCH_MOCK_VERSION_MAJOR >= 2
  /// Zeros out the gradients of all parameters.
  void zero_grad(bool set_to_none = true);
#else
  /// Zeros out the gradients of all parameters.
  void zero_grad();
#endif

  /// Provides a const reference to the parameters in the first param_group
  /// this optimizer holds.
  const std::vector<Tensor> &parameters() const noexcept;
  std::vector<Tensor> &parameters() noexcept;

  /// Returns the number of parameters referenced by the optimizer.
  size_t size() const noexcept;

  OptimizerOptions &defaults() noexcept;
  const OptimizerOptions &defaults() const noexcept;

  /// Provides a reference to the param_groups this optimizer holds.
  std::vector<OptimizerParamGroup> &param_groups() noexcept;
  const std::vector<OptimizerParamGroup> &param_groups() const noexcept;

  ska::flat_hash_map<std::string, std::unique_ptr<OptimizerParamState>> &
  state() noexcept;
  const ska::flat_hash_map<std::string, std::unique_ptr<OptimizerParamState>> &
  state() const noexcept;

  virtual void save(serialize::OutputArchive &archive) const;
  virtual void load(serialize::InputArchive &archive);

protected:
  std::vector<OptimizerParamGroup> param_groups_;
  std::unique_ptr<OptimizerOptions> defaults_;
};

/// Serializes an `Optimizer` into an `OutputArchive`.
TORCH_API serialize::OutputArchive &
operator<<(serialize::OutputArchive &archive, const Optimizer &optimizer);

/// Deserializes a `Tensor` from an `InputArchive`.
TORCH_API serialize::InputArchive &operator>>(serialize::InputArchive &archive,
                                              Optimizer &optimizer);

// ---------------------------------------------------------------------------
// torch/optim/sgd.h
// ---------------------------------------------------------------------------
struct TORCH_API SGDOptions : public OptimizerCloneableOptions<SGDOptions> {
  SGDOptions(double lr);
  TORCH_ARG(double, lr);
  TORCH_ARG(double, momentum) = 0;
  TORCH_ARG(double, dampening) = 0;
  TORCH_ARG(double, weight_decay) = 0;
  TORCH_ARG(bool, nesterov) = false;

public:
  void serialize(torch::serialize::InputArchive &archive) override;
  void serialize(torch::serialize::OutputArchive &archive) const override;
  TORCH_API friend bool operator==(const SGDOptions &lhs,
                                   const SGDOptions &rhs);
  ~SGDOptions() override = default;
  double get_lr() const override;
  void set_lr(const double lr) override;
};

struct TORCH_API SGDParamState
    : public OptimizerCloneableParamState<SGDParamState> {
  TORCH_ARG(torch::Tensor, momentum_buffer);

public:
  void serialize(torch::serialize::InputArchive &archive) override;
  void serialize(torch::serialize::OutputArchive &archive) const override;
  ~SGDParamState() override = default;
};

class TORCH_API SGD : public Optimizer {
public:
#if LIBTORCH_MOCK_VERSION_MAJOR >= 2
  explicit SGD(const std::vector<OptimizerParamGroup> &param_groups,
               SGDOptions defaults);
#else
  explicit SGD(std::vector<OptimizerParamGroup> param_groups,
               SGDOptions defaults);
#endif
  explicit SGD(std::vector<Tensor> params, SGDOptions defaults);

  torch::Tensor step(LossClosure closure = nullptr) override;

  void save(serialize::OutputArchive &archive) const override;
  void load(serialize::InputArchive &archive) override;
};

// ---------------------------------------------------------------------------
// torch/optim/adam.h
// ---------------------------------------------------------------------------
struct TORCH_API AdamOptions : public OptimizerCloneableOptions<AdamOptions> {
  AdamOptions(double lr = 1e-3);
  TORCH_ARG(double, lr) = 1e-3;
  typedef std::tuple<double, double> betas_t;
  TORCH_ARG(betas_t, betas) = std::make_tuple(0.9, 0.999);
  TORCH_ARG(double, eps) = 1e-8;
  TORCH_ARG(double, weight_decay) = 0;
  TORCH_ARG(bool, amsgrad) = false;

public:
  void serialize(torch::serialize::InputArchive &archive) override;
  void serialize(torch::serialize::OutputArchive &archive) const override;
  TORCH_API friend bool operator==(const AdamOptions &lhs,
                                   const AdamOptions &rhs);
  ~AdamOptions() override = default;
  double get_lr() const override;
  void set_lr(const double lr) override;
};

struct TORCH_API AdamParamState
    : public OptimizerCloneableParamState<AdamParamState> {
  TORCH_ARG(int64_t, step) = 0;
  TORCH_ARG(torch::Tensor, exp_avg);
  TORCH_ARG(torch::Tensor, exp_avg_sq);
  TORCH_ARG(torch::Tensor, max_exp_avg_sq) = {};

public:
  void serialize(torch::serialize::InputArchive &archive) override;
  void serialize(torch::serialize::OutputArchive &archive) const override;
  ~AdamParamState() override = default;
};

class TORCH_API Adam : public Optimizer {
public:
#if LIBTORCH_MOCK_VERSION_MAJOR >= 2
  explicit Adam(const std::vector<OptimizerParamGroup> &param_groups,
                AdamOptions defaults = {});
#else
  explicit Adam(std::vector<OptimizerParamGroup> param_groups,
                AdamOptions defaults = {});
#endif
  explicit Adam(std::vector<Tensor> params, AdamOptions defaults = {});

  torch::Tensor step(LossClosure closure = nullptr) override;
  void save(serialize::OutputArchive &archive) const override;
  void load(serialize::InputArchive &archive) override;
};

// ---------------------------------------------------------------------------
// torch/optim/adamw.h
// ---------------------------------------------------------------------------
struct TORCH_API AdamWOptions : public OptimizerCloneableOptions<AdamWOptions> {
  AdamWOptions(double lr = 1e-3);
  TORCH_ARG(double, lr) = 1e-3;
  typedef std::tuple<double, double> betas_t;
  TORCH_ARG(betas_t, betas) = std::make_tuple(0.9, 0.999);
  TORCH_ARG(double, eps) = 1e-8;
  TORCH_ARG(double, weight_decay) = 1e-2;
  TORCH_ARG(bool, amsgrad) = false;

public:
  void serialize(torch::serialize::InputArchive &archive) override;
  void serialize(torch::serialize::OutputArchive &archive) const override;
  TORCH_API friend bool operator==(const AdamWOptions &lhs,
                                   const AdamWOptions &rhs);
  ~AdamWOptions() override = default;
  double get_lr() const override;
  void set_lr(const double lr) override;
};

class TORCH_API AdamW : public Optimizer {
public:
#if LIBTORCH_MOCK_VERSION_MAJOR >= 2
  explicit AdamW(const std::vector<OptimizerParamGroup> &param_groups,
                 AdamWOptions defaults = {});
#else
  explicit AdamW(std::vector<OptimizerParamGroup> param_groups,
                 AdamWOptions defaults = {});
#endif
  explicit AdamW(std::vector<Tensor> params, AdamWOptions defaults = {});

  torch::Tensor step(LossClosure closure = nullptr) override;
  void save(serialize::OutputArchive &archive) const override;
  void load(serialize::InputArchive &archive) override;
};

// ---------------------------------------------------------------------------
// torch/optim/rmsprop.h
// ---------------------------------------------------------------------------
struct TORCH_API RMSpropOptions
    : public OptimizerCloneableOptions<RMSpropOptions> {
  RMSpropOptions(double lr = 1e-2);
  TORCH_ARG(double, lr) = 1e-2;
  TORCH_ARG(double, alpha) = 0.99;
  TORCH_ARG(double, eps) = 1e-8;
  TORCH_ARG(double, weight_decay) = 0;
  TORCH_ARG(double, momentum) = 0;
  TORCH_ARG(bool, centered) = false;

public:
  void serialize(torch::serialize::InputArchive &archive) override;
  void serialize(torch::serialize::OutputArchive &archive) const override;
  TORCH_API friend bool operator==(const RMSpropOptions &lhs,
                                   const RMSpropOptions &rhs);
  ~RMSpropOptions() override = default;
  double get_lr() const override;
  void set_lr(const double lr) override;
};

class TORCH_API RMSprop : public Optimizer {
public:
#if LIBTORCH_MOCK_VERSION_MAJOR >= 2
  explicit RMSprop(const std::vector<OptimizerParamGroup> &param_groups,
                   RMSpropOptions defaults = {});
#else
  explicit RMSprop(std::vector<OptimizerParamGroup> param_groups,
                   RMSpropOptions defaults = {});
#endif
  explicit RMSprop(std::vector<Tensor> params, RMSpropOptions defaults = {});

  torch::Tensor step(LossClosure closure = nullptr) override;
  void save(serialize::OutputArchive &archive) const override;
  void load(serialize::InputArchive &archive) override;
};

// ---------------------------------------------------------------------------
// torch/optim/adagrad.h
// ---------------------------------------------------------------------------
struct TORCH_API AdagradOptions
    : public OptimizerCloneableOptions<AdagradOptions> {
  AdagradOptions(double lr = 1e-2);
  TORCH_ARG(double, lr) = 1e-2;
  TORCH_ARG(double, lr_decay) = 0;
  TORCH_ARG(double, weight_decay) = 0;
  TORCH_ARG(double, initial_accumulator_value) = 0;
  TORCH_ARG(double, eps) = 1e-10;

public:
  void serialize(torch::serialize::InputArchive &archive) override;
  void serialize(torch::serialize::OutputArchive &archive) const override;
  ~AdagradOptions() override = default;
  double get_lr() const override;
  void set_lr(const double lr) override;
};

class TORCH_API Adagrad : public Optimizer {
public:
#if LIBTORCH_MOCK_VERSION_MAJOR >= 2
  explicit Adagrad(const std::vector<OptimizerParamGroup> &param_groups,
                   AdagradOptions defaults = {});
#else
  explicit Adagrad(std::vector<OptimizerParamGroup> param_groups,
                   AdagradOptions defaults = {});
#endif
  explicit Adagrad(std::vector<Tensor> params, AdagradOptions defaults = {});

  torch::Tensor step(LossClosure closure = nullptr) override;
  void save(serialize::OutputArchive &archive) const override;
  void load(serialize::InputArchive &archive) override;
};

// ---------------------------------------------------------------------------
// torch/optim/schedulers/lr_scheduler.h, step_lr.h
// ---------------------------------------------------------------------------
class TORCH_API LRScheduler {
public:
  // This class needs to take a reference of an optimizer from outside such
  // that it can modify its learning rates; due to this the lifetime of said
  // optimizer must be maintained
  LRScheduler(torch::optim::Optimizer &optimizer);

  virtual ~LRScheduler() = default;

  void step();

protected:
  virtual std::vector<double> get_lrs() = 0;
  std::vector<double> get_current_lrs() const;
  unsigned step_count_;

private:
  torch::optim::Optimizer &optimizer_;
};

class TORCH_API StepLR : public LRScheduler {
public:
  StepLR(torch::optim::Optimizer &optimizer, const unsigned step_size,
         const double gamma = 0.1);

private:
  std::vector<double> get_lrs() override;
  const unsigned step_size_;
  const double gamma_;
};

} // namespace optim
} // namespace torch
