// Mock of torch/data.h (torch::data), for fast check tests.
//
// Mirrors (declarations and qualified names as in LibTorch 1.13):
//   torch/data/example.h            Example<Data = Tensor, Target = Tensor>,
//                                   TensorExample
//   torch/data/datasets/base.h      BatchDataset, Dataset<Self, SingleExample>
//                                   (CRTP; virtual get/size; map())
//   torch/data/datasets/stateful.h  StatefulDataset
//   torch/data/datasets/map.h       MapDataset, datasets::map
//   torch/data/datasets/mnist.h     MNIST
//   torch/data/datasets/tensor.h    TensorDataset
//   torch/data/transforms/*.h       BatchTransform, Transform, Stack<>,
//                                   Lambda, BatchLambda, Normalize<>, ...
//   torch/data/samplers/*.h         Sampler<>, RandomSampler,
//                                   SequentialSampler, DistributedRandomSampler
//   torch/data/dataloader_options.h DataLoaderOptions (TORCH_ARG setters:
//                                   batch_size, workers, max_jobs, timeout,
//                                   enforce_ordering, drop_last; implicit
//                                   DataLoaderOptions(size_t batch_size))
//   torch/data/iterator.h           Iterator<Batch>
//   torch/data/dataloader/*.h       DataLoaderBase, StatelessDataLoader,
//                                   StatefulDataLoader
//   torch/data/dataloader.h         make_data_loader (all three overloads)
// The loaders have the real interface but no worker threads.
#pragma once

#include <torch/types.h>

#include <chrono>

// ---------------------------------------------------------------------------
// torch/data/example.h
// ---------------------------------------------------------------------------
namespace torch {
namespace data {

/// An `Example` from a dataset.
template <typename Data = Tensor, typename Target = Tensor> struct Example {
  using DataType = Data;
  using TargetType = Target;

  Example() = default;
  Example(Data data, Target target)
      : data(std::move(data)), target(std::move(target)) {}

  Data data;
  Target target;
};

namespace example {
using NoTarget = void;
} //  namespace example

/// A specialization for `Example` that does not have a target.
template <typename Data> struct Example<Data, example::NoTarget> {
  using DataType = Data;
  using TargetType = example::NoTarget;

  Example() = default;
  /* implicit */ Example(Data data) : data(std::move(data)) {}

  // When a DataLoader returns an Example like this, that example should be
  // implicitly convertible to the underlying data type.

  operator Data &() { return data; }
  operator const Data &() const { return data; }

  Data data;
};

using TensorExample = Example<Tensor, example::NoTarget>;

} // namespace data
} // namespace torch

// ---------------------------------------------------------------------------
// torch/data/datasets/base.h
// ---------------------------------------------------------------------------
namespace torch {
namespace data {
namespace datasets {
template <typename S, typename T> class MapDataset;
template <typename D, typename T> MapDataset<D, T> map(D, T); // NOLINT
} // namespace datasets
} // namespace data
} // namespace torch

namespace torch {
namespace data {
namespace datasets {
namespace detail {
template <typename T> struct is_optional : std::false_type {};
template <typename T> struct is_optional<optional<T>> : std::true_type {};
} // namespace detail

/// A dataset that can yield data only in batches.
template <typename Self, typename Batch = std::vector<Example<>>,
          typename BatchRequest = ArrayRef<size_t>>
class BatchDataset {
public:
  using SelfType = Self;
  using BatchType = Batch;
  using BatchRequestType = BatchRequest;
  constexpr static bool is_stateful = detail::is_optional<BatchType>::value;

  virtual ~BatchDataset() = default;

  /// Returns a batch of data given an index.
  virtual Batch get_batch(BatchRequest request) = 0;

  /// Returns the size of the dataset, or an empty optional if it is unsized.
  virtual optional<size_t> size() const = 0;

  /// Creates a `MapDataset` that applies the given `transform` to this dataset.
  template <typename TransformType>
  MapDataset<Self, TransformType> map(TransformType transform) & {
    return datasets::map(static_cast<Self &>(*this), std::move(transform));
  }

  /// Creates a `MapDataset` that applies the given `transform` to this dataset.
  template <typename TransformType>
  MapDataset<Self, TransformType> map(TransformType transform) && {
    return datasets::map(std::move(static_cast<Self &>(*this)),
                         std::move(transform));
  }
};

/// A dataset that can yield data in batches, or as individual examples.
template <typename Self, typename SingleExample = Example<>>
class Dataset : public BatchDataset<Self, std::vector<SingleExample>> {
public:
  using ExampleType = SingleExample;

