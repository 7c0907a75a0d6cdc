// simd_accel's memory-layout contract for a task configuration: every tensor in DRAM in
// spec order (inputs, then outputs), each 4096-byte aligned, row-major BF16; outputs
// poisoned with the BF16 NaN 0x7FC1 before a run. The scratchpad and the DRAM after the
// tensors are the kernel's to use.
#pragma once
#include <cstdint>
#include <string>

#include "tasks/layout.h"

namespace simd_accel {

constexpr uint64_t kTensorAlignment = 4096;
constexpr uint16_t kPoisonBf16 = 0x7FC1;

class SimdLayout : public tlmcraft::tasks::PlatformLayout {
 public:
  // Throws std::invalid_argument for a task not supported on simd_accel or a tensor that
  // is not BF16.
  SimdLayout(const tlmcraft::tasks::TaskSpec& task, const tlmcraft::tasks::Params& params);
  tlmcraft::tasks::PlatformId platform() const override;
  std::vector<tlmcraft::tasks::MemoryWrite> encode_inputs(const tlmcraft::tasks::TensorSet& inputs) const override;
  std::vector<tlmcraft::tasks::MemoryWrite> poison_outputs() const override;
  tlmcraft::tasks::DecodedOutputs decode_outputs(const tlmcraft::tasks::MemoryReader& read) const override;
  std::string text() const override;
  // The first DRAM byte after the tensors (4096-aligned): the kernel's DRAM workspace.
  uint64_t workspace() const { return workspace_; }

 private:
  std::string task_name_;
  tlmcraft::tasks::Params params_;
  uint64_t workspace_ = 0;
};

}  // namespace simd_accel
