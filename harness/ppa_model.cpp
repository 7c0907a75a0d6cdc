#include "harness/ppa_model.h"

#include <algorithm>
#include <cmath>
#include <sstream>

#include "isa/isa_variant.h"
#include "platforms/platform.h"

namespace tlmcraft::harness {

using nlohmann::json;

namespace {

// '*' matches any run of characters.
bool glob_match(const std::string& pattern, const std::string& text) {
  size_t p = 0, t = 0, star = std::string::npos, mark = 0;
  while (t < text.size()) {
    if (p < pattern.size() && pattern[p] == text[t]) {
      ++p, ++t;
    } else if (p < pattern.size() && pattern[p] == '*') {
      star = p++;
      mark = t;
    } else if (star != std::string::npos) {
      p = star + 1;
      t = ++mark;
    } else {
      return false;
    }
  }
  while (p < pattern.size() && pattern[p] == '*') ++p;
  return p == pattern.size();
}

std::vector<std::string> split(const std::string& s, char sep) {
  std::vector<std::string> out;
  std::stringstream ss(s);
  std::string item;
  while (std::getline(ss, item, sep)) out.push_back(item);
  return out;
}

// Sums the numbers `segments[i..]` reaches from `node`; counts how many leaves matched.
double sum_path(const json& node, const std::vector<std::string>& segments, size_t i, int& matches) {
  if (i == segments.size()) {
    if (!node.is_number()) return 0;
    ++matches;
    return node.get<double>();
  }
  const std::string& seg = segments[i];
  double total = 0;
  bool any_member = false;
  if (node.is_array()) {  // units: an array of objects with a "name"
    for (const auto& item : node)
      if (item.is_object() && item.contains("name") && item["name"].is_string() &&
          glob_match(seg, item["name"].get<std::string>())) {
        any_member = true;
        total += sum_path(item, segments, i + 1, matches);
      }
  } else if (node.is_object()) {
    for (const auto& [k, v] : node.items())
      if (glob_match(seg, k)) {
        any_member = true;
        total += sum_path(v, segments, i + 1, matches);
      }
  }
  // A pattern is a sum over the members it names; over none of a collection that is there
  // it is zero activity (a kernel without DMA has no channels in memory/dma, one that only
  // moves data has no core units), not a missing counter. Members it names must have the
  // rest of the path, so a misspelt leaf still fails.
  if (!any_member && seg.find_first_of("*?") != std::string::npos && (node.is_array() || node.is_object())) ++matches;
  return total;
}

std::string where(const char* list, size_t index, const json& entry) {
  std::string s = std::string("ppa.") + list + "[" + std::to_string(index) + "]";
  if (entry.is_object() && entry.contains("component") && entry["component"].is_string())
    s += " (" + entry["component"].get<std::string>() + ")";
  return s;
}

double config_number(const json& config, const std::string& key, const std::string& at) {
  const json* node = &config;
  for (const auto& part : split(key, '.')) {
    if (!node->is_object() || !node->contains(part))
      throw InputError("platform config " + at + ": '" + key + "' is not a number or a config key");
    node = &(*node)[part];
  }
  if (!node->is_number()) throw InputError("platform config " + at + ": config key '" + key + "' is not a number");
  return node->get<double>();
}

double factor(const std::string& text, const std::string& at, const json& config) {
  const auto number = [&](const std::string& s) -> double {
    char* end = nullptr;
    const double v = std::strtod(s.c_str(), &end);
    if (!s.empty() && end && *end == '\0') return v;
    return config_number(config, s, at);
  };
  return number(text);
}

// "a.b*c.d*2/1024": a product of factors divided by at most one number.
double per_value(const json& entry, const std::string& at, const json& config) {
  if (!entry.contains("per")) return 1;
  if (entry["per"].is_number()) return entry["per"].get<double>();
  if (!entry["per"].is_string())
    throw InputError("platform config " + at + ": 'per' must be a number or an expression");
  const std::string expr = entry["per"].get<std::string>();
  const auto slash = expr.find('/');
  double v = 1;
  for (const auto& f : split(expr.substr(0, slash), '*')) v *= factor(f, at, config);
  if (slash != std::string::npos) {
    const double d = factor(expr.substr(slash + 1), at, config);
    if (d == 0) throw InputError("platform config " + at + ": 'per' divides by zero");
    v /= d;
  }
  return v;
}

double entry_value(const json& entry, const char* field, const std::string& at) {
  if (!entry.contains(field) || !entry[field].is_number())
    throw InputError("platform config " + at + ": '" + field + "' must be a number");
  const double v = entry[field].get<double>();
  if (!(v >= 0) || !std::isfinite(v)) throw InputError("platform config " + at + ": '" + field + "' must be >= 0");
  return v;
}

double scale(const json& ppa, const char* field) {
  if (!ppa.contains(field)) return 1;
  if (!ppa[field].is_number() || !(ppa[field].get<double>() >= 0))
    throw InputError(std::string("platform config ppa.") + field + " must be a number >= 0");
  return ppa[field].get<double>();
}

const json& ppa_list(const json& ppa, const char* name) {
  static const json empty = json::array();
  if (!ppa.contains(name)) return empty;
  if (!ppa[name].is_array()) throw InputError(std::string("platform config ppa.") + name + " must be a list");
  return ppa[name];
}

std::string component_of(const json& entry, const std::string& at) {
  if (!entry.is_object() || !entry.contains("component") || !entry["component"].is_string())
    throw InputError("platform config " + at + ": each entry needs a 'component' name");
  return entry["component"].get<std::string>();
}

// Sums a counter path over the report; InputError when nothing matches.
double counter_value(const json& report, const std::string& counter, const std::string& at) {
  int matches = 0;
  const double v = sum_path(report, split(counter, '/'), 0, matches);
  // A price for an action this ISA never performs counts zero: tables price every primitive
  // so an added instruction finds its price (a performed action without one is listed in
  // energy.unpriced_actions instead).
  if (matches == 0 && counter.rfind("actions/", 0) == 0 && report.contains("actions") && report["actions"].is_object())
    return 0;
  if (matches == 0)
    throw InputError("platform config " + at + ": counter '" + counter + "' is not in the run's report");
  return v;
}

// An expression (as `per`) or a list of expressions, summed.
double peak_value(const json& roof, const char* field, const json& config) {
  const std::string at = std::string("ppa.roofline.") + field;
  if (!roof.contains(field)) throw InputError("platform config " + at + " is missing");
  const json& v = roof[field];
  double total = 0;
  for (const auto& item : v.is_array() ? v : json::array({v})) total += per_value(json{{"per", item}}, at, config);
  if (!(total > 0)) throw InputError("platform config " + at + " must be positive");
  return total;
}

// `kind: static` marks static (leakage) power x time; anything else is dynamic (actions).
bool is_static(const json& entry, const std::string& at) {
  if (!entry.contains("kind")) return false;
  const json& k = entry["kind"];
  if (k == "static") return true;
  if (k == "dynamic") return false;
  throw InputError("platform config " + at + ": 'kind' must be static or dynamic");
}

// Actions the run performed (report `actions`, count > 0) that no energy entry names: a
// platform's table or an added instruction's action lacking a price (docs/energy-area.md).
json unpriced_actions(const json& report, const std::vector<std::string>& counters) {
  json out = json::array();
  if (!report.contains("actions") || !report["actions"].is_object()) return out;
  for (const auto& [name, count] : report["actions"].items()) {
    if (!count.is_number() || count.get<double>() <= 0) continue;
    bool priced = false;
    for (const auto& c : counters) priced = priced || (c.rfind("actions/", 0) == 0 && glob_match(c.substr(8), name));
    if (!priced) out.push_back(name);
  }
  return out;
}

// An ISA variant's added hardware in an area estimate (area_estimate, under a variant).
void add_variant_area(json& area, const std::vector<AddedArea>& variant, double scale) {
  json lines = json::array(), unpriced = json::array();
  double added = 0;
  for (const AddedArea& a : variant) {
    if (!a.unpriced.empty()) {
      unpriced.push_back(a.name + ": " + a.unpriced);
      continue;
    }
    lines.push_back({{"name", a.name}, {"kind", a.kind}, {"mm2", a.mm2 * scale}});
    added += a.mm2 * scale;
  }
  area["isa_extension"] = lines;
  area["by_component"]["isa_extension"] = added;
  area["total_mm2"] = area["total_mm2"].get<double>() + added;
  area["note"] = kAreaWithIsaVariant;
  if (!unpriced.empty()) area["unpriced"] = unpriced;
}

}  // namespace

bool has_ppa_model(const json& config) {
  return config.is_object() && config.contains("ppa") && config["ppa"].is_object();
}

json area_estimate(const json& config, const std::vector<AddedArea>& variant, bool under_variant) {
  const json& ppa = config["ppa"];
  const double s = scale(ppa, "area_scale");
  json by = json::object();
  double total = 0;
  const json& list = ppa_list(ppa, "area");
  for (size_t i = 0; i < list.size(); ++i) {
    const std::string at = where("area", i, list[i]);
    const std::string c = component_of(list[i], at);
    const double mm2 = per_value(list[i], at, config) * entry_value(list[i], "mm2", at) * s;
    by[c] = by.value(c, 0.0) + mm2;
    total += mm2;
  }
  json area = {{"total_mm2", total}, {"by_component", by}, {"note", "estimate: docs/energy-area.md"}};
  if (under_variant || !variant.empty()) add_variant_area(area, variant, s);
  return area;
}

json ppa_estimates(const json& report, const json& config) {
  const json& ppa = config["ppa"];
  const double s = scale(ppa, "energy_scale");
  json by = json::object(), terms = json::array();
  double total = 0;
  std::vector<std::string> counters;
  double static_pj = 0, dynamic_pj = 0;
  const json& list = ppa_list(ppa, "energy");
  for (size_t i = 0; i < list.size(); ++i) {
    const std::string at = where("energy", i, list[i]);
    const std::string c = component_of(list[i], at);
    if (!list[i].contains("counter") || !list[i]["counter"].is_string())
      throw InputError("platform config " + at + ": 'counter' must be a report counter path");
    const std::string counter = list[i]["counter"].get<std::string>();
    counters.push_back(counter);
    const double count = counter_value(report, counter, at);
    const double per = per_value(list[i], at, config), pj_each = entry_value(list[i], "pj", at) * s;
    const double pj = count * per * pj_each;
    by[c] = by.value(c, 0.0) + pj;
    total += pj;
    (is_static(list[i], at) ? static_pj : dynamic_pj) += pj;
    terms.push_back(
        {{"component", c}, {"counter", counter}, {"count", count}, {"per", per}, {"pj_each", pj_each}, {"pj", pj}});
  }
  const double ns = report.value("cycles", 0.0) * config.value("clock_ns", 1.0);
  json energy = {{"total_pj", total},
                 {"dynamic_pj", dynamic_pj},
                 {"static_pj", static_pj},
                 {"by_component", by},
                 {"terms", terms},
                 {"average_power_mw", ns > 0 ? json(total / ns) : json(nullptr)},  // pJ/ns = mW
                 {"unpriced_actions", unpriced_actions(report, counters)},
                 {"note", "estimate: docs/energy-area.md"}};
  return {{"energy", energy}, {"area", area_estimate(config)}};
}

json roofline_estimate(const json& report, const json& config) {
  const json& ppa = config["ppa"];
  if (!ppa.contains("roofline")) return nullptr;
  const json& roof = ppa["roofline"];
  if (!roof.is_object()) throw InputError("platform config ppa.roofline must be a map");
  double ops = 0, bytes = 0;
  const json& op_terms = ppa_list(roof, "ops");
  for (size_t i = 0; i < op_terms.size(); ++i) {
    const std::string at = "ppa.roofline.ops[" + std::to_string(i) + "]";
    if (!op_terms[i].is_object() || !op_terms[i].contains("counter") || !op_terms[i]["counter"].is_string())
      throw InputError("platform config " + at + ": each entry needs a 'counter'");
    ops += counter_value(report, op_terms[i]["counter"].get<std::string>(), at) * per_value(op_terms[i], at, config);
  }
  const json& byte_terms = ppa_list(roof, "offchip_bytes");
  for (size_t i = 0; i < byte_terms.size(); ++i) {
    const std::string at = "ppa.roofline.offchip_bytes[" + std::to_string(i) + "]";
    if (!byte_terms[i].is_string()) throw InputError("platform config " + at + " must be a counter path");
    bytes += counter_value(report, byte_terms[i].get<std::string>(), at);
  }
  const double peak_ops = peak_value(roof, "peak_ops_per_cycle", config);
  const double peak_bw = peak_value(roof, "peak_offchip_bytes_per_cycle", config);
  const double cycles = report.value("cycles", 0.0);
  const json intensity = bytes > 0 ? json(ops / bytes) : json(nullptr);
  // Attainable: the lower of the compute roof and the bandwidth slope at this intensity.
  const double attainable = bytes > 0 ? std::min(peak_ops, ops / bytes * peak_bw) : peak_ops;
  const double achieved = cycles > 0 ? ops / cycles : 0;
  return {{"ops", ops},
          {"offchip_bytes", bytes},
          {"operational_intensity", intensity},
          {"ops_per_cycle", achieved},
          {"offchip_bytes_per_cycle", cycles > 0 ? bytes / cycles : 0.0},
          {"peak_ops_per_cycle", peak_ops},
          {"peak_offchip_bytes_per_cycle", peak_bw},
          {"attainable_ops_per_cycle", attainable},
          {"fraction_of_peak", achieved / peak_ops},
          {"fraction_of_attainable", attainable > 0 ? achieved / attainable : 0.0},
          {"bound", attainable < peak_ops ? "memory" : "compute"}};
}

void add_ppa_estimates(json& report, const json& config, const std::optional<std::vector<AddedArea>>& variant) {
  if (!has_ppa_model(config)) return;
  if (!report.contains("units") || !report["units"].is_array() || !report.contains("cycles")) return;
  const json e = ppa_estimates(report, config);
  report["energy"] = e["energy"];
  const bool under_variant = !isa::current_isa_variant().empty();
  report["area"] = area_estimate(config, variant.value_or(std::vector<AddedArea>{}), under_variant && variant);
  if (under_variant && !variant) report["area"]["note"] = kAreaWithoutVariantPricing;
  const json roof = roofline_estimate(report, config);
  if (!roof.is_null()) report["roofline"] = roof;
}

}  // namespace tlmcraft::harness