  /// Returns the example at the given index.
  virtual ExampleType get(size_t index) = 0;

  /// Returns a batch of data (calls `get()` for each index).
  std::vector<ExampleType> get_batch(ArrayRef<size_t> indices) override;
};

/// A `StreamDataset` represents a dataset that is a potentially infinite
/// stream.
template <typename Self, typename Batch = std::vector<Example<>>>
using StreamDataset = BatchDataset<Self, Batch, /*BatchRequest=*/size_t>;

} // namespace datasets
} // namespace data
} // namespace torch

// ---------------------------------------------------------------------------
// torch/data/datasets/stateful.h
// ---------------------------------------------------------------------------
namespace torch {
namespace data {
namespace datasets {

/// A stateful dataset: `get_batch()` returns an empty optional when exhausted,
/// and `reset()` starts a new epoch.
template <typename Self, typename Batch = std::vector<Example<>>,
          typename BatchRequest = size_t>
class StatefulDataset
    : public BatchDataset<Self, optional<Batch>, BatchRequest> {
public:
  /// Resets internal state of the dataset.
  virtual void reset() = 0;

  /// Saves the statefulDataset's state to OutputArchive.
  virtual void save(serialize::OutputArchive &archive) const = 0;

  /// Deserializes the statefulDataset's state from the `archive`.
  virtual void load(serialize::InputArchive &archive) = 0;
};

} // namespace datasets
} // namespace data
} // namespace torch

// ---------------------------------------------------------------------------
// torch/data/datasets/map.h
// ---------------------------------------------------------------------------
namespace torch {
namespace data {
namespace datasets {
namespace detail {
template <bool C, typename T>
using optional_if_t = typename std::conditional<C, torch::optional<T>, T>::type;
} // namespace detail

/// A `MapDataset` is a dataset that applies a transform to a source dataset.
template <typename SourceDataset, typename AppliedTransform>
class MapDataset
    : public BatchDataset<
          MapDataset<SourceDataset, AppliedTransform>,
          detail::optional_if_t<SourceDataset::is_stateful,
                                typename AppliedTransform::OutputBatchType>,
          typename SourceDataset::BatchRequestType> {
public:
  using DatasetType = SourceDataset;
  using TransformType = AppliedTransform;
  using BatchRequestType = typename SourceDataset::BatchRequestType;
  using OutputBatchType =
      detail::optional_if_t<SourceDataset::is_stateful,
                            typename AppliedTransform::OutputBatchType>;

  MapDataset(DatasetType dataset, TransformType transform)
      : dataset_(std::move(dataset)), transform_(std::move(transform)) {}

  /// Gets a batch from the source dataset and applies the transform to it,
  /// returning the result.
  OutputBatchType get_batch(BatchRequestType indices) override {
    return get_batch_impl(std::move(indices));
  }

  /// Returns the size of the source dataset.
  optional<size_t> size() const noexcept override { return dataset_.size(); }

  /// Calls `reset()` on the underlying dataset.
  void reset() { dataset_.reset(); }

  /// Returns the underlying dataset.
  const SourceDataset &dataset() noexcept { return dataset_; }

  /// Returns the transform being applied.
  const AppliedTransform &transform() noexcept { return transform_; }

private:
#if LIBTORCH_MOCK_VERSION_MAJOR >= 2
  template <typename D = SourceDataset,
            typename = std::enable_if_t<!D::is_stateful>>
#else
  template <typename D = SourceDataset,
            typename = torch::disable_if_t<D::is_stateful>>
#endif
  OutputBatchType get_batch_impl(BatchRequestType indices) {
    return transform_.apply_batch(dataset_.get_batch(std::move(indices)));
  }

#if LIBTORCH_MOCK_VERSION_MAJOR >= 2
  template <typename D = SourceDataset>
  std::enable_if_t<D::is_stateful, OutputBatchType>
#else
  template <typename D = SourceDataset>
  torch::enable_if_t<D::is_stateful, OutputBatchType>
#endif
  get_batch_impl(BatchRequestType indices) {
    if (auto batch = dataset_.get_batch(std::move(indices))) {
      return transform_.apply_batch(std::move(*batch));
    }
    return nullopt;
  }

  /// The underlying dataset being transformed.
  SourceDataset dataset_;

  // The transformation that is applied to batches received from the dataset.
  AppliedTransform transform_;
};

/// Creates a `MapDataset` with the given dataset and transform.
template <typename DatasetType, typename TransformType>
MapDataset<DatasetType, TransformType> map(DatasetType dataset,
                                           TransformType transform) {
  static_assert(
      std::is_same<
          typename std::conditional<
              DatasetType::is_stateful,
              typename DatasetType::BatchType::value_type,
              typename DatasetType::BatchType>::type,
          typename TransformType::InputBatchType>::value,
      "BatchType type of dataset does not match input type of transform");
  return {std::move(dataset), std::move(transform)};
}

} // namespace datasets
} // namespace data
} // namespace torch

