#include "platforms/coral/pack/layout_coral.h"

#include <cctype>
#include <cstdio>
#include <sstream>
#include <stdexcept>

#include "tasks/numerics.h"

namespace tlmcraft::tasks {

namespace {

size_t element_bytes(const std::string& format) { return format == "int32" ? 4 : 1; }

}  // namespace

std::string coral_macro_name(const std::string& name) {
  std::string s;
  for (char c : name) s += std::isalnum(static_cast<unsigned char>(c)) ? char(std::toupper(static_cast<unsigned char>(c))) : '_';
  return s;
}

CoralLayout::CoralLayout(const TaskSpec& task, const Params& params, CoralLayoutOptions options)
    : task_name_(task.name), params_(params), options_(options) {
  if (!task.supports(PlatformId("coral"))) throw std::invalid_argument("task '" + task.name + "' is not supported on coral");
  if (options_.alignment == 0) throw std::invalid_argument("coral layout: alignment must be positive");
  uint64_t cursor = options_.base;
  for (const TensorSpec* t : task.tensors_on(PlatformId("coral"))) {
    TensorPlacement pl;
    pl.name = t->name;
    pl.role = t->role;
    pl.memory = "ext";
    pl.address = (cursor + options_.alignment - 1) / options_.alignment * options_.alignment;
    pl.shape = task.shape_of(*t, params);
    pl.view = default_view(pl.shape, 64);  // as Instance::view reports rows
    pl.strides.assign(pl.view.size(), 1);
    for (size_t k = pl.view.size() - 1; k-- > 0;) pl.strides[k] = pl.strides[k + 1] * pl.view[k + 1];
    pl.elements = uint64_t(element_count(pl.shape));
    pl.format = element_type(*t, PlatformId("coral"));
    if (pl.format != "int8" && pl.format != "int32")
      throw std::invalid_argument("coral layout: tensor '" + t->name + "' has format " + pl.format + " (int8 or int32 expected)");
    pl.bytes = pl.elements * element_bytes(pl.format);
    cursor = pl.address + pl.bytes;
    tensors_.push_back(pl);
  }
  if (cursor > kCoralExtBytes)
    throw std::invalid_argument("coral layout: task " + task.name + " needs " + std::to_string(cursor) +
                                " bytes of external memory, which has " + std::to_string(kCoralExtBytes));
  ints_ = coral::constants(task.name, params);
  for (size_t i = 0; i < ints_.size(); ++i)
    constants_.push_back({"immediate", int64_t(i), double(ints_[i].value), ints_[i].name + ": " + ints_[i].meaning});
  // The tightly coupled memories are the kernel's own (code, data, stack); "ext" holds the
  // tensors and nothing else may change there.
  scratch_ = {{"itcm", 0, UINT64_MAX, "the kernel's code"},
              {"dtcm", 0, UINT64_MAX, "the kernel's data, .bss and stack"}};
}

uint64_t CoralLayout::cpu_address(const std::string& tensor) const { return kCoralExtBase + placement(tensor).address; }

std::vector<MemoryWrite> CoralLayout::encode_inputs(const TensorSet& inputs) const {
  std::vector<MemoryWrite> out;
  for (const auto& pl : tensors_) {
    if (pl.role == Role::Output) continue;
    const Tensor& t = find(inputs, pl.name);
    if (t.data.size() != pl.elements)
      throw std::invalid_argument("coral layout: input '" + pl.name + "' has " + std::to_string(t.data.size()) +
                                  " values, the layout expects " + std::to_string(pl.elements));
    const size_t eb = element_bytes(pl.format);
    const double lo = eb == 4 ? -2147483648.0 : -128.0, hi = eb == 4 ? 2147483647.0 : 127.0;
    MemoryWrite w{"ext", pl.address, std::vector<uint8_t>(pl.bytes)};
    for (size_t i = 0; i < pl.elements; ++i) {
      const double v = t.data[i];
      if (!(v >= lo && v <= hi) || v != double(int64_t(v)))
        throw std::invalid_argument("coral layout: input '" + pl.name + "' element " + std::to_string(i) + " (" +
                                    std::to_string(v) + ") is not an " + pl.format + " value");
      const uint32_t bits = uint32_t(int32_t(int64_t(v)));
      for (size_t b = 0; b < eb; ++b) w.bytes[i * eb + b] = uint8_t(bits >> (8 * b));
    }
    out.push_back(std::move(w));
  }
  return out;
}

std::vector<MemoryWrite> CoralLayout::poison_outputs() const {
  std::vector<MemoryWrite> out;
  for (const auto& pl : tensors_)
    if (pl.role == Role::Output) out.push_back({"ext", pl.address, std::vector<uint8_t>(pl.bytes, kCoralPoisonByte)});
  return out;
}

DecodedOutputs CoralLayout::decode_outputs(const MemoryReader& read) const {
  OutputEncoding e;
  e.element_bytes = element_bytes;
  e.value = [](uint32_t bits, size_t eb) { return eb == 4 ? double(int32_t(bits)) : double(int8_t(uint8_t(bits))); };
  e.poison_byte = [](size_t) { return kCoralPoisonByte; };
  return decode_poisoned_outputs(tensors_, read, "coral", e);
}

void coral_resolve_unwritten(DecodedOutputs& got, const TensorSet& want) {
  for (size_t k = 0; k < got.tensors.size() && k < got.unwritten.size(); ++k) {
    const Tensor* w = nullptr;
    for (const auto& t : want)
      if (t.name == got.tensors[k].name) w = &t;
    if (!w || w->data.size() != got.tensors[k].data.size() || got.unwritten[k].size() != w->data.size()) continue;
    for (size_t i = 0; i < w->data.size(); ++i)
      if (got.unwritten[k][i] && got.tensors[k].data[i] == w->data[i]) got.unwritten[k][i] = 0;
  }
}

std::string CoralLayout::c_defines() const {
  std::ostringstream o;
  o << "/* Task " << task_name_ << ": memory layout and constants (platforms/coral/pack/layout_coral.h). */\n";
  for (const auto& [k, v] : params_) o << "#define DIM_" << coral_macro_name(k) << " " << v << "\n";
  for (const auto& t : tensors_) {
    const std::string m = coral_macro_name(t.name);
    o << "#define " << m << "_ADDR " << hex_text(kCoralExtBase + t.address, 8) << "u  /* " << t.format << " [" << dims_text(t.shape)
      << "] " << role_name(t.role) << " */\n";
    o << "#define " << m << "_ELEMS " << t.elements << "\n";
  }
  for (const auto& c : ints_) o << "#define " << coral_macro_name(c.name) << " " << c.value << "  /* " << c.meaning << " */\n";
  return o.str();
}

std::string CoralLayout::text() const {
  std::ostringstream o;
  o << "Coral memory layout for task " << task_name_ << " (";
  bool first = true;
  for (const auto& [k, v] : params_) {
    o << (first ? "" : ", ") << k << " = " << v;
    first = false;
  }
  o << ")\n\n";
  o << "External memory (AXI, 4 MB at CPU address 0x20000000). Tensors are row-major (last index fastest),\n"
       "start on "
    << options_.alignment
    << "-byte boundaries, inputs first, then outputs. int8 elements are one byte each;\n"
       "int32 elements are four bytes, little-endian.\n";
  o << pad_right("tensor", 12) << pad_right("role", 8) << pad_right("address", 13) << pad_right("offset", 10) << pad_right("format", 8)
    << pad_right("shape", 20) << "bytes\n";
  for (const auto& t : tensors_)
    o << pad_right(t.name, 12) << pad_right(role_name(t.role), 8) << pad_right(hex_text(kCoralExtBase + t.address, 8), 13)
      << pad_right(std::to_string(t.address), 10) << pad_right(t.format, 8) << pad_right("[" + dims_text(t.shape) + "]", 20) << t.bytes << "\n";
  if (!ints_.empty()) {
    o << "\nConstants (use them as immediates; C kernels get them as #define):\n";
    for (const auto& c : ints_) o << "  " << c.name << " = " << c.value << "  (" << c.meaning << ")\n";
  }
  o << "\nWrite every output element to its place in external memory. Before the run every output\n"
       "byte holds 0xA5; an element still holding that pattern whose expected value differs counts\n"
       "as never written.\n";
  o << "\nKernel contract: RISC-V assembly (GNU as syntax, -march=rv32imf_zve32x -mabi=ilp32) defining\n"
       "a global function `main` (ilp32 calling convention), or C (a file ending in .c, compiled by\n"
       "clang-16 -O2 -ffreestanding -nostdlib, RVV intrinsics from <riscv_vector.h>). crt0 sets sp to\n"
       "the top of DTCM, calls main, then executes `mpause` (a kernel may also end with its own mpause).\n"
       "Code lives in ITCM (8 KB at 0x00000000), data, bss and the stack in DTCM (32 KB at 0x00010000,\n"
       "single-cycle, usable as scratch space). VLEN = 128 bits, ELEN = 32 (Zve32x: integer vectors).\n";
  o << scratch_text();
  return o.str();
}

}  // namespace tlmcraft::tasks
