#include "platforms/plena/pack/layout_plena.h"

#include <cmath>
#include <cstdio>
#include <sstream>
#include <stdexcept>

#include "isa/formats/bf16.h"
#include "isa/formats/mxfp8.h"
#include "tasks/numerics.h"

namespace tlmcraft::tasks {

namespace fmt = tlmcraft::isa::formats;

std::vector<LayoutConstant> plena_constants(const TaskSpec& task, const Params& p) {
  std::vector<std::pair<double, std::string>> c{{0.0, "0.0"}, {1.0, "1.0"}};
  const std::string& t = task.name;
  auto param = [&](const char* n) { return double(p.at(n)); };
  if (t == "silu" || t == "rope" || t == "ffn" || t == "swiglu") {
    c.push_back({-1.0, "-1.0"});
  } else if (t == "gelu") {
    c.push_back({0.044715, "0.044715 (cubic coefficient)"});
    c.push_back({-2.0 * std::sqrt(2.0 / M_PI), "-2 sqrt(2/pi) (exp argument of the sigmoid form)"});
    c.push_back({0.5, "0.5"});
    c.push_back({std::sqrt(2.0 / M_PI), "sqrt(2/pi)"});
  } else if (t == "layernorm") {
    c.push_back({1.0 / param("n"), "1/n"});
    c.push_back({1e-5, "eps = 1e-5"});
  } else if (t == "rmsnorm") {
    c.push_back({1.0 / param("n"), "1/n"});
    c.push_back({1e-6, "eps = 1e-6"});
  } else if (t == "scaled_dot_product" || t == "flash_attention") {
    c.push_back({1.0 / std::sqrt(param("h")), "1/sqrt(d), d = h"});
  } else if (t == "mha" || t == "gqa" || t == "mqa") {
    c.push_back({1.0 / std::sqrt(param("h") / param("heads")), "1/sqrt(d), d = h / heads"});
  } else if (t == "conv_block") {
    c.push_back({1e-5, "eps = 1e-5 (BatchNorm)"});
  } else if (t == "llama_decoder" || t == "t5_decoder") {
    c.push_back({-1.0, "-1.0"});
    c.push_back({1.0 / param("h"), "1/h (RMSNorm mean)"});
    c.push_back({1e-6, "eps = 1e-6"});
    c.push_back({1.0 / std::sqrt(param("h") / param("heads")), "1/sqrt(d), d = h / heads"});
  }
  std::vector<LayoutConstant> out;
  for (size_t i = 0; i < c.size(); ++i) out.push_back({"fp_mem", int64_t(i), bf16(c[i].first), c[i].second});
  return out;
}

PlenaLayout::PlenaLayout(const TaskSpec& task, const Params& params, PlenaLayoutOptions options)
    : task_name_(task.name), params_(params), options_(options) {
  if (!task.supports(PlatformId("plena"))) throw std::invalid_argument("task '" + task.name + "' is not supported on plena");
  if (options_.vlen <= 0 || options_.alignment == 0) throw std::invalid_argument("plena layout: vlen and alignment must be positive");
  uint64_t cursor = options_.base;
  int reg = 0;
  for (const TensorSpec* t : task.tensors_on(PlatformId("plena"))) {
    TensorPlacement pl;
    pl.name = t->name;
    pl.role = t->role;
    pl.memory = "hbm";
    pl.address = (cursor + options_.alignment - 1) / options_.alignment * options_.alignment;
    pl.shape = task.shape_of(*t, params);
    pl.view = default_view(pl.shape, options_.vlen);
    pl.strides.assign(pl.view.size(), 1);
    for (size_t k = pl.view.size() - 1; k-- > 0;) pl.strides[k] = pl.strides[k + 1] * pl.view[k + 1];
    pl.elements = uint64_t(element_count(pl.shape));
    pl.format = element_type(*t, PlatformId("plena"));
    if (pl.format == "mxfp8") {
      pl.precision = t->role == Role::Kv ? 1 : 0;
      pl.bytes = pl.elements + fmt::mx_scale_count(pl.elements);
      pl.scale = int64_t(pl.elements);
    } else if (pl.format == "bf16") {
      pl.precision = 2;
      pl.bytes = 2 * pl.elements;
    } else {
      throw std::invalid_argument("plena layout: tensor '" + t->name + "' has format " + pl.format);
    }
    if (reg < 8) pl.a_register = "a" + std::to_string(reg++);
    cursor = pl.address + pl.bytes;
    tensors_.push_back(pl);
  }
  constants_ = plena_constants(task, params);
  // On-chip SRAMs are the kernel's; HBM after the tensors (from the next 4 KB page, where
  // the baselines' stage buffers start) is its workspace.
  const uint64_t workspace = (cursor + 4095) / 4096 * 4096;
  scratch_ = {{"vram", 0, UINT64_MAX, "on-chip vector scratchpad"},
              {"msram", 0, UINT64_MAX, "on-chip matrix scratchpad"},
              {"fp_mem", 0, UINT64_MAX, "on-chip scalar FP memory (the constants above may be overwritten once used)"},
              {"int_mem", 0, UINT64_MAX, "on-chip scalar integer memory"},
              {"hbm", workspace, UINT64_MAX, "workspace after the tensors (intermediate results)"}};
}

std::vector<MemoryWrite> PlenaLayout::encode_inputs(const TensorSet& inputs) const {
  std::vector<MemoryWrite> out;
  for (const auto& pl : tensors_) {
    if (pl.role == Role::Output) continue;
    const Tensor& t = find(inputs, pl.name);
    if (t.data.size() != pl.elements)
      throw std::invalid_argument("plena layout: input '" + pl.name + "' has " + std::to_string(t.data.size()) +
                                  " values, the layout expects " + std::to_string(pl.elements));
    std::vector<float> f(t.data.begin(), t.data.end());
    out.push_back({"hbm", pl.address, fmt::encode_mx_tensor(f.data(), f.size())});
  }
  MemoryWrite fp{"fp_mem", 0, {}};
  for (const auto& c : constants_) {
    const uint16_t b = fmt::double_to_bf16(c.value);
    fp.bytes.push_back(uint8_t(b & 0xFF));
    fp.bytes.push_back(uint8_t(b >> 8));
  }
  out.push_back(fp);
  return out;
}

std::vector<MemoryWrite> PlenaLayout::poison_outputs() const {
  std::vector<MemoryWrite> out;
  for (const auto& pl : tensors_) {
    if (pl.role != Role::Output) continue;
    MemoryWrite w{"hbm", pl.address, std::vector<uint8_t>(pl.bytes)};
    for (size_t i = 0; i < pl.elements; ++i) {
      w.bytes[2 * i] = uint8_t(kPlenaPoisonBf16 & 0xFF);
      w.bytes[2 * i + 1] = uint8_t(kPlenaPoisonBf16 >> 8);
    }
    out.push_back(std::move(w));
  }
  return out;
}

DecodedOutputs PlenaLayout::decode_outputs(const MemoryReader& read) const {
  OutputEncoding e;
  e.element_bytes = [](const std::string&) { return size_t(2); };  // bf16
  e.value = [](uint32_t bits, size_t) { return double(fmt::bf16_to_float(uint16_t(bits))); };
  e.poison_byte = [](size_t at) { return uint8_t(kPlenaPoisonBf16 >> (8 * (at % 2))); };
  return decode_poisoned_outputs(tensors_, read, "plena", e);
}

std::string PlenaLayout::text() const {
  std::ostringstream o;
  o << "PLENA memory layout for task " << task_name_ << " (";
  bool first = true;
  for (const auto& [k, v] : params_) {
    o << (first ? "" : ", ") << k << " = " << v;
    first = false;
  }
  o << ")\n\n";
  o << "HBM (byte addresses). Tensors are row-major and start on " << options_.alignment << "-byte boundaries.\n";
  o << pad_right("tensor", 10) << pad_right("role", 8) << pad_right("address", 18) << pad_right("format", 8) << pad_right("prec", 6)
    << pad_right("shape (as laid out)", 22) << pad_right("row stride", 12) << pad_right("bytes", 10) << pad_right("SCALE", 9) << "a-reg\n";
  for (const auto& t : tensors_) {
    o << pad_right(t.name, 10) << pad_right(role_name(t.role), 8) << pad_right(hex_text(t.address) + " (" + std::to_string(t.address) + ")", 18)
      << pad_right(t.format == "mxfp8" ? "MXFP8" : "BF16", 8) << pad_right(std::to_string(t.precision), 6) << pad_right(dims_text(t.view), 22)
      << pad_right(t.view.size() > 1 ? std::to_string(t.strides[t.strides.size() - 2]) : "-", 12)
      << pad_right(std::to_string(t.bytes), 10) << pad_right(t.scale >= 0 ? std::to_string(t.scale) : "-", 9)
      << (t.a_register.empty() ? "- (set with C_SET_ADDR_REG)" : t.a_register) << "\n";
  }
  o << "\nFormats:\n"
       "- MXFP8 (precision 0 = weights/activations, 1 = KV cache): a tensor of E elements at byte B holds\n"
       "  element i as an E4M3 byte at B + i and the E8M0 scale of its block of 8 at B + E + i/8.\n"
       "  Set SCALE = E (C_SET_SCALE_REG) before prefetching the tensor; H_PREFETCH_* converts to BF16.\n"
       "- BF16 (precision 2): element i at B + 2i, little-endian. Outputs are BF16; H_STORE_V with\n"
       "  precision 2 writes them unchanged.\n"
       "- Offsets (gp[rs1]) and STRIDE count elements of the transfer's format.\n"
    << "- 1-D tensors are laid out as rows of VLEN = " << options_.vlen
    << " (one VRAM row each); normalisation and softmax act over\n"
       "  the whole vector. Matrices are [rows, cols]; GEMM/Linear weights are [K, N] (y = x W).\n";
  o << "\nFP_MEM (BF16, preloaded before the run; load with S_LD_FP f, gp0, index):\n";
  for (const auto& c : constants_) {
    char b[64];
    std::snprintf(b, sizeof b, "%.9g", c.value);
    o << "  " << c.index << ": " << b << "  (" << c.meaning << ")\n";
  }
  o << "INT_MEM starts zeroed. Before the run every output element holds the BF16 pattern 0x7FC1 (a NaN);\n"
       "an element still holding it afterwards counts as never written.\n";
  o << scratch_text();
  return o.str();
}

}  // namespace tlmcraft::tasks
