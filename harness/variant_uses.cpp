#include "harness/variant_uses.h"

#include <iomanip>
#include <sstream>

namespace tlmcraft::harness {
namespace {

using json = nlohmann::json;

// The report's area line for `name` (scaled like the total), else the variant's figure.
json area_of(const json& report, const AddedArea& line) {
  if (!line.unpriced.empty()) return nullptr;
  if (report.contains("area") && report["area"].is_object())
    for (const json& l : report["area"].value("isa_extension", json::array()))
      if (l.value("name", "") == line.name) return l.value("mm2", 0.0);
  return line.mm2;
}

std::string times(uint64_t n) { return std::to_string(n) + (n == 1 ? " time" : " times"); }

// "(area +X mm2[ with no effect on cycles])", or why it has no price.
std::string area_clause(const json& use, bool no_effect) {
  std::ostringstream os;
  const bool priced = use.contains("mm2") && use["mm2"].is_number();
  if (priced)
    os << "(area +" << std::fixed << std::setprecision(6) << use["mm2"].get<double>() << " mm2";  // as the area line
  else
    os << "(area not priced: " << use.value("unpriced", std::string("?"));
  if (no_effect) os << (priced ? " with no effect on cycles" : "; no effect on cycles");
  os << ")";
  return os.str();
}

std::string joined_cells(const json& cells) {
  std::string s;
  size_t shown = 0;
  for (const json& c : cells) {
    if (shown == 5) return s + ", ...";
    s += (shown++ ? ", " : "") + c.get<std::string>();
  }
  return s;
}

}  // namespace

std::string suite_variant_use_text(const json& use) {
  const std::string name = use.value("name", "");
  const uint64_t runs = use.value("runs", uint64_t(0)), using_runs = use.value("runs_using", uint64_t(0));
  const uint64_t placed = use.value("static", uint64_t(0)), executed = use.value("executions", uint64_t(0));
  if (runs == 0) return name + ": added " + area_clause(use, false) + "; no run counts its uses";
  if (placed == 0)
    return name + ": added, 0 uses in " + std::to_string(runs) + (runs == 1 ? " run " : " runs ") +
           area_clause(use, true);
  if (executed == 0)
    return name + ": placed " + times(placed) + ", never executed in " + std::to_string(runs) +
           (runs == 1 ? " run " : " runs ") + area_clause(use, true);
  return name + ": executed " + times(executed) + " in " + std::to_string(using_runs) + " of " + std::to_string(runs) +
         " runs (" + joined_cells(use.value("used_by", json::array())) + "), placed " + times(placed) + " " +
         area_clause(use, false);
}

void add_variant_uses(json& report, const std::optional<std::vector<AddedArea>>& variant) {
  if (!variant || !report.contains("units")) return;
  const json counted = report.value("added_instructions", json(nullptr));
  json uses = json::array();
  for (const AddedArea& line : *variant) {
    if (line.kind != "instruction") continue;
    json use = {{"name", line.name}, {"static", nullptr}, {"executions", nullptr}, {"mm2", area_of(report, line)}};
    if (!line.unpriced.empty()) use["unpriced"] = line.unpriced;
    if (counted.is_object()) {
      const json c = counted.value(line.name, json::object());
      use["static"] = c.value("static", uint64_t(0));
      use["executions"] = c.value("executions", uint64_t(0));
    }
    use["text"] = variant_use_text(use);
    uses.push_back(use);
  }
  if (!uses.empty()) report["isa_variant_uses"] = uses;
}

std::string variant_use_text(const json& use) {
  const std::string name = use.value("name", "");
  if (!use.contains("static") || !use["static"].is_number())
    return name + ": added " + area_clause(use, false) + "; the platform does not count its uses";
  const uint64_t placed = use["static"].get<uint64_t>(), executed = use.value("executions", uint64_t(0));
  if (placed == 0) return name + ": added, 0 uses " + area_clause(use, true);
  if (executed == 0) return name + ": placed " + times(placed) + ", never executed " + area_clause(use, true);
  return name + ": placed " + times(placed) + ", executed " + times(executed) + " " + area_clause(use, false);
}

json suite_variant_uses(const std::vector<json>& records) {
  json totals = json::array();
  for (const json& r : records) {
    if (!r.is_object() || !r.contains("isa_variant_uses") || !r["isa_variant_uses"].is_array()) continue;
    const std::string cell = r.value("task", std::string("?")) + "/" + r.value("config", std::string("?"));
    for (const json& use : r["isa_variant_uses"]) {
      const std::string name = use.value("name", "");
      json* total = nullptr;
      for (json& t : totals)
        if (t["name"] == name) total = &t;
      if (!total) {
        totals.push_back({{"name", name},
                          {"static", 0},
                          {"executions", 0},
                          {"runs", 0},
                          {"runs_using", 0},
                          {"used_by", json::array()},
                          {"mm2", use.value("mm2", json(nullptr))}});
        if (use.contains("unpriced")) totals.back()["unpriced"] = use["unpriced"];
        total = &totals.back();
      }
      if (!use.value("static", json(nullptr)).is_number()) continue;  // the platform counts none
      const uint64_t executed = use.value("executions", uint64_t(0));
      (*total)["static"] = (*total)["static"].get<uint64_t>() + use.value("static", uint64_t(0));
      (*total)["executions"] = (*total)["executions"].get<uint64_t>() + executed;
      (*total)["runs"] = (*total)["runs"].get<uint64_t>() + 1;
      if (executed > 0) {
        (*total)["runs_using"] = (*total)["runs_using"].get<uint64_t>() + 1;
        (*total)["used_by"].push_back(cell);
      }
    }
  }
  for (json& t : totals) t["text"] = suite_variant_use_text(t);
  return totals;
}

std::string variant_uses_text(const json& uses, const std::string& indent) {
  std::string out;
  for (const json& u : uses) out += indent + "isa variant:  " + u.value("text", std::string()) + "\n";
  return out;
}

}  // namespace tlmcraft::harness
