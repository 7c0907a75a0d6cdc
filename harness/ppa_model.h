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

// The area alone (needs no run): {"total_mm2", "by_component"}.
nlohmann::json area_estimate(const nlohmann::json& platform_config);

// Adds "energy", "area" and "roofline" to a report whose run produced counters (status pass, fail or
// limit); leaves other reports unchanged. No-op without a `ppa` section. Under an ISA
// variant (--isa-dir/--isa-ext) the area's note says it is the base platform's.
inline constexpr const char* kAreaWithoutIsaVariant =
    "estimate: docs/energy-area.md; the base platform's datapath only: the ISA variant's added instructions and "
    "register ports are not included (their area: tlmcraft isa check OVERLAY.yaml, or codesign explore)";
void add_ppa_estimates(nlohmann::json& report, const nlohmann::json& platform_config);

}  // namespace tlmcraft::harness