// ---------------------------------------------------------------------------
// torch/data/datasets/mnist.h, torch/data/datasets/tensor.h
// ---------------------------------------------------------------------------
namespace torch {
namespace data {
namespace datasets {

/// The MNIST dataset.
class TORCH_API MNIST : public Dataset<MNIST> {
public:
  /// The mode in which the dataset is loaded.
  enum class Mode { kTrain, kTest };

  /// Loads the MNIST dataset from the `root` path.
  explicit MNIST(const std::string &root, Mode mode = Mode::kTrain);

  /// Returns the `Example` at the given `index`.
  Example<> get(size_t index) override;

  /// Returns the size of the dataset.
  optional<size_t> size() const override;

  /// Returns true if this is the training subset of MNIST.
  bool is_train() const noexcept;

  /// Returns all images stacked into a single tensor.
  const Tensor &images() const;

  /// Returns all targets stacked into a single tensor.
  const Tensor &targets() const;

private:
  Tensor images_, targets_;
};

/// A dataset of tensors.
struct TensorDataset : public Dataset<TensorDataset, TensorExample> {
  /// Creates a `TensorDataset` from a vector of tensors.
  explicit TensorDataset(const std::vector<Tensor> &tensors);

  explicit TensorDataset(torch::Tensor tensor) : tensor(std::move(tensor)) {}

  /// Returns a single `TensorExample`.
  TensorExample get(size_t index) override { return tensor[index]; }

  /// Returns the number of tensors in the dataset.
  optional<size_t> size() const override { return tensor.size(0); }

  Tensor tensor;
};

} // namespace datasets
} // namespace data
} // namespace torch

// ---------------------------------------------------------------------------
// torch/data/transforms/{base,collate,lambda,stack,tensor}.h
// ---------------------------------------------------------------------------
namespace torch {
namespace data {
namespace transforms {

/// A transformation of a batch to a new batch.
template <typename InputBatch, typename OutputBatch> class BatchTransform {
public:
  using InputBatchType = InputBatch;
  using OutputBatchType = OutputBatch;

  virtual ~BatchTransform() = default;

  /// Applies the transformation to the given `input_batch`.
  virtual OutputBatch apply_batch(InputBatch input_batch) = 0;
};

/// A transformation of individual input examples to individual output
/// examples.
template <typename Input, typename Output>
class Transform
    : public BatchTransform<std::vector<Input>, std::vector<Output>> {
public:
  using InputType = Input;
  using OutputType = Output;

  /// Applies the transformation to the given `input`.
  virtual OutputType apply(InputType input) = 0;

  /// Applies the `transformation` over the entire `input_batch`.
  std::vector<Output> apply_batch(std::vector<Input> input_batch) override;
};

/// A `BatchTransform` that applies a user-provided functor to a batch.
template <typename Input, typename Output = Input>
class BatchLambda : public BatchTransform<Input, Output> {
public:
  using typename BatchTransform<Input, Output>::InputBatchType;
  using typename BatchTransform<Input, Output>::OutputBatchType;
  using FunctionType = std::function<OutputBatchType(InputBatchType)>;

  /// Constructs the `BatchLambda` from the given `function` object.
  explicit BatchLambda(FunctionType function)
      : function_(std::move(function)) {}

  /// Applies the user-provided function object to the `input_batch`.
  OutputBatchType apply_batch(InputBatchType input_batch) override {
    return function_(std::move(input_batch));
  }

private:
  FunctionType function_;
};

/// A `Transform` that applies a user-provided functor to individual examples.
template <typename Input, typename Output = Input>
class Lambda : public Transform<Input, Output> {
public:
  using typename Transform<Input, Output>::InputType;
  using typename Transform<Input, Output>::OutputType;
  using FunctionType = std::function<Output(Input)>;

  /// Constructs the `Lambda` from the given `function` object.
  explicit Lambda(FunctionType function) : function_(std::move(function)) {}

