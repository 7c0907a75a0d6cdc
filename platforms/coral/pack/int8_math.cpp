#include "platforms/coral/pack/int8_math.h"

#include <algorithm>
#include <cmath>
#include <stdexcept>

#include "platforms/coral/pack/int8_attention.h"
#include "tasks/numerics.h"

namespace tlmcraft::tasks::coral {

namespace {
int64_t floor_div(int64_t a, int64_t b) {  // b > 0
  int64_t q = a / b;
  if ((a % b != 0) && (a < 0)) --q;
  return q;
}
double gelu(double x) { return 0.5 * x * (1.0 + std::tanh(std::sqrt(2.0 / M_PI) * (x + 0.044715 * x * x * x))); }
double silu(double x) { return x / (1.0 + std::exp(-x)); }

// f(x) in Q5 for x = (j - 128) / 32, j = 0..255, saturated to int8.
template <typename F>
std::vector<int64_t> q5_table(F f) {
  std::vector<int64_t> t(256);
  for (int j = 0; j < 256; ++j) t[size_t(j)] = sat8(round_half_away(32.0 * f((j - 128) / 32.0)));
  return t;
}
}  // namespace

int64_t rdiv(int64_t a, int64_t b) { return floor_div(2 * a + b, 2 * b); }

int64_t isqrt(int64_t v) {
  if (v <= 0) return 0;
  int64_t r = int64_t(std::sqrt(double(v)));
  while (r * r > v) --r;           // correct the float estimate both ways
  while ((r + 1) * (r + 1) <= v) ++r;
  return r;
}

int64_t rshift(int64_t v, int s) { return (v + (int64_t(1) << (s - 1))) >> s; }

int64_t sat8(int64_t v) { return v < -128 ? -128 : (v > 127 ? 127 : v); }

std::vector<int64_t> gelu_table() { return q5_table(gelu); }

std::vector<int64_t> silu_table() { return q5_table(silu); }

std::vector<int64_t> exp_q15_table() {
  std::vector<int64_t> t(256);
  for (int j = 0; j < 256; ++j) t[size_t(j)] = int64_t(std::nearbyint(32767.0 * std::exp(-j / 16.0)));
  return t;
}

int shift_for(double sigma_a, double sigma_b, int64_t k) {
  const double s = std::log2(sigma_a * sigma_b * std::sqrt(double(k)) / 32.0);
  return std::max(1, int(std::lround(s)));
}

std::vector<IntegerConstant> constants(const std::string& task, const Params& p) {
  const double u = kSigmaUniformInt8;
  auto get = [&](const char* n) { return p.at(n); };
  if (task == "gemv") return {{"shift", shift_for(u, u, get("N")), "requantisation shift of y"}};
  if (task == "gemm" || task == "batchmatmul" || task == "linear")
    return {{"shift", shift_for(u, u, get("K")), "requantisation shift of the output"}};
  if (task == "conv2d" || task == "conv_block")
    return {{"shift", shift_for(u, u, get("k") * get("k") * get("c_in")), "requantisation shift of the convolution"}};
  if (task == "depthwise_conv")
    return {{"shift", shift_for(u, u, get("k") * get("k")), "requantisation shift of the convolution"}};
  if (task == "ffn" || task == "swiglu")
    // The second matmul's left operand (SiLU output, or SiLU times up) has a spread of about 20.
    return {{"shift1", shift_for(u, u, get("h")), "requantisation shift of the first matmul(s)"},
            {"shift2", shift_for(20.0, u, get("h_i")), "requantisation shift of the last matmul"}};
  if (task == "scaled_dot_product" || task == "mha" || task == "gqa" || task == "mqa" || task == "flash_attention") {
    // Logits in Q4 with a spread of 32 (2 in real units): 1/sqrt(d) is folded into the shift.
    const int64_t d = get("h") / (p.count("heads") ? get("heads") : 1);
    std::vector<IntegerConstant> c{{"shift_qk", shift_for(u, u, d), "requantisation shift of Q K^T to Q4 logits"}};
    if (task == "flash_attention") c.push_back({"block", kFlashBlock, "keys per block of the online softmax"});
    return c;
  }
  if (task == "llama_decoder" || task == "t5_decoder") {
    // Activations between the stages are Q5 with a spread of about 32 (RMSNorm's output,
    // x and enc); the attention output, a weighted mean of v's rows, about 16; the FFN's
    // hidden activation (SiLU times up, or ReLU) about 20.
    const double a = 32.0;
    const int64_t h = get("h"), d = h / get("heads");
    const char* hidden = task == std::string("llama_decoder") ? "SiLU(g) u" : "ReLU";
    return {{"shift_qkv", shift_for(a, u, h), "requantisation shift of the q, k, v projections"},
            {"shift_qk", shift_for(a, a, d), "requantisation shift of q k^T to Q4 logits"},
            {"shift_o", shift_for(16.0, u, h), "requantisation shift of the output projection"},
            {"shift1", shift_for(a, u, h), std::string("requantisation shift of the FFN's first matmul(s)")},
            {"shift2", shift_for(20.0, u, get("h_i")), std::string("requantisation shift of the FFN's last matmul (") + hidden + " in)"}};
  }
  return {};
}

int64_t constant(const std::string& task, const Params& params, const std::string& name) {
  for (const auto& c : constants(task, params))
    if (c.name == name) return c.value;
  throw std::out_of_range("Coral task '" + task + "' has no constant '" + name + "'");
}

}  // namespace tlmcraft::tasks::coral
