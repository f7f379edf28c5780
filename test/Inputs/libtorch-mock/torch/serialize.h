// Mock of torch/serialize.h (torch::save, torch::load), as in LibTorch 1.13.
//
// Mirrors torch/serialize.h, torch/serialize/{archive,output-archive,
// input-archive,tensor}.h: `torch::save(value, args...)` and
// `torch::load(value, args...)` are function templates over the value and the
// archive's save_to/load_from arguments (a path, a stream, ...), plus the
// std::vector<Tensor> overloads.
#pragma once

#include <torch/types.h>

#include <iosfwd>
#include <ostream>

namespace torch {
namespace serialize {

class TORCH_API OutputArchive final {
public:
  explicit OutputArchive();
  OutputArchive(OutputArchive &&) = default;
  OutputArchive &operator=(OutputArchive &&) = default;
  OutputArchive(OutputArchive &) = delete;
  OutputArchive &operator=(OutputArchive &) = delete;

  void write(const std::string &key, const Tensor &tensor,
             bool is_buffer = false);
  void write(const std::string &key, OutputArchive &nested_archive);

  void save_to(const std::string &filename);
  void save_to(std::ostream &stream);
  void save_to(const std::function<size_t(const void *, size_t)> &func);

  template <typename... Ts> void operator()(Ts &&...ts) {
    write(std::forward<Ts>(ts)...);
  }
};

class TORCH_API InputArchive final {
public:
  InputArchive();
  InputArchive(InputArchive &&) = default;
  InputArchive &operator=(InputArchive &&) = default;
  InputArchive(InputArchive &) = delete;
  InputArchive &operator=(InputArchive &) = delete;
  ~InputArchive() = default;

  bool try_read(const std::string &key, Tensor &tensor,
                bool is_buffer = false);
  void read(const std::string &key, Tensor &tensor, bool is_buffer = false);
  bool try_read(const std::string &key, InputArchive &archive);
  void read(const std::string &key, InputArchive &archive);

  void load_from(const std::string &filename,
                 c10::optional<torch::Device> device = c10::nullopt);
  void load_from(std::istream &stream,
                 c10::optional<torch::Device> device = c10::nullopt);
  void load_from(const char *data, size_t size,
                 c10::optional<torch::Device> device = c10::nullopt);

  template <typename... Ts> void operator()(Ts &&...ts) {
    read(std::forward<Ts>(ts)...);
  }
};

} // namespace serialize

inline serialize::OutputArchive &operator<<(serialize::OutputArchive &archive,
                                            const Tensor &tensor) {
  archive.write("0", tensor);
  return archive;
}

inline serialize::InputArchive &operator>>(serialize::InputArchive &archive,
                                           Tensor &tensor) {
  archive.read("0", tensor);
  return archive;
}

/// Serializes the given `value`.
template <typename Value, typename... SaveToArgs>
void save(const Value &value, SaveToArgs &&...args) {
  serialize::OutputArchive archive;
  archive << value;
  archive.save_to(std::forward<SaveToArgs>(args)...);
}

/// Serializes the given `tensor_vec` of type `std::vector<torch::Tensor>`.
template <typename... SaveToArgs>
void save(const std::vector<torch::Tensor> &tensor_vec,
          SaveToArgs &&...args) {
  serialize::OutputArchive archive;
  for (size_t i = 0; i < tensor_vec.size(); ++i) {
    archive.write(std::to_string(i), tensor_vec[i]);
  }
  archive.save_to(std::forward<SaveToArgs>(args)...);
}

/// Deserializes the given `value`.
template <typename Value, typename... LoadFromArgs>
void load(Value &value, LoadFromArgs &&...args) {
  serialize::InputArchive archive;
  archive.load_from(std::forward<LoadFromArgs>(args)...);
  archive >> value;
}

/// Deserializes the given `tensor_vec` of type `std::vector<torch::Tensor>`.
template <typename... LoadFromArgs>
void load(std::vector<torch::Tensor> &tensor_vec, LoadFromArgs &&...args) {
  serialize::InputArchive archive;
  archive.load_from(std::forward<LoadFromArgs>(args)...);
  size_t index = 0;
  torch::Tensor value;
  while (archive.try_read(std::to_string(index), value)) {
    tensor_vec.push_back(std::move(value));
    value = torch::Tensor();
    index++;
  }
}

} // namespace torch
