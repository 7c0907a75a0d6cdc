// The paper's CPU case study (classic RISC-V benchmark programs) as Coral tasks: their
// specs are tasks/specs/cpu/<name>.yaml (int32 tensors in external memory, sizes per
// configuration), the C baselines are platforms/coral/pack/baselines/templates/cpu/<name>.c
// (scalar C at -O2), and the exact references are here. The programs are our own
// implementations of the classic algorithms, not copies of riscv-tests.
#pragma once
#include <string>
#include <vector>

#include "tasks/spec.h"
#include "tasks/tensor.h"

namespace tlmcraft::tasks::cpu {

// The ten program names in the paper's order.
const std::vector<std::string>& program_names();
bool is_cpu_program(const std::string& name);
// The outputs of program `task` for `inputs` (int32 values as doubles). Throws
// std::invalid_argument for an unknown program or missing input.
TensorSet reference(const TaskSpec& task, const Params& params, const TensorSet& inputs);

// Our Dhrystone-like workload: `runs` iterations of integer, string, record and array
// work seeded by `seeds` (8 values); returns the 8 checksums the program writes.
std::vector<int32_t> dhrystone_like(const std::vector<int32_t>& seeds, int runs);

}  // namespace tlmcraft::tasks::cpu