  /// Applies the user-provided function object to the `input`.
  OutputType apply(InputType input) override {
    return function_(std::move(input));
  }

private:
  FunctionType function_;
};

/// A `Collation` is a transform that reduces a batch into a single value.
template <typename T, typename BatchType = std::vector<T>>
using Collation = BatchTransform<BatchType, T>;

/// A `Collate` allows passing a custom function to reduce/collate a batch
/// into a single value.
template <typename T, typename BatchType = std::vector<T>>
using Collate = BatchLambda<BatchType, T>;

template <typename T = Example<>> struct Stack;

/// A `Collation` for `Example<Tensor, Tensor>` types that stacks all data
/// tensors into one tensor, and all target (label) tensors into one tensor.
template <> struct Stack<Example<>> : public Collation<Example<>> {
  Example<> apply_batch(std::vector<Example<>> examples) override;
};

/// A `Collation` for `Example<Tensor, NoTarget>` types that stacks all data
/// tensors into one tensor.
template <>
struct Stack<TensorExample>
    : public Collation<Example<Tensor, example::NoTarget>> {
  TensorExample apply_batch(std::vector<TensorExample> examples) override;
};

/// A `Transform` that is specialized for the typical `Example<Tensor, Tensor>`
/// combination. It exposes a single `operator()` interface hook (for
/// subclasses), and calls this function on input `Example` objects.
template <typename Target = Tensor>
class TensorTransform
    : public Transform<Example<Tensor, Target>, Example<Tensor, Target>> {
public:
  using E = Example<Tensor, Target>;
  using typename Transform<E, E>::InputType;
  using typename Transform<E, E>::OutputType;

  /// Transforms a single input tensor to an output tensor.
  virtual Tensor operator()(Tensor input) = 0;

  /// Implementation of `Transform::apply` that calls `operator()`.
  OutputType apply(InputType input) override {
    input.data = (*this)(std::move(input.data));
    return input;
  }
};

/// A `Lambda` specialized for the typical `Example<Tensor, Tensor>` input type.
template <typename Target = Tensor>
class TensorLambda : public TensorTransform<Target> {
public:
  using FunctionType = std::function<Tensor(Tensor)>;

  /// Creates a `TensorLambda` from the given `function`.
  explicit TensorLambda(FunctionType function)
      : function_(std::move(function)) {}

  /// Applies the user-provided functor to the input tensor.
  Tensor operator()(Tensor input) override {
    return function_(std::move(input));
  }

private:
  FunctionType function_;
};

/// Normalizes input tensors by subtracting the supplied mean and dividing by
/// the given standard deviation.
template <typename Target = Tensor>
struct Normalize : public TensorTransform<Target> {
  /// Constructs a `Normalize` transform. The mean and standard deviation can
  /// be anything that is broadcastable over the input tensors (like single
  /// scalars).
  Normalize(ArrayRef<double> mean, ArrayRef<double> stddev)
      : mean(torch::tensor(mean, torch::kFloat32)
                 .unsqueeze(/*dim=*/1)
                 .unsqueeze(/*dim=*/2)),
        stddev(torch::tensor(stddev, torch::kFloat32)
                   .unsqueeze(/*dim=*/1)
                   .unsqueeze(/*dim=*/2)) {}

  torch::Tensor operator()(Tensor input) override {
    return input.sub(mean).div(stddev);
  }

  torch::Tensor mean, stddev;
};

} // namespace transforms
} // namespace data
} // namespace torch

// ---------------------------------------------------------------------------
// torch/data/samplers/{base,random,sequential,distributed}.h
// ---------------------------------------------------------------------------
namespace torch {
namespace data {
namespace samplers {

/// A `Sampler` is an object that yields an index with which to access a
/// dataset.
template <typename BatchRequest = std::vector<size_t>> class Sampler {
public:
  using BatchRequestType = BatchRequest;

  virtual ~Sampler() = default;

  /// Resets the `Sampler`'s internal state.
  virtual void reset(optional<size_t> new_size) = 0;

  /// Returns the next index if possible, or an empty optional if the
  /// sampler is exhausted for this epoch.
  virtual optional<BatchRequest> next(size_t batch_size) = 0;

  /// Serializes the `Sampler` to the `archive`.
  virtual void save(serialize::OutputArchive &archive) const = 0;

  /// Deserializes the `Sampler` from the `archive`.
  virtual void load(serialize::InputArchive &archive) = 0;
};

/// A `Sampler` that returns random indices.
class TORCH_API RandomSampler : public Sampler<> {
public:
  /// Constructs a `RandomSampler` with a size and dtype for the stored indices.
  explicit RandomSampler(int64_t size, Dtype index_dtype = torch::kInt64);

  ~RandomSampler() override;

  /// Resets the `RandomSampler` to a new set of indices.
  void reset(optional<size_t> new_size = nullopt) override;

