// The area a Coral ISA variant adds (docs/isa-extensions.md, "Coral", Area): one line per
// custom instruction of its RISC-V overlays, isa/riscv/custom_area.cpp's figure. The one
// pricing of a Coral variant: `isa check`, the co-design adapter and a run's area use it.
#pragma once
#include <vector>

#include "isa/riscv/custom_ext.h"
#include "platforms/isa_variant_area.h"

namespace tlmcraft::coral {

// The custom instructions of `ext`, in order, each with its area (or why it has none).
std::vector<AddedArea> coral_variant_area(const isa::riscv::CustomExtensions& ext);

// The same for the overlays in force (isa::riscv::variant_overlays()); empty without any.
// Throws isa::riscv::CustomExtError for overlays that do not load.
std::vector<AddedArea> coral_variant_area_in_force();

}  // namespace tlmcraft::coral
