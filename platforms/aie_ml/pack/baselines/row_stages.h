// Row-wise and elementwise stages on split-precision tensors, for the decoder blocks
// (decoder_tasks.cpp). A tensor of rows x cols values lives in DDR as the sum of one or
// more row-major bf16 matrices ("parts"): one part is a plain bf16 tensor, two are a
// value's bf16 high + low parts (about 16 significant bits), more are a sum of tensors
// (x + t_hi + t_lo is a residual addition). Every stage is one kernel file (core
// program(s) + `.movement`) reading and writing DDR only at the offsets given: one phase
// of a multi-phase kernel. Arithmetic is fp32; outputs are written either as one bf16
// matrix (rounded once) or as high + low parts (hi = bf16(v), lo = bf16(v - hi)).
#pragma once
#include <cstdint>
#include <string>
#include <vector>

namespace tlmcraft::tasks::aie_ml {

// Where a stage writes a tensor: lo == 0 means one bf16 matrix at hi (rounded once).
struct StageOutput {
  uint64_t hi = 0, lo = 0;
};

// v = sum of `in` parts per row; n = v / sqrt(mean(v^2) + eps) * gamma (gamma: cols bf16).
// Writes n to `out`, and v itself to `sum` when sum.hi != 0 (the residual stream).
struct RmsnormStagePlan {
  int64_t rows = 0, cols = 0;
  std::vector<uint64_t> in;  // DDR offsets of the parts, each [rows, cols] bf16
  uint64_t gamma = 0;
  double eps = 1e-6;
  StageOutput out, sum;
};
std::string rmsnorm_stage_problem(const RmsnormStagePlan& plan);
std::string rmsnorm_stage(const RmsnormStagePlan& plan);  // throws std::invalid_argument

// Elementwise over rows x cols values: a and b are sums of parts as above.
enum class ElementwiseOp {
  Sum,      // out = a (the sum of a's parts; b unused)
  Relu,     // out = max(a, 0)
  SiluMul,  // out = SiLU(a) * b, SiLU(z) = z / (1 + e^-z)
};
struct ElementwiseStagePlan {
  int64_t rows = 0, cols = 0;
  ElementwiseOp op = ElementwiseOp::Sum;
  std::vector<uint64_t> a, b;
  StageOutput out;
};
std::string elementwise_stage_problem(const ElementwiseStagePlan& plan);
std::string elementwise_stage(const ElementwiseStagePlan& plan);  // throws std::invalid_argument

}  // namespace tlmcraft::tasks::aie_ml
