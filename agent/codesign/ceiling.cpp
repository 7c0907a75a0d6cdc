#include "agent/codesign/ceiling.h"

#include <cstdio>

namespace tlmcraft::agent::codesign {

using nlohmann::json;

namespace {

void set_class_cycles(json& latency_classes, int64_t latency) {
  for (json& c : latency_classes)  // a list of classes or a map of them by name
    if (c.is_object() && c.contains("cycles")) c["cycles"] = latency;
}

void set_entry_latency(json& entry, int64_t latency) {
  if (!entry.is_object()) return;
  if (entry.contains("latency")) entry["latency"] = latency;
  if (entry.contains("timing") && entry["timing"].is_object() && entry["timing"].contains("latency"))
    entry["timing"]["latency"] = latency;
}

}  // namespace

json overlay_at_latency(json overlay, int64_t latency) {
  for (auto it = overlay.begin(); it != overlay.end(); ++it) {
    if (it.key() == "latency_classes") {
      set_class_cycles(it.value(), latency);
      continue;
    }
    if (it.value().is_array())
      for (json& entry : it.value()) set_entry_latency(entry, latency);
  }
  return overlay;
}

std::string ceiling_label(int64_t latency, double area_increase) {
  char area[32];
  std::snprintf(area, sizeof area, "%+.1f%%", 100 * area_increase);
  return "ceiling (not buildable: every candidate at latency " + std::to_string(latency) + ", area " + area + ")";
}

json ceiling_summary(const VariantResult& base, const VariantResult& ceiling, int64_t latency, double base_area_mm2,
                     const std::vector<VariantResult>& variants) {
  const double area_increase = base_area_mm2 > 0 ? (ceiling.area_mm2 - base_area_mm2) / base_area_mm2 : 0.0;
  json faster = json::array();  // cells where a measured variant beats the ceiling
  for (const auto& [cell, cycles] : ceiling.cycles) {
    const VariantResult* best = nullptr;
    for (const VariantResult& v : variants)
      if (v.ok && v.cycles.count(cell) && v.cycles.at(cell) < cycles &&
          (!best || v.cycles.at(cell) < best->cycles.at(cell)))
        best = &v;
    if (best)
      faster.push_back(
          {{"cell", cell}, {"variant", best->id}, {"cycles", best->cycles.at(cell)}, {"ceiling_cycles", cycles}});
  }
  json j = ceiling.to_json();
  j["latency"] = latency;
  j["label"] = ceiling_label(latency, area_increase);
  j["speedup"] = geomean_speedup(base, ceiling);  // over the cells it passed
  j["energy_ratio"] = energy_ratio(base, ceiling);
  j["area_increase"] = area_increase;
  j["cells_a_variant_runs_faster"] = faster;
  return j;
}

}  // namespace tlmcraft::agent::codesign
