#include "tasks/tensor.h"

#include <stdexcept>

namespace tlmcraft::tasks {

Tensor::Tensor(std::string n, std::vector<int64_t> s)
    : name(std::move(n)), shape(std::move(s)), data(size_t(element_count(shape)), 0.0) {}

int64_t element_count(const std::vector<int64_t>& shape) {
  int64_t n = 1;
  for (int64_t d : shape) n *= d;
  return n;
}

std::vector<int64_t> unflatten(int64_t i, const std::vector<int64_t>& shape) {
  std::vector<int64_t> idx(shape.size());
  for (size_t k = shape.size(); k-- > 0;) {
    idx[k] = i % shape[k];
    i /= shape[k];
  }
  return idx;
}

std::string shape_text(const std::vector<int64_t>& shape) {
  std::string s = "[";
  for (size_t i = 0; i < shape.size(); ++i) s += (i ? ", " : "") + std::to_string(shape[i]);
  return s + "]";
}

const Tensor& find(const TensorSet& set, const std::string& name) {
  for (const auto& t : set)
    if (t.name == name) return t;
  throw std::out_of_range("no tensor named '" + name + "'");
}

Tensor& find(TensorSet& set, const std::string& name) {
  for (auto& t : set)
    if (t.name == name) return t;
  throw std::out_of_range("no tensor named '" + name + "'");
}

}  // namespace tlmcraft::tasks
