#include "platforms/aie_ml/pack/layout_aie_ml.h"

#include <cmath>
#include <cstdio>
#include <cstring>
#include <map>
#include <sstream>
#include <stdexcept>

#include "tasks/numerics.h"
#include "tasks/registry.h"

namespace tlmcraft::tasks {

namespace {

constexpr uint64_t kDdrBytes = 256ull << 20;     // platforms/aie_ml/configs/default.yaml ddr.capacity_bytes
constexpr uint64_t kMemTileBytes = 512u << 10;   // one memory tile
constexpr uint64_t kBlockLimit = 0x2000;         // a block fits one 8 KB bank of tile memory

uint64_t align_up(uint64_t v, uint64_t a) { return (v + a - 1) / a * a; }

// How often a task's kernel needs its inputs: reductions over the whole vector re-read it
// (softmax: max, then sum of exponentials, then outputs; the normalisations: statistics,
// then outputs). Everything else streams once.
uint32_t passes_for(const std::string& task) {
  static const std::map<std::string, uint32_t> p{{"softmax", 3}, {"layernorm", 2}, {"rmsnorm", 2}};
  auto it = p.find(task);
  return it == p.end() ? 1 : it->second;
}

}  // namespace

size_t aie_ml_element_bytes(const std::string& format) {
  if (format == "bf16") return 2;
  if (format == "int8") return 1;
  if (format == "int32") return 4;
  throw std::invalid_argument("aie_ml layout: unknown element format '" + format + "' (bf16, int8 or int32)");
}

uint16_t aie_ml_bf16_bits(double v) {
  const float f = static_cast<float>(bf16(v));  // exact: a bf16 value is a float
  uint32_t u;
  std::memcpy(&u, &f, 4);
  if (std::isnan(f)) return uint16_t((u >> 16) | 0x40);
  return uint16_t(u >> 16);
}

double aie_ml_bf16_value(uint16_t bits) {
  const uint32_t u = uint32_t(bits) << 16;
  float f;
  std::memcpy(&f, &u, 4);
  return f;
}

AieMlLayout::AieMlLayout(const TaskSpec& task, const Params& params) : task_name_(task.name), params_(params) {
  if (!task.supports(PlatformId("aie_ml"))) throw std::invalid_argument("task '" + task.name + "' is not supported on aie_ml");
  uint64_t cursor = 0;
  bool outputs_started = false;
  std::vector<const TensorSpec*> ordered;
  for (const TensorSpec* t : task.tensors_on(PlatformId("aie_ml")))
    if (t->role != Role::Output) ordered.push_back(t);
  for (const TensorSpec* t : task.tensors_on(PlatformId("aie_ml")))
    if (t->role == Role::Output) ordered.push_back(t);
  for (const TensorSpec* t : ordered) {
    TensorPlacement pl;
    pl.name = t->name;
    pl.role = t->role;
    pl.memory = "ddr";
    if (pl.role == Role::Output && !outputs_started) {
      inputs_end_ = align_up(cursor, kAieMlAlignment);
      outputs_begin_ = inputs_end_;
      outputs_started = true;
    }
    pl.address = align_up(cursor, kAieMlAlignment);
    pl.shape = task.shape_of(*t, params);
    pl.view = default_view(pl.shape, 64);  // as Instance::view reports rows
    pl.strides.assign(pl.view.size(), 1);
    for (size_t k = pl.view.size() - 1; k-- > 0;) pl.strides[k] = pl.strides[k + 1] * pl.view[k + 1];
    pl.elements = uint64_t(element_count(pl.shape));
    pl.format = element_type(*t, PlatformId("aie_ml"));
    pl.bytes = pl.elements * aie_ml_element_bytes(pl.format);
    cursor = pl.address + pl.bytes;
    tensors_.push_back(pl);
  }
  if (!outputs_started) inputs_end_ = outputs_begin_ = align_up(cursor, kAieMlAlignment);
  outputs_end_ = align_up(cursor, kAieMlAlignment);
  if (workspace_begin() > kDdrBytes)
    throw std::invalid_argument("aie_ml layout: task " + task.name + " needs " + std::to_string(outputs_end_) +
                                " bytes of DDR, which has " + std::to_string(kDdrBytes));
  plan_movement(task);
  // Tile and memory-tile SRAM belong to the kernel; DDR after the outputs is the workspace
  // through which `.phase`s hand on intermediate results.
  scratch_ = {{"tile_*", 0, UINT64_MAX, "every compute tile's data memory"},
              {"mem*", 0, UINT64_MAX, "every memory tile's SRAM"},
              {"ddr", workspace_begin(), UINT64_MAX,
               "workspace from 64 bytes after the outputs (intermediate results between phases)"}};
}

// Chooses the block count (a power of two) so that one block of every input and one of
// every output fit a bank each, and writes the `.movement` YAML. Blocks are contiguous
// element ranges of each tensor, so with more than one block every tensor must have the
// same element count (elementwise-shaped tasks); otherwise the whole tensors must fit.
void AieMlLayout::plan_movement(const TaskSpec& task) {
  AieMlMovementPlan& p = plan_;
  p.passes = passes_for(task.name);
  std::vector<const TensorPlacement*> ins, outs;
  for (const auto& t : tensors_) (t.role == Role::Output ? outs : ins).push_back(&t);
  if (ins.empty() || outs.empty()) {
    p.reason = "the task has no input or no output tensor";
    return;
  }
  bool same_count = true;
  for (const auto& t : tensors_) same_count = same_count && t.elements == tensors_[0].elements;
  auto block_bytes = [&](const std::vector<const TensorPlacement*>& ts, uint64_t chunks) {
    uint64_t b = 0;
    for (const auto* t : ts) b += align_up(t->bytes / chunks, 32);
    return b;
  };
  uint64_t chunks = 1;
  for (;;) {
    const bool fits = block_bytes(ins, chunks) <= kBlockLimit && block_bytes(outs, chunks) <= kBlockLimit;
    if (fits) break;
    const uint64_t next = chunks * 2;
    bool ok = same_count;
    for (const auto& t : tensors_) ok = ok && t.elements % next == 0 && (t.bytes / next) % 32 == 0;
    if (!ok) {
      p.reason = same_count ? "no block size divides the tensors into 32-byte multiples that fit an 8 KB bank"
                            : "the tensors have different sizes and do not fit one 8 KB bank together";
      return;
    }
    chunks = next;
  }
  if (outputs_end_ - 0 > kMemTileBytes) {
    p.reason = "the tensors do not fit the memory tile (512 KB)";
    return;
  }
  p.chunks = uint32_t(chunks);
  auto slices = [&](const std::vector<const TensorPlacement*>& ts, std::vector<std::string>& names,
                    std::vector<uint64_t>& elems, std::vector<uint64_t>& offs) {
    uint64_t o = 0;
    for (const auto* t : ts) {
      names.push_back(t->name);
      elems.push_back(t->elements / chunks);
      offs.push_back(o);
      o += align_up(t->bytes / chunks, 32);
    }
    return o;
  };
  p.in_block_bytes = slices(ins, p.in_names, p.in_slice_elems, p.in_slice_offset);
  p.out_block_bytes = slices(outs, p.out_names, p.out_slice_elems, p.out_slice_offset);

  // Memory tile mem0: inputs at the same offsets as in DDR, outputs after them.
  const uint64_t mem_in_bytes = inputs_end_, mem_out_base = inputs_end_, mem_out_bytes = outputs_end_ - outputs_begin_;
  std::ostringstream y;
  y << "# Default data movement of task " << task.name << " (platforms/aie_ml/pack/layout_aie_ml.cpp): " << chunks << " block(s), "
    << p.passes << " pass(es) over the inputs.\n";
  y << "locks:\n"
       "  - {tile: [0, 0], id: 0, init: 2}   # input blocks free (core lock 48)\n"
       "  - {tile: [0, 0], id: 1, init: 0}   # input blocks filled (core lock 49)\n"
       "  - {tile: [0, 0], id: 2, init: 2}   # output blocks free (core lock 50)\n"
       "  - {tile: [0, 0], id: 3, init: 0}   # output blocks filled (core lock 51)\n"
       "  - {tile: mem0, id: 0, init: 0}     # all inputs arrived in the memory tile\n"
       "  - {tile: mem0, id: 1, init: 0}     # all outputs arrived in the memory tile\n";
  y << "buffers:\n";
  y << "  - {name: ddr_in, tile: shim0, address: 0, size: " << mem_in_bytes << "}\n";
  y << "  - {name: ddr_out, tile: shim0, address: " << outputs_begin_ << ", size: " << mem_out_bytes << "}\n";
  y << "  - {name: mem_in, tile: mem0, address: 0, size: " << mem_in_bytes << "}\n";
  y << "  - {name: mem_out, tile: mem0, address: " << mem_out_base << ", size: " << mem_out_bytes << "}\n";
  y << "  - {name: in_ping, tile: [0, 0], address: " << p.in_ping << ", size: " << p.in_block_bytes << "}\n";
  y << "  - {name: in_pong, tile: [0, 0], address: " << p.in_pong << ", size: " << p.in_block_bytes << "}\n";
  y << "  - {name: out_ping, tile: [0, 0], address: " << p.out_ping << ", size: " << p.out_block_bytes << "}\n";
  y << "  - {name: out_pong, tile: [0, 0], address: " << p.out_pong << ", size: " << p.out_block_bytes << "}\n";
  y << "bds:\n";
  y << "  - {name: ddr_to_mem, tile: shim0, channel: mm2s0, buffer: ddr_in, offset: 0, length: " << mem_in_bytes << "}\n";
  y << "  - {name: mem_store_in, tile: mem0, channel: s2mm0, buffer: mem_in, offset: 0, length: " << mem_in_bytes
    << ", release: {lock: 0, value: 1}}\n";

  // Memory tile -> compute tile: block k of pass q holds slice k of every input in turn.
  // One 4-D BD when every input slice has the same size; a chain of BDs otherwise.
  auto emit_gather = [&](const std::string& prefix, const std::string& channel, const std::string& buffer,
                         const std::vector<const TensorPlacement*>& ts, uint64_t base, uint32_t passes,
                         const std::string& acquire, const std::string& release) {
    bool uniform = true;
    for (const auto* t : ts) uniform = uniform && t->bytes == ts[0]->bytes && (t->bytes / chunks) % 32 == 0;
    for (size_t i = 1; i < ts.size(); ++i)
      uniform = uniform && ts[i]->address - ts[i - 1]->address == ts[1]->address - ts[0]->address;
    if (uniform) {
      const uint64_t s = ts[0]->bytes / chunks / 4;
      const uint64_t tstride = ts.size() > 1 ? (ts[1]->address - ts[0]->address) / 4 : 0;
      const uint64_t len = uint64_t(passes) * chunks * ts.size() * s * 4;
      y << "  - {name: " << prefix << ", tile: mem0, channel: " << channel << ", buffer: " << buffer
        << ", offset: " << (ts[0]->address - base) << ", length: " << len << ", dims: [[" << s << ", 1], ["
        << ts.size() << ", " << tstride << "], [" << chunks << ", " << s << "]" << (passes > 1 ? ", [" + std::to_string(passes) + ", 0]" : "")
        << "]" << acquire << release << "}\n";
      return;
    }
    // chunks == 1 here (different sizes only plan one block): one BD per tensor and pass.
    const size_t n = ts.size() * passes;
    for (size_t k = 0; k < n; ++k) {
      const auto* t = ts[k % ts.size()];
      y << "  - {name: " << prefix << k << ", tile: mem0, channel: " << channel << ", buffer: " << buffer
        << ", offset: " << (t->address - base) << ", length: " << align_up(t->bytes, 32);
      if (k + 1 < n) y << ", next: " << prefix << (k + 1);
      if (k == 0) y << acquire;
      if (k + 1 == n) y << release;
      y << "}\n";
    }
  };
  emit_gather("mem_to_tile", "mm2s0", "mem_in", ins, 0, p.passes, ", acquire: {lock: 0, value: 1}", "");
  y << "  - {name: tile_in_ping, tile: [0, 0], channel: s2mm0, buffer: in_ping, offset: 0, length: " << p.in_block_bytes
    << ", next: tile_in_pong, acquire: {lock: 0, value: 1}, release: {lock: 1, value: 1}}\n";
  y << "  - {name: tile_in_pong, tile: [0, 0], channel: s2mm0, buffer: in_pong, offset: 0, length: " << p.in_block_bytes
    << ", next: tile_in_ping, acquire: {lock: 0, value: 1}, release: {lock: 1, value: 1}}\n";
  y << "  - {name: tile_out_ping, tile: [0, 0], channel: mm2s0, buffer: out_ping, offset: 0, length: " << p.out_block_bytes
    << ", next: tile_out_pong, acquire: {lock: 3, value: 1}, release: {lock: 2, value: 1}}\n";
  y << "  - {name: tile_out_pong, tile: [0, 0], channel: mm2s0, buffer: out_pong, offset: 0, length: " << p.out_block_bytes
    << ", next: tile_out_ping, acquire: {lock: 3, value: 1}, release: {lock: 2, value: 1}}\n";
  emit_gather("tile_to_mem", "s2mm1", "mem_out", outs, outputs_begin_, 1, "", ", release: {lock: 1, value: 1}");
  y << "  - {name: mem_to_ddr, tile: mem0, channel: mm2s1, buffer: mem_out, offset: 0, length: " << mem_out_bytes
    << ", acquire: {lock: 1, value: 1}}\n";
  y << "  - {name: ddr_store_out, tile: shim0, channel: s2mm0, buffer: ddr_out, offset: 0, length: " << mem_out_bytes << "}\n";
  y << "routes:\n"
       "  - {from: {tile: shim0, port: mm2s0}, to: {tile: mem0, port: s2mm0}}\n"
       "  - {from: {tile: mem0, port: mm2s0}, to: {tile: [0, 0], port: s2mm0}}\n"
       "  - {from: {tile: [0, 0], port: mm2s0}, to: {tile: mem0, port: s2mm1}}\n"
       "  - {from: {tile: mem0, port: mm2s1}, to: {tile: shim0, port: s2mm0}}\n";
  p.yaml = y.str();
  p.available = true;
}

std::vector<MemoryWrite> AieMlLayout::encode_inputs(const TensorSet& inputs) const {
  std::vector<MemoryWrite> out;
  for (const auto& pl : tensors_) {
    if (pl.role == Role::Output) continue;
    const Tensor& t = find(inputs, pl.name);
    if (t.data.size() != pl.elements)
      throw std::invalid_argument("aie_ml layout: input '" + pl.name + "' has " + std::to_string(t.data.size()) +
                                  " values, the layout expects " + std::to_string(pl.elements));
    const size_t eb = aie_ml_element_bytes(pl.format);
    MemoryWrite w{"ddr", pl.address, std::vector<uint8_t>(pl.bytes)};
    for (size_t i = 0; i < pl.elements; ++i) {
      const double v = t.data[i];
      uint32_t bits;
      if (eb == 2) {
        bits = aie_ml_bf16_bits(v);
      } else {
        const double lo = eb == 4 ? -2147483648.0 : -128.0, hi = eb == 4 ? 2147483647.0 : 127.0;
        if (!(v >= lo && v <= hi) || v != double(int64_t(v)))
          throw std::invalid_argument("aie_ml layout: input '" + pl.name + "' element " + std::to_string(i) + " (" +
                                      std::to_string(v) + ") is not an " + pl.format + " value");
        bits = uint32_t(int32_t(int64_t(v)));
      }
      for (size_t b = 0; b < eb; ++b) w.bytes[i * eb + b] = uint8_t(bits >> (8 * b));
    }
    out.push_back(std::move(w));
  }
  return out;
}

std::vector<MemoryWrite> AieMlLayout::poison_outputs() const {
  std::vector<MemoryWrite> out;
  for (const auto& pl : tensors_) {
    if (pl.role != Role::Output) continue;
    MemoryWrite w{"ddr", pl.address, std::vector<uint8_t>(pl.bytes)};
    // Little-endian 0x7FC1 repeated over the bytes (tensors start 64-byte aligned).
    for (size_t i = 0; i < w.bytes.size(); ++i) w.bytes[i] = uint8_t(kAieMlPoison >> (8 * (i % 2)));
    out.push_back(std::move(w));
  }
  return out;
}

DecodedOutputs AieMlLayout::decode_outputs(const MemoryReader& read) const {
  OutputEncoding e;
  e.element_bytes = aie_ml_element_bytes;
  e.value = [](uint32_t bits, size_t eb) {
    if (eb == 2) return aie_ml_bf16_value(uint16_t(bits));
    return eb == 4 ? double(int32_t(bits)) : double(int8_t(uint8_t(bits)));
  };
  e.poison_byte = [](size_t at) { return uint8_t(kAieMlPoison >> (8 * (at % 2))); };
  return decode_poisoned_outputs(tensors_, read, "aie_ml", e);
}

std::string AieMlLayout::text() const {
  std::ostringstream o;
  o << "AIE-ML memory layout for task " << task_name_ << " (";
  bool first = true;
  for (const auto& [k, v] : params_) {
    o << (first ? "" : ", ") << k << " = " << v;
    first = false;
  }
  o << ")\n\n";
  o << "DDR (memory \"ddr\", byte offsets; reached only through the shim DMA). Tensors are row-major\n"
       "(last index fastest), start on 64-byte boundaries, inputs first, then outputs. bf16 elements\n"
       "are two bytes little-endian (inputs rounded to nearest even); int8 one byte, int32 four.\n";
  o << pad_right("tensor", 12) << pad_right("role", 8) << pad_right("offset", 10) << pad_right("format", 8) << pad_right("shape", 20) << "bytes\n";
  for (const auto& t : tensors_)
    o << pad_right(t.name, 12) << pad_right(role_name(t.role), 8) << pad_right(std::to_string(t.address), 10) << pad_right(t.format, 8)
      << pad_right("[" + dims_text(t.shape) + "]", 20) << t.bytes << "\n";
  o << "\nBefore the run every output element holds the bf16 NaN 0x7FC1; an element still holding it\n"
       "counts as never written.\n";
  o << "\nThe kernel file (`.tile C R` core programs, an optional `.movement` section, `.phase` for\n"
       "stages run one after another through DDR) is described in platforms/aie-ml.md, \"The kernel\n"
       "file\" (grep_docs).\n";
  const AieMlMovementPlan& p = plan_;
  if (!p.available) {
    o << "\nNo default data movement for this task (" << p.reason << "): the kernel file must bring its\n"
         "own `.movement` section.\n";
    o << scratch_text();
    return o.str();
  }
  o << "\nDefault data movement (used when the kernel file has no `.movement` section): the inputs go\n"
       "DDR -> shim0 -> memory tile mem0 -> compute tile (0,0) in "
    << p.chunks << " block(s) per pass, " << p.passes
    << " pass(es); the outputs\n"
       "go back tile (0,0) -> mem0 -> shim0 -> DDR in "
    << p.chunks << " block(s). Block k holds elements [k*E, (k+1)*E) of each\n"
       "tensor (E = its elements / blocks), one tensor after the other at these offsets:\n";
  for (size_t i = 0; i < p.in_names.size(); ++i)
    o << "  input  " << pad_right(p.in_names[i], 10) << " E = " << p.in_slice_elems[i] << ", at block + " << p.in_slice_offset[i] << "\n";
  for (size_t i = 0; i < p.out_names.size(); ++i)
    o << "  output " << pad_right(p.out_names[i], 10) << " E = " << p.out_slice_elems[i] << ", at block + " << p.out_slice_offset[i]
      << "\n";
  o << "Tile (0,0) data memory (core addresses = 0x70000 + tile address; 8 banks of 8 KB):\n"
    << "  input blocks  ping " << hex_text(p.in_ping, 5) << ", pong " << hex_text(p.in_pong, 5) << " (" << p.in_block_bytes << " bytes each)\n"
    << "  output blocks ping " << hex_text(p.out_ping, 5) << ", pong " << hex_text(p.out_pong, 5) << " (" << p.out_block_bytes << " bytes each)\n"
    << "  free for the kernel (tables, partial sums): " << hex_text(p.scratch, 5) << " .. " << hex_text(p.scratch + p.scratch_bytes - 1, 5) << "\n"
    << "Core protocol, blocks in order ping, pong, ping, ...: for each of the " << p.passes * p.chunks
    << " input blocks `ACQ " << p.lock_in_full << ", 1` (filled), read it, `REL " << p.lock_in_empty
    << ", 1`;\nfor each of the " << p.chunks << " output blocks `ACQ " << p.lock_out_empty << ", 1` (free), write it, `REL "
    << p.lock_out_full << ", 1`. End with DONE.\n";
  o << "The section, for reference (a kernel may bring its own instead):\n.movement\n" << p.yaml;
  o << scratch_text();
  return o.str();
}

uint64_t aie_ml_tensor_offset(const Instance& inst, const std::string& tensor) {
  if (inst.platform() != PlatformId("aie_ml"))
    throw std::invalid_argument(std::string("aie_ml_tensor_offset: instance is for platform ") + platform_name(inst.platform()));
  return AieMlLayout(inst.task(), inst.params()).placement(tensor).address;
}

}  // namespace tlmcraft::tasks
