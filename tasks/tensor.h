// A task tensor: name, shape and values. Values are doubles for every platform: the
// values the platform's memory holds (MXFP8-dequantised, BF16 or int8/int32 integers),
// which doubles represent exactly.
#pragma once
#include <cstdint>
#include <string>
#include <vector>

namespace tlmcraft::tasks {

struct Tensor {
  std::string name;
  std::vector<int64_t> shape;
  std::vector<double> data;
  // A reference output only: per element, the extra error a correct kernel may show
  // (tasks::rounding_slack); empty when there is none.
  std::vector<double> slack;

  Tensor() = default;
  Tensor(std::string n, std::vector<int64_t> s);  // zero-filled
  size_t size() const { return data.size(); }
  double& operator[](size_t i) { return data[i]; }
  double operator[](size_t i) const { return data[i]; }
  // Row-major 2-D access for [rows, cols] tensors.
  double at(int64_t r, int64_t c) const { return data[size_t(r * shape.back() + c)]; }
};

int64_t element_count(const std::vector<int64_t>& shape);
// Row-major coordinates of flat index i.
std::vector<int64_t> unflatten(int64_t i, const std::vector<int64_t>& shape);
std::string shape_text(const std::vector<int64_t>& shape);  // "[4, 64]"

using TensorSet = std::vector<Tensor>;
// The tensor called `name`; throws std::out_of_range naming it if absent.
const Tensor& find(const TensorSet& set, const std::string& name);
Tensor& find(TensorSet& set, const std::string& name);

}  // namespace tlmcraft::tasks
