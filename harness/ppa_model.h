// Energy and area estimates from a run's counters and the platform config's `ppa` section
// (docs/energy-area.md). Shared code knows no platform: each platform's YAML lists its
// terms, each naming a report counter, a per-count factor from the config and a value.
//
//   ppa:
//     energy_scale: 1.0        # multiplies every energy (technology node, voltage)
//     area_scale: 1.0          # multiplies every area
//     energy:                  # pJ = count(counter) x product(per) x pj x energy_scale
//       - {component: matrix, counter: units/matrix/busy_cycles, per: arch.blen*arch.blen, pj: 1.5}
//     area:                    # mm2 = product(per) x mm2 x area_scale
//       - {component: vram, per: memory.vram.elements*2/1024, mm2: 0.0047}
//
//     roofline:                # operations and off-chip bytes of a run against the peaks
//       ops: [{counter: units/matrix/busy_cycles, per: arch.blen*arch.blen*2}]
//       offchip_bytes: [memory/dma_prefetch/bytes_in, memory/dma_store/bytes_out]
//       peak_ops_per_cycle: [arch.blen*arch.blen*2, arch.vlen]     # summed
//       peak_offchip_bytes_per_cycle: timing.dma.prefetch.bytes_per_cycle
//
// A counter is a '/'-separated path into the report: "cycles", "units/<unit>/<field>"
// (units by name), "memory/<memory>/<field>..."; a segment with '*' sums every match
// (e.g. "units/tile*.vec/busy_cycles"). `per` is a product of numbers and config keys
// ("arch.mlen*arch.blen"), optionally divided by one number ("/1024"); empty = 1.
#pragma once
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "platforms/isa_variant_area.h"

namespace tlmcraft::harness {

// True when the platform config has a `ppa` section.
bool has_ppa_model(const nlohmann::json& platform_config);

// {"energy": {total_pj, average_power_mw, by_component, terms}, "area": {total_mm2,
// by_component}} for a report with counters (cycles, units, memory). Throws InputError
// naming the ppa entry when a counter or config key does not resolve or a value is bad.
nlohmann::json ppa_estimates(const nlohmann::json& report, const nlohmann::json& platform_config);

// The roofline figures of a run: {ops, offchip_bytes, operational_intensity,
// ops_per_cycle, offchip_bytes_per_cycle, peak_ops_per_cycle, peak_offchip_bytes_per_cycle,
// attainable_ops_per_cycle, fraction_of_peak, fraction_of_attainable, bound}; null
// without a ppa.roofline section. Throws InputError like ppa_estimates.
nlohmann::json roofline_estimate(const nlohmann::json& report, const nlohmann::json& platform_config);

// The area alone (needs no run): {"total_mm2", "by_component", "note"}. With the hardware
// an ISA variant adds (platforms/isa_variant_area.h; `under_variant`: a variant is in force,
// even one that adds nothing), also "isa_extension": one {name, kind, mm2} per line, each x
// ppa.area_scale like every table row, summed as by_component.isa_extension and into
// total_mm2; lines the model cannot price are listed in "unpriced", outside the total.
nlohmann::json area_estimate(const nlohmann::json& platform_config, const std::vector<AddedArea>& variant = {},
                             bool under_variant = false);

// Adds "energy", "area" and "roofline" to a report whose run produced counters (status pass, fail or
// limit); leaves other reports unchanged. No-op without a `ppa` section. `variant`: what
// the ISA variant in force adds (isa_variant_area()); under a variant the area's note says
// the total includes it, or, where the platform prices no variant (nullopt), that the total
// is the base platform's. Energy is unchanged by it: the added instructions' work is in the
// run's actions, and the static row is a fixed power (docs/energy-area.md).
inline constexpr const char* kAreaWithIsaVariant =
    "estimate: docs/energy-area.md; includes the hardware the ISA variant adds (isa_extension: its added "
    "instructions and register-file ports, priced as tlmcraft isa check and codesign price them)";
inline constexpr const char* kAreaWithoutVariantPricing =
    "estimate: docs/energy-area.md; the base platform's datapath only: this platform registers no pricing of "
    "what an ISA variant adds (platforms/isa_variant_area.h)";
void add_ppa_estimates(nlohmann::json& report, const nlohmann::json& platform_config,
                       const std::optional<std::vector<AddedArea>>& variant = std::vector<AddedArea>{});

}  // namespace tlmcraft::harness
