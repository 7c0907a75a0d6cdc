// Coral's memory-layout contract (docs/tasks.md, "Coral memory layout"): every task
// tensor in external memory ("ext", 4 MB at 0x20000000 behind the AXI port), row-major,
// 64-byte aligned in spec order (inputs, then outputs); int8 elements, int32
// little-endian where the spec says so (biases, the exp table, CPU-program arrays);
// requantisation shifts are told as numbers (C: #defines), lookup tables are input
// tensors. Outputs are poisoned with the byte 0xA5 before a run.
#pragma once
#include <cstdint>
#include <string>

#include "platforms/coral/pack/int8_math.h"
#include "tasks/layout.h"

namespace tlmcraft::tasks {

constexpr uint64_t kCoralExtBase = 0x20000000;  // CPU address of byte 0 of "ext"
constexpr uint64_t kCoralExtBytes = 4u << 20;
constexpr uint8_t kCoralPoisonByte = 0xA5;     // int8 -91; int32 0xA5A5A5A5

struct CoralLayoutOptions {
  uint64_t base = 0;         // byte offset of the first tensor in "ext"
  uint64_t alignment = 64;   // every tensor starts on this boundary (an AXI burst)
};

class CoralLayout : public PlatformLayout {
 public:
  // Throws std::invalid_argument if the task is unsupported on Coral, a tensor has a
  // format other than int8/int32, or the tensors do not fit the 4 MB external memory.
  CoralLayout(const TaskSpec& task, const Params& params, CoralLayoutOptions options = {});
  PlatformId platform() const override { return PlatformId("coral"); }
  std::vector<MemoryWrite> encode_inputs(const TensorSet& inputs) const override;
  std::vector<MemoryWrite> poison_outputs() const override;
  // An element whose bytes all still hold the poison byte is flagged unwritten; the
  // poison is itself a valid int8/int32 value, so Instance::check clears the flag where
  // the expected value equals it (coral_resolve_unwritten).
  DecodedOutputs decode_outputs(const MemoryReader& read) const override;
  std::string text() const override;

  // The CPU address a kernel uses for a tensor (kCoralExtBase + offset).
  uint64_t cpu_address(const std::string& tensor) const;
  const std::vector<IntegerConstant>& integer_constants() const { return ints_; }
  // "#define" lines for C kernels: <TENSOR>_ADDR (CPU address), <TENSOR>_ELEMS, DIM_<PARAM>
  // for every task parameter and every integer constant by its upper-case name (SHIFT,
  // SHIFT1, ...). Names are upper-cased; characters other than [A-Za-z0-9_] become '_'.
  std::string c_defines() const;
  // C kernels get c_defines() compiled in front of them (KernelContext::task_defaults).
  std::string kernel_defaults() const override { return c_defines(); }
  const CoralLayoutOptions& options() const { return options_; }

 private:
  std::string task_name_;
  Params params_;
  CoralLayoutOptions options_;
  std::vector<IntegerConstant> ints_;
};

// The C identifier a tensor, parameter or constant name becomes in c_defines().
std::string coral_macro_name(const std::string& name);

// Clears the unwritten flag of every element whose poison-valued result equals the
// expected value (`want` holds the same outputs by name). Elements still flagged are
// outputs the kernel never wrote, or wrote with a wrong value equal to the poison.
void coral_resolve_unwritten(DecodedOutputs& got, const TensorSet& want);

}  // namespace tlmcraft::tasks
