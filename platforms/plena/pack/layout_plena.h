// PLENA's memory-layout contract (docs/tasks.md, "PLENA memory layout"): every task
// tensor in HBM, 4096-byte aligned in spec order (inputs, then outputs); inputs MXFP8
// (precision 0; kv tensors precision 1), outputs BF16 (precision 2); 1-D tensors laid
// out as rows of VLEN; FP_MEM preloaded with the task's BF16 constants; outputs
// poisoned with BF16 0x7FC1.
#pragma once
#include <cstdint>

#include "tasks/layout.h"

namespace tlmcraft::tasks {

struct PlenaLayoutOptions {
  int64_t vlen = 64;            // VRAM row length (the platform config's arch.vlen)
  uint64_t base = 0;            // HBM address of the first tensor
  uint64_t alignment = 4096;    // every tensor starts on this boundary
};

constexpr uint16_t kPlenaPoisonBf16 = 0x7FC1;  // a quiet NaN no arithmetic produces by default

class PlenaLayout : public PlatformLayout {
 public:
  PlenaLayout(const TaskSpec& task, const Params& params, PlenaLayoutOptions options = {});
  PlatformId platform() const override { return PlatformId("plena"); }
  std::vector<MemoryWrite> encode_inputs(const TensorSet& inputs) const override;
  std::vector<MemoryWrite> poison_outputs() const override;
  DecodedOutputs decode_outputs(const MemoryReader& read) const override;
  std::string text() const override;
  const PlenaLayoutOptions& options() const { return options_; }

 private:
  std::string task_name_;
  Params params_;
  PlenaLayoutOptions options_;
};

// The FP_MEM constants of a PLENA task (index, BF16 value, meaning): 0: 0.0, 1: 1.0,
// then the task's own (see each task's PLENA notes).
std::vector<LayoutConstant> plena_constants(const TaskSpec& task, const Params& params);

}  // namespace tlmcraft::tasks
