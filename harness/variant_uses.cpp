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

// A count or name of a record read back from a results file: what is not one reads as 0 / "?"
// (a hand-edited file must not stop a summary).
bool is_count(const json& v) { return v.is_number_unsigned() || (v.is_number_integer() && v.get<int64_t>() >= 0); }
uint64_t count_of(const json& j, const char* key) {
  const auto it = j.find(key);
  return it != j.end() && is_count(*it) ? it->get<uint64_t>() : 0;
}
bool counted(const json& j) {
  const auto it = j.find("static");
  return it != j.end() && is_count(*it);
}
std::string text_of(const json& j, const char* key) {
  const auto it = j.find(key);
  return it != j.end() && it->is_string() ? it->get<std::string>() : "?";
}
std::string name_of(const json& j) { return text_of(j, "name"); }

std::string times(uint64_t n) { return std::to_string(n) + (n == 1 ? " time" : " times"); }

// "(area +X mm2[ with no effect on cycles])", or why it has no price.
std::string area_clause(const json& use, bool no_effect) {
  std::ostringstream os;
  const bool priced = use.contains("mm2") && use["mm2"].is_number();
  if (priced)
    os << "(area +" << std::fixed << std::setprecision(6) << use["mm2"].get<double>() << " mm2";  // as the area line
  else
    os << "(area not priced: " << text_of(use, "unpriced");
  if (no_effect) os << (priced ? " with no effect on cycles" : "; no effect on cycles");
  os << ")";
  return os.str();
}

std::string joined_cells(const json& cells) {
  std::string s;
  size_t shown = 0;
  for (const json& c : cells) {
    if (shown == 5) return s + ", ...";
    s += (shown++ ? ", " : "") + (c.is_string() ? c.get<std::string>() : c.dump());
  }
  return s;
}

}  // namespace

std::string suite_variant_use_text(const json& use) {
  const std::string name = name_of(use);
  const uint64_t runs = count_of(use, "runs"), using_runs = count_of(use, "runs_using");
  const uint64_t placed = count_of(use, "static"), executed = count_of(use, "executions");
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
  const json counts = report.value("added_instructions", json(nullptr));
  json uses = json::array();
  for (const AddedArea& line : *variant) {
    if (line.kind != "instruction") continue;
    json use = {{"name", line.name}, {"static", nullptr}, {"executions", nullptr}, {"mm2", area_of(report, line)}};
    if (!line.unpriced.empty()) use["unpriced"] = line.unpriced;
    if (counts.is_object()) {
      const json c = counts.value(line.name, json::object());
      use["static"] = count_of(c, "static");
      use["executions"] = count_of(c, "executions");
    }
    use["text"] = variant_use_text(use);
    uses.push_back(use);
  }
  if (!uses.empty()) report["isa_variant_uses"] = uses;
}

std::string variant_use_text(const json& use) {
  const std::string name = name_of(use);
  if (!counted(use)) return name + ": added " + area_clause(use, false) + "; the platform does not count its uses";
  const uint64_t placed = count_of(use, "static"), executed = count_of(use, "executions");
  if (placed == 0) return name + ": added, 0 uses " + area_clause(use, true);
  if (executed == 0) return name + ": placed " + times(placed) + ", never executed " + area_clause(use, true);
  return name + ": placed " + times(placed) + ", executed " + times(executed) + " " + area_clause(use, false);
}

json suite_variant_uses(const std::vector<json>& records) {
  json totals = json::array();
  for (const json& r : records) {
    if (!r.is_object() || !r.contains("isa_variant_uses") || !r["isa_variant_uses"].is_array()) continue;
    const std::string cell = text_of(r, "task") + "/" + text_of(r, "config");
    for (const json& use : r["isa_variant_uses"]) {
      if (!use.is_object()) continue;
      const std::string name = name_of(use);
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
      if (!counted(use)) continue;  // the platform counts none
      const uint64_t executed = count_of(use, "executions");
      (*total)["static"] = (*total)["static"].get<uint64_t>() + count_of(use, "static");
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
  for (const json& u : uses)
    if (u.is_object() && u.contains("text") && u["text"].is_string())
      out += indent + "isa variant:  " + u["text"].get<std::string>() + "\n";
  return out;
}

}  // namespace tlmcraft::harness