  /// Returns the next batch of indices.
  optional<std::vector<size_t>> next(size_t batch_size) override;

  /// Serializes the `RandomSampler` to the `archive`.
  void save(serialize::OutputArchive &archive) const override;

  /// Deserializes the `RandomSampler` from the `archive`.
  void load(serialize::InputArchive &archive) override;

  /// Returns the current index of the `RandomSampler`.
  size_t index() const noexcept;

private:
  Tensor indices_;
  int64_t index_ = 0;
};

/// A `Sampler` that returns indices sequentially.
class TORCH_API SequentialSampler : public Sampler<> {
public:
  /// Creates a `SequentialSampler` that will return indices in the range
  /// `0...size - 1`.
  explicit SequentialSampler(size_t size);

  /// Resets the `SequentialSampler` to zero.
  void reset(optional<size_t> new_size = nullopt) override;

  /// Returns the next batch of indices.
  optional<std::vector<size_t>> next(size_t batch_size) override;

  /// Serializes the `SequentialSampler` to the `archive`.
  void save(serialize::OutputArchive &archive) const override;

  /// Deserializes the `SequentialSampler` from the `archive`.
  void load(serialize::InputArchive &archive) override;

  /// Returns the current index of the `SequentialSampler`.
  size_t index() const noexcept;

private:
  size_t size_;
  size_t index_{0};
};

/// A `Sampler` that selects a subset of indices to sample from and defines a
/// sampling behavior. In a distributed setting, this selects a subset of the
/// indices depending on the provided num_replicas and rank parameters.
template <typename BatchRequest = std::vector<size_t>>
class DistributedSampler : public Sampler<BatchRequest> {
public:
  DistributedSampler(size_t size, size_t num_replicas = 1, size_t rank = 0,
                     bool allow_duplicates = true)
      : size_(size), num_replicas_(num_replicas), rank_(rank), epoch_(0),
        allow_duplicates_(allow_duplicates) {}

  /// Set the epoch for the current enumeration. This can be used to alter the
  /// sample selection and shuffling behavior.
  void set_epoch(size_t epoch) { epoch_ = epoch; }

  size_t epoch() const { return epoch_; }

protected:
  size_t local_sample_count() {
    if (allow_duplicates_) {
      return (size_ + num_replicas_ - 1) / num_replicas_;
    } else {
      return size_ / num_replicas_;
    }
  }

  size_t size_;
  size_t num_replicas_;
  size_t rank_;
  size_t epoch_;
  bool allow_duplicates_;
};

/// Select samples randomly. The sampling order is shuffled at each `reset()`
/// call.
class TORCH_API DistributedRandomSampler : public DistributedSampler<> {
public:
  DistributedRandomSampler(size_t size, size_t num_replicas = 1,
                           size_t rank = 0, bool allow_duplicates = true);

  /// Resets the `DistributedRandomSampler` to a new set of indices.
  void reset(optional<size_t> new_size = nullopt) override;

  /// Returns the next batch of indices.
  optional<std::vector<size_t>> next(size_t batch_size) override;

  /// Serializes the `DistributedRandomSampler` to the `archive`.
  void save(serialize::OutputArchive &archive) const override;

  /// Deserializes the `DistributedRandomSampler` from the `archive`.
  void load(serialize::InputArchive &archive) override;

  /// Returns the current index of the `DistributedRandomSampler`.
  size_t index() const noexcept;

private:
  void populate_indices();

  size_t begin_index_;
  size_t end_index_;
  size_t sample_index_;
  std::vector<size_t> all_indices_;
};

/// Select samples sequentially.
class TORCH_API DistributedSequentialSampler : public DistributedSampler<> {
public:
  DistributedSequentialSampler(size_t size, size_t num_replicas = 1,
                               size_t rank = 0, bool allow_duplicates = true);

  /// Resets the `DistributedSequentialSampler` to a new set of indices.
  void reset(optional<size_t> new_size = nullopt) override;

  /// Returns the next batch of indices.
  optional<std::vector<size_t>> next(size_t batch_size) override;

  /// Serializes the `DistributedSequentialSampler` to the `archive`.
  void save(serialize::OutputArchive &archive) const override;

  /// Deserializes the `DistributedSequentialSampler` from the `archive`.
  void load(serialize::InputArchive &archive) override;

  /// Returns the current index of the `DistributedSequentialSampler`.
  size_t index() const noexcept;

private:
  void populate_indices();

  size_t begin_index_;
  size_t end_index_;
  size_t sample_index_;
  std::vector<size_t> all_indices_;
};

} // namespace samplers
} // namespace data
} // namespace torch

