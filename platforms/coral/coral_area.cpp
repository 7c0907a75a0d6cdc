#include "platforms/coral/coral_area.h"

#include <stdexcept>

namespace tlmcraft::coral {

std::vector<AddedArea> coral_variant_area(const isa::riscv::CustomExtensions& ext) {
  std::vector<AddedArea> lines;
  for (const isa::riscv::CustomInsn& in : ext.instructions()) {
    AddedArea a{in.mnemonic, "instruction"};
    try {
      a.mm2 = isa::riscv::custom_area_mm2(in);
    } catch (const std::invalid_argument& e) {
      a.unpriced = in.mnemonic + ": " + e.what();
    }
    lines.push_back(a);
  }
  return lines;
}

std::vector<AddedArea> coral_variant_area_in_force() {
  const std::vector<std::string> overlays = isa::riscv::variant_overlays();
  if (overlays.empty()) return {};
  return coral_variant_area(*isa::riscv::load_custom_extensions(overlays));
}

}  // namespace tlmcraft::coral
