// The ceiling of a candidate space (docs/codesign.md, "The ceiling of the candidate
// space"): every candidate added at once, with no area limit, each at the smallest latency
// an issued instruction can have. Not a buildable variant (its area is reported, never
// budgeted): kept apart from the exploration's variants, so it is never on the front nor
// counted as a result within a budget.
#pragma once
#include <cstdint>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "agent/codesign/explorer.h"

namespace tlmcraft::agent::codesign {

// The latency every candidate of the ceiling gets: one cycle, the least an instruction that
// issues can take (some ISA data allow 0, which would make it vanish: the Amdahl bounds'
// assumption, not an instruction's).
inline constexpr int64_t kCeilingLatency = 1;

// The overlay with every latency it declares set to `latency`: latency classes' cycles
// (a list or a map of them), an entry's own `latency` (a number or a class name), and an
// instruction's `timing.latency`. Everything else is unchanged.
nlohmann::json overlay_at_latency(nlohmann::json overlay, int64_t latency);

// The summary's entry for an evaluated ceiling: its speedup and energy over `base`, its
// area increase over `base_area_mm2`, the label a user reads, and the cells where one of
// `variants` (the exploration's, only those passing) took fewer cycles than the ceiling
// (the ceiling is every candidate at once; a candidate that slows a kernel stays in it).
nlohmann::json ceiling_summary(const VariantResult& base, const VariantResult& ceiling, int64_t latency,
                               double base_area_mm2, const std::vector<VariantResult>& variants);

// "ceiling (not buildable: every candidate at latency 1, area +3.5%)".
std::string ceiling_label(int64_t latency, double area_increase);

}  // namespace tlmcraft::agent::codesign