// ---------------------------------------------------------------------------
// torch/data/dataloader_options.h
// ---------------------------------------------------------------------------
namespace torch {
namespace data {

/// Options to configure a `DataLoader`.
struct DataLoaderOptions {
  DataLoaderOptions() = default;
  /* implicit */ DataLoaderOptions(size_t batch_size)
      : batch_size_(batch_size) {}

  /// The size of each batch to fetch.
  TORCH_ARG(size_t, batch_size) = 1;

  /// The number of worker threads to launch. If zero, the main thread will
  /// synchronously perform the data loading.
  TORCH_ARG(size_t, workers) = 0;

  /// The maximum number of jobs to enqueue for fetching by worker threads.
  /// Defaults to two times the number of worker threads.
  TORCH_ARG(optional<size_t>, max_jobs);

  /// An optional limit on the time to wait for the next batch.
  TORCH_ARG(optional<std::chrono::milliseconds>, timeout);

  /// Whether to enforce ordering of batches when multiple are loaded
  /// asynchronously by worker threads. Set to `false` for better performance if
  /// you do not care about determinism.
  TORCH_ARG(bool, enforce_ordering) = true;

  /// Whether to omit the last batch if it contains less than `batch_size`
  /// examples.
  TORCH_ARG(bool, drop_last) = false;
};

/// Like `DataLoaderOptions`, but without any unconfigured state.
/// `DataLoaderOptions` has some options that depend on other options
/// (`max_jobs` => `2 * workers`). In the spirit of properly using the C++ type
/// system, `DataLoaderOptions` allows only setting values. To access values,
/// you must create a `FullDataLoaderOptions` from a `DataLoaderOptions`
/// instance, which will do any necessary coalescing.
struct FullDataLoaderOptions {
  explicit FullDataLoaderOptions(DataLoaderOptions options)
      : batch_size(options.batch_size()), workers(options.workers()),
        max_jobs(options.max_jobs().value_or(2 * workers)),
        timeout(options.timeout()),
        enforce_ordering(options.enforce_ordering()),
        drop_last(options.drop_last()) {}

  size_t batch_size;
  size_t workers;
  size_t max_jobs;
  optional<std::chrono::milliseconds> timeout;
  bool enforce_ordering;
  bool drop_last;
};

} // namespace data
} // namespace torch

// ---------------------------------------------------------------------------
// torch/data/iterator.h
// ---------------------------------------------------------------------------
namespace torch {
namespace data {
namespace detail {
template <typename Batch> struct ValidIterator;
template <typename Batch> struct SentinelIterator;

/// Base class for the `ValidIterator` and `SentinelIterator`
template <typename Batch> struct IteratorImpl {
  virtual ~IteratorImpl() = default;
  virtual void next() = 0;
  virtual Batch &get() = 0;
  virtual bool operator==(const IteratorImpl &other) const = 0;
  virtual bool operator==(const ValidIterator<Batch> &other) const = 0;
  virtual bool operator==(const SentinelIterator<Batch> &other) const = 0;
};
} // namespace detail

template <typename Batch> class Iterator {
public:
  // Type aliases to make the class recognized as a proper iterator.
  using difference_type = std::ptrdiff_t;
  using value_type = Batch;
  using pointer = Batch *;
  using reference = Batch &;
  using iterator_category = std::input_iterator_tag;

  explicit Iterator(std::unique_ptr<detail::IteratorImpl<Batch>> impl)
      : impl_(std::move(impl)) {}

  /// Increments the iterator.
  /// Only permitted for valid iterators (not past the end).
  Iterator &operator++() {
    impl_->next();
    return *this;
  }

  /// Returns the current batch.
  /// Only permitted for valid iterators (not past the end).
  Batch &operator*() { return impl_->get(); }

  /// Returns a pointer to the current batch.
  /// Only permitted for valid iterators (not past the end).
  Batch *operator->() { return &impl_->get(); }

  /// Compares two iterators for equality.
  bool operator==(const Iterator &other) const {
    return *impl_ == *other.impl_;
  }

  /// Compares two iterators for inequality.
  bool operator!=(const Iterator &other) const { return !(*this == other); }

private:
  /// Points either to a `ValidIterator` or to a `SentinelIterator`.
  std::shared_ptr<detail::IteratorImpl<Batch>> impl_;
};

} // namespace data
} // namespace torch

// ---------------------------------------------------------------------------
// torch/data/dataloader/{base,stateless,stateful}.h
// ---------------------------------------------------------------------------
namespace torch {
namespace data {

template <typename Dataset, typename Batch, typename BatchRequest>
class DataLoaderBase {
public:
  using BatchType = Batch;
  using BatchRequestType = BatchRequest;

