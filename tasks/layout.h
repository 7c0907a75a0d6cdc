// The memory-layout contract a platform offers for a task configuration: where every
// tensor lives, in which format, which constants are preloaded, how inputs are encoded
// into memory bytes, how outputs are poisoned before a run and decoded after it, and
// the text the agent is told. One implementation per platform, in its pack
// (platforms/<p>/pack/layout_<p>.h), registered in tasks/layout_registry.h.
#pragma once
#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "tasks/spec.h"
#include "tasks/tensor.h"

namespace tlmcraft::tasks {

struct TensorPlacement {
  std::string name;
  Role role = Role::Input;
  std::string memory;              // platform memory name, e.g. "hbm"
  uint64_t address = 0;            // in that memory's units (bytes for HBM)
  std::string format;              // "mxfp8", "bf16", "int8", "int32"
  int precision = -1;              // PLENA H_* precision operand; -1 if not applicable
  std::vector<int64_t> shape;      // the spec's shape
  std::vector<int64_t> view;       // the shape as laid out (rows = all but the last dim)
  std::vector<int64_t> strides;    // row-major element strides of `view`
  uint64_t elements = 0;
  uint64_t bytes = 0;              // footprint including MX scales
  int64_t scale = -1;              // PLENA SCALE register value (MX scale offset); -1 if none
  std::string a_register;          // suggested address register ("" = none left)
};

struct LayoutConstant {
  std::string memory;              // e.g. "fp_mem"
  int64_t index = 0;
  double value = 0;                // the value as stored (e.g. BF16-rounded)
  std::string meaning;             // "1/n", "eps", ...
};

// Memory a kernel may change besides its outputs: on-chip scratchpads, the stack, a
// declared workspace. Byte offsets [begin, end) of a platform memory; an end past the
// memory means "to its end". Everything else must hold after a run what it held before
// (harness/memory_guard.h).
struct ScratchRegion {
  std::string memory;              // a memory name, or a prefix ending in '*' ("tile_*": every compute tile)
  uint64_t begin = 0;
  uint64_t end = UINT64_MAX;
  std::string purpose;             // "VRAM: on-chip scratchpad", "HBM workspace after the tensors"
};

struct MemoryWrite {
  std::string memory;
  uint64_t address = 0;
  std::vector<uint8_t> bytes;
};

// Reads `len` bytes at `address` of a named memory (Platform::read_memory).
using MemoryReader = std::function<std::vector<uint8_t>(const std::string& memory, uint64_t address, uint64_t len)>;

struct DecodedOutputs {
  TensorSet tensors;                              // spec shapes
  std::vector<std::vector<uint8_t>> unwritten;    // per tensor, per element: poison still there
};

class PlatformLayout {
 public:
  virtual ~PlatformLayout() = default;
  virtual PlatformId platform() const = 0;
  const std::vector<TensorPlacement>& tensors() const { return tensors_; }
  const std::vector<LayoutConstant>& constants() const { return constants_; }
  const std::vector<ScratchRegion>& scratch() const { return scratch_; }
  // Throws std::out_of_range naming the tensor if absent.
  const TensorPlacement& placement(const std::string& name) const;

  // Bytes to write before a run: every input tensor and every preloaded constant.
  virtual std::vector<MemoryWrite> encode_inputs(const TensorSet& inputs) const = 0;
  // Bytes that mark every output element as "never written".
  virtual std::vector<MemoryWrite> poison_outputs() const = 0;
  // The outputs read back after a run.
  virtual DecodedOutputs decode_outputs(const MemoryReader& read) const = 0;
  // The memory-layout part of the agent's prompt.
  virtual std::string text() const = 0;
  // What the platform supplies when a kernel leaves it out, passed to Platform::assemble
  // as KernelContext::task_defaults: AIE-ML's default data movement, Coral's C #defines.
  virtual std::string kernel_defaults() const { return ""; }
  nlohmann::json to_json() const;

 protected:
  std::vector<TensorPlacement> tensors_;
  std::vector<LayoutConstant> constants_;
  std::vector<ScratchRegion> scratch_;
  // The scratch list as prompt text ("Memory a kernel may change besides its outputs: ...").
  std::string scratch_text() const;
};

// The layout of a task configuration on platform p. Throws std::invalid_argument for a
// platform whose pack registered no layout, or an unsupported task.
std::unique_ptr<PlatformLayout> make_layout(const TaskSpec& task, PlatformId p, const Params& params);
bool has_layout(PlatformId p);

// The shape a tensor is checked and reported in on platform p when no layout says
// otherwise: 1-D tensors of a multiple of 64 elements become rows of 64, others keep
// their shape (a 1-D tensor is one row).
std::vector<int64_t> default_view(const std::vector<int64_t>& shape, int64_t row = 64);

// Helpers every platform layout's text() and decode_outputs() share.
std::string hex_text(uint64_t v, int min_digits = 0);   // "0x1f", "0x0001f" with min_digits 5
std::string dims_text(const std::vector<int64_t>& v);   // "4 x 64"
std::string pad_right(std::string s, size_t width);
// Reads an output tensor's bytes; throws std::runtime_error naming the layout and the
// tensor when the platform returns fewer bytes than the placement needs.
std::vector<uint8_t> read_output_bytes(const MemoryReader& read, const std::string& layout, const TensorPlacement& p);

// How a layout stores output elements: bytes per element of a format, the value of an
// element's little-endian bits, and the poison byte written at a tensor's byte offset.
struct OutputEncoding {
  std::function<size_t(const std::string& format)> element_bytes;
  std::function<double(uint32_t bits, size_t bytes)> value;
  std::function<uint8_t(size_t byte_offset)> poison_byte;
};
// Every output tensor read back and decoded; an element whose bytes all still hold the
// poison is flagged unwritten.
DecodedOutputs decode_poisoned_outputs(const std::vector<TensorPlacement>& tensors, const MemoryReader& read,
                                       const std::string& layout, const OutputEncoding& encoding);

}  // namespace tlmcraft::tasks
