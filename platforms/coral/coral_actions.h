// Coral's energy actions (docs/energy-area.md, "Energy by action"). The RISC-V decoder is
// compiled in (no ISA YAML), so an instruction's actions are derived from what it decodes
// to: its class (isa/riscv/hart.h OpClass) gives the op and unit, the element width and vl
// of the step give the format and the element count, its register operands the register
// file bytes. The lists per (class, width) are built once; counting an executed
// instruction is a few array increments.
#pragma once
#include <array>
#include <cstdint>

#include "isa/actions.h"
#include "isa/riscv/hart.h"

namespace tlmcraft::coral {

class CoralActions {
 public:
  CoralActions();
  const isa::ActionCatalog& catalog() const { return catalog_; }
  // The arithmetic one element of `cls` at `width_bytes` performs (scalar classes: 4):
  // "vector.add.int8", "fpu.mac.fp32", ...; empty for memory and control classes.
  static isa::NamedActions class_actions(isa::riscv::OpClass cls, uint32_t width_bytes);

  // Counts one executed instruction: a fetch, its arithmetic (x vl for vector classes) and
  // its register-file bytes (x/f registers 4 bytes, a vector operand vl x element bytes).
  void count(const isa::riscv::StepInfo& s, isa::ActionCounter& counter) const;
  // Memory bytes (the run's DTCM and external-memory traffic), added at the end of a run.
  void count_memory(uint64_t dtcm_read, uint64_t dtcm_written, uint64_t ext_read, uint64_t ext_written,
                    isa::ActionCounter& counter) const;

 private:
  static constexpr int kWidths = 3;  // 1, 2, 4 bytes
  static size_t key(isa::riscv::OpClass cls, int width) { return size_t(cls) * kWidths + size_t(width); }
  isa::ActionCatalog catalog_;
  isa::ActionLists per_class_;
  isa::ActionId fetch_ = 0, x_read_ = 0, x_write_ = 0, f_read_ = 0, f_write_ = 0, v_read_ = 0, v_write_ = 0;
  isa::ActionId dtcm_read_ = 0, dtcm_write_ = 0, ext_read_ = 0, ext_write_ = 0;
};

}  // namespace tlmcraft::coral