  /// Constructs a new DataLoader from a `dataset` to sample from, `options`
  /// to configure the DataLoader with, and a `sampler` that specifies the
  /// sampling strategy.
  DataLoaderBase(DataLoaderOptions options,
                 std::unique_ptr<Dataset> main_thread_dataset = nullptr)
      : options_(std::move(options)),
        main_thread_dataset_(std::move(main_thread_dataset)) {}

  // NOLINTNEXTLINE(bugprone-exception-escape)
  virtual ~DataLoaderBase() { join(); }

  /// Returns an iterator into the DataLoader. The lifetime of the iterator is
  /// bound to the DataLoader.
  Iterator<Batch> begin() {
    reset();
    return Iterator<Batch>(std::unique_ptr<detail::IteratorImpl<Batch>>());
  }

  /// Returns a special "sentinel" iterator that compares equal with a
  /// non-sentinel iterator once the DataLoader is exhausted.
  Iterator<Batch> end() {
    return Iterator<Batch>(std::unique_ptr<detail::IteratorImpl<Batch>>());
  }

  /// Joins the DataLoader's worker threads and drains internal queues.
  void join() {}

  /// Returns the options with which the DataLoader was configured.
  const FullDataLoaderOptions &options() const noexcept { return options_; }

protected:
  /// Subclass hook for getting the next batch request.
  virtual optional<BatchRequestType> get_batch_request() = 0;

  /// Resets the internal state of the DataLoader, optionally pre-fetching
  /// new jobs.
  virtual void reset() {}

  /// Returns the next batch of data, or an empty `optional` if the DataLoader
  /// is exhausted.
  optional<BatchType> next() {
    if (auto batch_request = get_batch_request()) {
      return this->main_thread_dataset_->get_batch(std::move(*batch_request));
    }
    return nullopt;
  }

  /// The options the DataLoader was configured with.
  // NOLINTNEXTLINE(cppcoreguidelines-non-private-member-variables-in-classes)
  const FullDataLoaderOptions options_;

  /// The dataset for the main thread, only has a value if the number of
  /// worker threads was configured as zero.
  // NOLINTNEXTLINE(cppcoreguidelines-non-private-member-variables-in-classes)
  std::unique_ptr<Dataset> main_thread_dataset_;
};

/// A dataloader for stateless datasets.
template <typename Dataset, typename Sampler>
class StatelessDataLoader
    : public DataLoaderBase<Dataset, typename Dataset::BatchType,
                            typename Sampler::BatchRequestType> {
public:
  using super = DataLoaderBase<Dataset, typename Dataset::BatchType,
                               typename Sampler::BatchRequestType>;
  using typename super::BatchRequestType;

  /// Constructs the `StatelessDataLoader` from a `dataset`, a `sampler` and
  /// some `options`.
  StatelessDataLoader(Dataset dataset, Sampler sampler,
                      DataLoaderOptions options)
      : super(std::move(options)), sampler_(std::move(sampler)) {
#if LIBTORCH_MOCK_VERSION_MAJOR >= 2
    this->main_thread_dataset_ = std::make_unique<Dataset>(std::move(dataset));
#else
    this->main_thread_dataset_ =
        torch::make_unique<Dataset>(std::move(dataset));
#endif
  }

private:
  /// Resets the internal state of the dataloader and the sampler.
  void reset() override {
    sampler_.reset();
    super::reset();
  }

  /// Queries the sampler for the next batch request (possibly progressing its
  /// internal state).
  optional<BatchRequestType> get_batch_request() override {
    auto indices = sampler_.next(this->options_.batch_size);
    if (!indices) {
      return nullopt;
    }
    return indices;
  }

  /// The `Sampler` used to produce batch requests.
  Sampler sampler_;
};

/// A dataloader for stateful datasets.
template <typename Dataset>
class StatefulDataLoader
    : public DataLoaderBase<Dataset, typename Dataset::BatchType::value_type,
                            typename Dataset::BatchRequestType> {
public:
  using super =
      DataLoaderBase<Dataset, typename Dataset::BatchType::value_type,
                     typename Dataset::BatchRequestType>;
  using typename super::BatchRequestType;

  /// Constructs the `StatefulDataLoader` from a `dataset` and some `options`.
#if LIBTORCH_MOCK_VERSION_MAJOR >= 2
  StatefulDataLoader(Dataset dataset, DataLoaderOptions options)
      : super(std::move(options),
              std::make_unique<Dataset>(std::move(dataset))) {}
#else
  StatefulDataLoader(Dataset dataset, DataLoaderOptions options)
      : super(std::move(options),
              torch::make_unique<Dataset>(std::move(dataset))) {}
#endif

private:
  /// Resets the internal state of the dataloader and the dataset.
  void reset() override {
    this->main_thread_dataset_->reset();
    super::reset();
  }

  /// For stateful datasets, the batch request is always the batch size. The
  /// dataset is responsible for determining what goes into the batch next.
  optional<BatchRequestType> get_batch_request() override {
    return this->options_.batch_size;
  }
};

} // namespace data
} // namespace torch

