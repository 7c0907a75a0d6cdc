// AIE-ML's memory-layout contract (docs/tasks.md, "AIE-ML memory layout"): every task
// tensor in DDR (memory "ddr", byte offsets from 0), row-major, 64-byte aligned, inputs
// first then outputs in the spec's tensor order; bf16 elements (round to nearest even
// from the generator's values) for float tensors, int8/int32 little-endian where the spec
// says so. Output bytes are poisoned with the bf16 NaN 0x7FC1 before a run.
//
// It also gives the task's default data movement (the `.movement` section used when a
// kernel file has none): DDR -> shim -> memory tile -> compute tile (0,0), double-buffered
// in blocks, and back the same way. A level-1 kernel then needs only its core program.
#pragma once
#include <cstdint>
#include <string>

#include "tasks/layout.h"

namespace tlmcraft::tasks {

class Instance;

constexpr uint16_t kAieMlPoison = 0x7FC1;  // a quiet bf16 NaN no arithmetic produces by chance
constexpr uint64_t kAieMlAlignment = 64;

// The default data movement's shape, as the core program sees it. Tile addresses are byte
// addresses in compute tile (0,0)'s data memory (the core reaches its own tile at
// kAieMlOwnTileBase + address). Lock ids are the core's (48 + tile lock id).
struct AieMlMovementPlan {
  bool available = false;
  std::string reason;             // why there is none (then kernels bring their own)
  uint32_t chunks = 1;            // blocks per pass
  uint32_t passes = 1;            // how often the inputs are streamed (reductions re-read them)
  // Per input / output tensor (spec order): elements per block and byte offset in a block.
  std::vector<std::string> in_names, out_names;
  std::vector<uint64_t> in_slice_elems, in_slice_offset, out_slice_elems, out_slice_offset;
  uint64_t in_block_bytes = 0, out_block_bytes = 0;
  uint32_t in_ping = 0x0000, in_pong = 0x2000, out_ping = 0x4000, out_pong = 0x6000;
  uint32_t scratch = 0x8000, scratch_bytes = 0x8000;  // free for the kernel (tables, sums)
  // Core lock ids: blocks are consumed and produced ping first, then alternately.
  uint32_t lock_in_empty = 48, lock_in_full = 49, lock_out_empty = 50, lock_out_full = 51;
  std::string yaml;               // the `.movement` section text (without the ".movement" line)
};

constexpr uint32_t kAieMlOwnTileBase = 0x70000;  // the core's window onto its own data memory

class AieMlLayout : public PlatformLayout {
 public:
  // Throws std::invalid_argument if the task is unsupported on aie_ml, a tensor has an
  // unknown format, or the tensors do not fit DDR.
  AieMlLayout(const TaskSpec& task, const Params& params);
  PlatformId platform() const override { return PlatformId("aie_ml"); }
  std::vector<MemoryWrite> encode_inputs(const TensorSet& inputs) const override;
  std::vector<MemoryWrite> poison_outputs() const override;
  // An element whose bytes still hold the poison pattern is flagged unwritten.
  DecodedOutputs decode_outputs(const MemoryReader& read) const override;
  std::string text() const override;

  const AieMlMovementPlan& movement() const { return plan_; }
  // The `.movement` YAML passed to assemble() as KernelContext::task_defaults ("" when there is none).
  const std::string& default_movement() const { return plan_.yaml; }
  std::string kernel_defaults() const override { return plan_.yaml; }
  uint64_t inputs_end() const { return inputs_end_; }     // first byte after the inputs (aligned)
  uint64_t outputs_end() const { return outputs_end_; }
  // First byte of the DDR workspace: one guard's width after the outputs, so the memory
  // guard's poisoned bytes (harness/memory_guard.h) also follow the last output.
  uint64_t workspace_begin() const { return outputs_end_ + kWorkspaceGap; }
  static constexpr uint64_t kWorkspaceGap = 64;

 private:
  void plan_movement(const TaskSpec& task);

  std::string task_name_;
  Params params_;
  uint64_t inputs_end_ = 0, outputs_begin_ = 0, outputs_end_ = 0;
  AieMlMovementPlan plan_;
};

// Byte offset of `tensor` in DDR for an aie_ml instance (throws std::out_of_range naming
// the tensor, std::invalid_argument for another platform).
uint64_t aie_ml_tensor_offset(const Instance& inst, const std::string& tensor);

// Bytes one element of a format occupies on AIE-ML (bf16 2, int8 1, int32 4).
size_t aie_ml_element_bytes(const std::string& format);

// The bf16 bit pattern nearest v (round to nearest even; NaN stays NaN) and back.
uint16_t aie_ml_bf16_bits(double v);
double aie_ml_bf16_value(uint16_t bits);

}  // namespace tlmcraft::tasks
