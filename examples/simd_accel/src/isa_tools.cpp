#include "isa_tools.h"

#include "simd_platform.h"

namespace simd_accel {

namespace {

// Cycles per latency class of the default configuration, for `isa doc --latencies`.
std::map<std::string, std::string> default_latency_notes() {
  const SimdConfig c = load_config("default");
  std::map<std::string, std::string> notes;
  for (const auto& [cls, cycles] : c.latency) notes[cls] = std::to_string(cycles) + (cycles == 1 ? " cycle" : " cycles");
  notes["dma"] = "1 cycle to issue; the transfer's cycles come from the DMA engine and DRAM (README.md, \"DMA transfers\")";
  return notes;
}

}  // namespace

tlmcraft::isa::IsaTools simd_isa_tools() {
  return tlmcraft::isa::table_isa_tools(
      "simd", "simd_accel's 16-lane SIMD ISA (example plugin): YAML-driven assembler, encoder, reference", {".sasm"},
      default_latency_notes, isa_dir());
}

}  // namespace simd_accel