// ---------------------------------------------------------------------------
// torch/data/dataloader.h
// ---------------------------------------------------------------------------
namespace torch {
namespace data {

#if LIBTORCH_MOCK_VERSION_MAJOR >= 2

// LibTorch 2.15: std::enable_if_t conditions, std::make_unique, and the
// options are copied.

/// Creates a `DataLoader` instance for a stateless `dataset`, a `sampler` and
/// some `options`.
template <typename Dataset, typename Sampler>
std::enable_if_t<!Dataset::is_stateful,
                 std::unique_ptr<StatelessDataLoader<Dataset, Sampler>>>
make_data_loader(Dataset dataset, Sampler sampler, DataLoaderOptions options) {
  return std::make_unique<StatelessDataLoader<Dataset, Sampler>>(
      std::move(dataset), std::move(sampler), options);
}

/// Creates a `DataLoader` instance for a stateless `dataset` and some
/// `options`. A sampler (by default a `RandomSampler`) will be constructed from
/// the size of the dataset.
template <typename Sampler = samplers::RandomSampler, typename Dataset>
std::enable_if_t<!Dataset::is_stateful &&
                     std::is_constructible_v<Sampler, size_t>,
                 std::unique_ptr<StatelessDataLoader<Dataset, Sampler>>>
make_data_loader(Dataset dataset,
                 DataLoaderOptions options = DataLoaderOptions()) {
  const std::optional<size_t> size = dataset.size();
  TORCH_CHECK(size.has_value(), "Expected the dataset to be sized in "
                                "order to construct the Sampler");
  return make_data_loader(std::move(dataset), Sampler(*size), options);
}

/// Creates a `DataLoader` for a stateful `dataset` and some `options`.
template <typename Dataset, typename = std::enable_if_t<Dataset::is_stateful>>
std::unique_ptr<StatefulDataLoader<Dataset>>
make_data_loader(Dataset dataset,
                 DataLoaderOptions options = DataLoaderOptions()) {
  return std::make_unique<StatefulDataLoader<Dataset>>(std::move(dataset),
                                                       options);
}

#else // LibTorch 1.13

/// Creates a `DataLoader` instance for a stateless `dataset`, a `sampler` and
/// some `options`.
template <typename Dataset, typename Sampler>
torch::disable_if_t<Dataset::is_stateful,
                    std::unique_ptr<StatelessDataLoader<Dataset, Sampler>>>
make_data_loader(Dataset dataset, Sampler sampler, DataLoaderOptions options) {
  return torch::make_unique<StatelessDataLoader<Dataset, Sampler>>(
      std::move(dataset), std::move(sampler), std::move(options));
}

/// Creates a `DataLoader` instance for a stateless `dataset` and some
/// `options`. A sampler (by default a `RandomSampler`) will be constructed from
/// the size of the dataset.
template <typename Sampler = samplers::RandomSampler, typename Dataset>
torch::disable_if_t<
    Dataset::is_stateful || !std::is_constructible<Sampler, size_t>::value,
    std::unique_ptr<StatelessDataLoader<Dataset, Sampler>>>
make_data_loader(Dataset dataset,
                 DataLoaderOptions options = DataLoaderOptions()) {
  const optional<size_t> size = dataset.size();
  TORCH_CHECK(size.has_value(), "Expected the dataset to be sized in "
                                "order to construct the Sampler");
  return make_data_loader(std::move(dataset), Sampler(*size),
                          std::move(options));
}

/// Creates a `DataLoader` for a stateful `dataset` and some `options`.
template <typename Dataset, typename = torch::enable_if_t<Dataset::is_stateful>>
std::unique_ptr<StatefulDataLoader<Dataset>>
make_data_loader(Dataset dataset,
                 DataLoaderOptions options = DataLoaderOptions()) {
  return torch::make_unique<StatefulDataLoader<Dataset>>(std::move(dataset),
                                                         std::move(options));
}

#endif // LIBTORCH_MOCK_VERSION_MAJOR >= 2

} // namespace data
} // namespace torch
