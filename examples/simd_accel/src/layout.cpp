#include "layout.h"

#include <cstring>
#include <sstream>
#include <stdexcept>

#include "isa/formats/bf16.h"
#include "simd_platform.h"
#include "tasks/numerics.h"

namespace simd_accel {

namespace tk = tlmcraft::tasks;
namespace fmt = tlmcraft::isa::formats;

SimdLayout::SimdLayout(const tk::TaskSpec& task, const tk::Params& params) : task_name_(task.name), params_(params) {
  const tk::PlatformId me = platform();
  if (!task.supports(me)) throw std::invalid_argument("task '" + task.name + "' is not supported on simd_accel");
  uint64_t cursor = 0;
  for (const tk::TensorSpec* t : task.tensors_on(me)) {
    tk::TensorPlacement pl;
    pl.name = t->name;
    pl.role = t->role;
    pl.memory = "dram";
    pl.address = (cursor + kTensorAlignment - 1) / kTensorAlignment * kTensorAlignment;
    pl.shape = task.shape_of(*t, params);
    pl.view = tk::default_view(pl.shape);
    pl.strides.assign(pl.view.size(), 1);
    for (size_t k = pl.view.size() - 1; k-- > 0;) pl.strides[k] = pl.strides[k + 1] * pl.view[k + 1];
    pl.elements = uint64_t(tk::element_count(pl.shape));
    pl.format = tk::element_type(*t, me);
    if (pl.format != "bf16")
      throw std::invalid_argument("simd_accel layout: tensor '" + t->name + "' has format " + pl.format + ", not bf16");
    pl.bytes = 2 * pl.elements;
    cursor = pl.address + pl.bytes;
    tensors_.push_back(pl);
  }
  workspace_ = (cursor + kTensorAlignment - 1) / kTensorAlignment * kTensorAlignment;
  scratch_ = {{"spad", 0, UINT64_MAX, "the scratchpad"},
              {"dram", workspace_, UINT64_MAX, "DRAM workspace after the tensors"}};
}

tk::PlatformId SimdLayout::platform() const { return tk::PlatformId(kPlatformName); }

std::vector<tk::MemoryWrite> SimdLayout::encode_inputs(const tk::TensorSet& inputs) const {
  std::vector<tk::MemoryWrite> out;
  for (const auto& pl : tensors_) {
    if (pl.role == tk::Role::Output) continue;
    const tk::Tensor& t = tk::find(inputs, pl.name);
    if (t.data.size() != pl.elements)
      throw std::invalid_argument("simd_accel layout: input '" + pl.name + "' has " + std::to_string(t.data.size()) +
                                  " values, the layout expects " + std::to_string(pl.elements));
    tk::MemoryWrite w{"dram", pl.address, std::vector<uint8_t>(pl.bytes)};
    for (size_t i = 0; i < pl.elements; ++i) {
      const uint16_t b = fmt::float_to_bf16(float(t.data[i]));
      std::memcpy(w.bytes.data() + 2 * i, &b, 2);
    }
    out.push_back(std::move(w));
  }
  return out;
}

std::vector<tk::MemoryWrite> SimdLayout::poison_outputs() const {
  std::vector<tk::MemoryWrite> out;
  for (const auto& pl : tensors_) {
    if (pl.role != tk::Role::Output) continue;
    tk::MemoryWrite w{"dram", pl.address, std::vector<uint8_t>(pl.bytes)};
    for (size_t i = 0; i < pl.elements; ++i) std::memcpy(w.bytes.data() + 2 * i, &kPoisonBf16, 2);
    out.push_back(std::move(w));
  }
  return out;
}

tk::DecodedOutputs SimdLayout::decode_outputs(const tk::MemoryReader& read) const {
  tk::OutputEncoding e;
  e.element_bytes = [](const std::string&) { return size_t(2); };
  e.value = [](uint32_t bits, size_t) { return double(fmt::bf16_to_float(uint16_t(bits))); };
  e.poison_byte = [](size_t at) { return uint8_t(kPoisonBf16 >> (8 * (at % 2))); };
  return tk::decode_poisoned_outputs(tensors_, read, kPlatformName, e);
}

std::string SimdLayout::text() const {
  std::ostringstream o;
  o << "simd_accel memory layout for task " << task_name_ << " (";
  bool first = true;
  for (const auto& [k, v] : params_) {
    o << (first ? "" : ", ") << k << " = " << v;
    first = false;
  }
  o << ")\n\nDRAM (byte addresses). Tensors are row-major BF16 (element i at address + 2i, little-endian)\n"
    << "and start on " << kTensorAlignment << "-byte boundaries.\n";
  o << tk::pad_right("tensor", 10) << tk::pad_right("role", 8) << tk::pad_right("address", 18) << tk::pad_right("shape", 16)
    << "bytes\n";
  for (const auto& t : tensors_)
    o << tk::pad_right(t.name, 10) << tk::pad_right(tk::role_name(t.role), 8)
      << tk::pad_right(tk::hex_text(t.address) + " (" + std::to_string(t.address) + ")", 18)
      << tk::pad_right(tk::dims_text(t.shape), 16) << t.bytes << "\n";
  o << "\nMove data with DMA_LD / DMA_ST (addresses and byte counts multiples of 64) into the scratchpad,\n"
       "compute there with V_LD / V_BCAST / V_ST (16 BF16 values = 32 bytes per vector). Before the run every\n"
       "output element holds the BF16 pattern 0x7FC1 (a NaN); an element still holding it afterwards counts\n"
       "as never written.\n";
  o << scratch_text();
  return o.str();
}

}  // namespace simd_accel
