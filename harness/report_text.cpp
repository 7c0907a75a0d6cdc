#include "harness/report_text.h"

#include <iomanip>
#include <sstream>

#include "harness/variant_uses.h"

namespace tlmcraft {
namespace {

std::string pct(double v) {
  std::ostringstream os;
  os << std::fixed << std::setprecision(1) << 100.0 * v << "%";
  return os.str();
}

std::string line_text(const isa::Program& prog, uint32_t line) {
  if (line == 0 || line > prog.source_lines.size()) return "";
  std::string s = prog.source_lines[line - 1];
  s = s.substr(0, s.find(';'));  // the instruction, without its comment
  const auto b = s.find_first_not_of(" \t");
  if (b == std::string::npos) return "";
  s = s.substr(b);
  return s.substr(0, s.find_last_not_of(" \t\r") + 1);
}

// The area line; under an ISA variant, what the variant adds (in the total), each line.
std::string area_text(const nlohmann::json& area) {
  std::ostringstream os;
  os << "  area:         " << std::fixed << std::setprecision(3) << area.value("total_mm2", 0.0) << " mm2 (estimate";
  if (area.contains("isa_extension")) {
    os << "; with the ISA variant's " << std::setprecision(6) << area["by_component"].value("isa_extension", 0.0)
       << " mm2";
    for (const auto& l : area["isa_extension"]) os << ", " << l.value("name", "") << " " << l.value("mm2", 0.0);
  }
  os << ")\n";
  for (const auto& u : area.value("unpriced", nlohmann::json::array()))
    os << "  area not priced (not in the total): " << u.get<std::string>() << "\n";
  return os.str();
}

}  // namespace

std::string format_run_text(const std::string& platform, const isa::Program& prog, const RunResult& r) {
  std::ostringstream os;
  os << platform << ": " << prog.source_name << "\n";
  os << "  stop:         " << to_string(r.stop) << (r.message.empty() ? "" : " - " + r.message) << "\n";
  os << "  cycles:       " << r.cycles << "\n";
  os << "  instructions: " << r.instructions;
  if (!r.instructions_by_class.empty()) {
    os << " (";
    bool first = true;
    for (const auto& [cls, n] : r.instructions_by_class) os << (first ? "" : ", ") << cls << " " << n, first = false;
    os << ")";
  }
  if (!r.macs_by_format.empty()) {
    os << "\n  MACs:        ";
    for (const auto& [format, n] : r.macs_by_format) os << " " << format << " " << n;
  }
  os << "\n  units:\n";
  for (const auto& u : r.units) {
    const double util = r.cycles ? double(u.busy_cycles) / double(r.cycles) : 0.0;
    os << "    " << std::left << std::setw(14) << u.name << std::right << std::setw(10) << u.instructions << " instr "
       << std::setw(10) << u.busy_cycles << " busy " << std::setw(8) << pct(util) << std::setw(10) << u.stall_cycles
       << " stall\n";
  }
  if (!r.lines.empty()) {
    os << "  hottest lines:\n";
    for (size_t i = 0; i < r.lines.size() && i < 5; ++i) {
      const auto& l = r.lines[i];
      os << "    line " << std::setw(4) << l.line << std::setw(10) << l.cycles << " cycles " << std::setw(8)
         << l.executions << "x  " << line_text(prog, l.line) << "\n";
    }
  }
  os << "  host time:    " << std::fixed << std::setprecision(3) << r.host_seconds << " s\n";
  return os.str();
}

std::string format_report_text(const nlohmann::json& j) {
  std::ostringstream os;
  os << j.value("platform", "?") << " / " << j.value("task", "?") << " / " << j.value("config", "?") << ": "
     << j.value("status", "?");
  if (j.contains("reason") && !j["reason"].get<std::string>().empty()) os << " - " << j["reason"].get<std::string>();
  os << "\n";
  if (j.contains("warnings") && j["warnings"].is_array())
    for (const auto& w : j["warnings"])
      os << "  warning: " << (w.is_string() ? w.get<std::string>() : w.dump()) << "\n";
  if (j.contains("assemble"))
    for (const auto& d : j["assemble"].value("diagnostics", nlohmann::json::array()))
      os << "  " << d.get<std::string>() << "\n";
  if (j.value("cycles", 0) > 0) {
    os << "  cycles:       " << j["cycles"].get<uint64_t>();
    if (j.contains("baseline_cycles") && !j["baseline_cycles"].is_null())
      os << " (baseline " << j["baseline_cycles"].get<uint64_t>() << ", speedup " << std::fixed << std::setprecision(3)
         << j["speedup"].get<double>() << "x)";
    if (j.contains("cycles_over_trials") && j["cycles_over_trials"].value("varies", false))
      os << " (max over trials; " << j["cycles_over_trials"]["min"].get<uint64_t>() << " .. "
         << j["cycles_over_trials"]["max"].get<uint64_t>() << ")";
    if (j.contains("last_transfer_cycle") && j["last_transfer_cycle"].is_number_unsigned())
      os << "\n  last transfer completes: cycle " << j["last_transfer_cycle"].get<uint64_t>();
    os << "\n  instructions: " << j.value("instructions", 0) << "\n";
    if (j.contains("macs_by_format") && j["macs_by_format"].is_object() && !j["macs_by_format"].empty()) {
      os << "  MACs:        ";
      for (const auto& [format, n] : j["macs_by_format"].items()) os << " " << format << " " << n.dump();
      os << "\n";
    }
  }
  if (j.contains("cycles_over_trials") && j["cycles_over_trials"]["flag"].is_string())
    os << "  FLAG: " << j["cycles_over_trials"]["flag"].get<std::string>() << "\n";
  if (j.contains("seeds") && j["seeds"].is_array()) {
    os << "  seeds:        ";
    for (size_t i = 0; i < j["seeds"].size(); ++i) os << (i ? ", " : "") << j["seeds"][i].dump();
    os << (j.value("seed_source", "") == "os" ? " (fresh from the OS; --seed " : " (fixed; --seed ")
       << (j["seeds"].empty() ? "" : j["seeds"][0].dump()) << " reproduces them)\n";
  }
  // The ISA overlays the run used (docs/isa-extensions.md): a kernel's figures depend on them.
  if (j.contains("provenance") && j["provenance"].is_object() && j["provenance"].contains("isa_ext"))
    for (const auto& f : j["provenance"]["isa_ext"])
      if (f.is_object())
        os << "  isa overlay:  " << f.value("path", std::string("?")) << " (sha256 "
           << f.value("sha256", std::string("?")) << ")\n";
  for (const auto& t : j.value("trials", nlohmann::json::array())) {
    os << "  trial seed " << t.value("seed", uint64_t(0)) << ": " << t.value("status", "?") << ", "
       << t.value("cycles", uint64_t(0)) << " cycles";
    if (t.contains("range") && t["range"].is_string()) os << ", " << t["range"].get<std::string>() << " inputs";
    if (t.contains("check")) {
      const auto& c = t["check"];
      os << "  match " << pct(c.value("match_rate", 0.0)) << "  max_abs_err " << c.value("max_abs_err", 0.0)
         << "  unwritten " << c.value("unwritten", 0);
    }
    if (!t.value("message", "").empty()) os << "  (" << t["message"].get<std::string>() << ")";
    os << "\n";
    for (const auto& w : t.value("outside_writes", nlohmann::json::array()))
      os << "    write outside the outputs: " << w.value("memory", "") << " bytes [" << w.value("first", uint64_t(0))
         << ", " << w.value("last", uint64_t(0)) << "] (" << w.value("changed_bytes", uint64_t(0))
         << " changed, first in " << w.value("where", "") << "): " << w.value("before", "") << " -> "
         << w.value("after", "") << "\n";
    if (t.contains("check"))
      for (const auto& m : t["check"].value("first_mismatches", nlohmann::json::array()))
        os << "    mismatch " << m.dump() << "\n";
  }
  // Multi-phase kernels (AIE-ML `.phase`): each phase's span, before the units it sums.
  if (j.contains("memory") && j["memory"].is_object())
    for (const auto& ph : j["memory"].value("phases", nlohmann::json::array())) {
      const uint64_t b = ph.value("start_cycle", uint64_t(0)), e = ph.value("end_cycle", uint64_t(0));
      os << "  phase " << std::left << std::setw(18) << ph.value("name", "") << std::right << " cycles " << b << " .. "
         << e << " (" << e - b << ")\n";
    }
  for (const auto& u : j.value("units", nlohmann::json::array()))
    os << "  unit " << std::left << std::setw(14) << u.value("name", "") << std::right << " busy "
       << u.value("busy_cycles", 0) << " (" << pct(u.value("utilisation", 0.0)) << ")\n";
  for (const auto& l : j.value("hot_lines", nlohmann::json::array()))
    os << "  hot line " << l.value("line", 0) << ": " << l.value("cycles", 0) << " cycles  " << l.value("text", "")
       << "\n";
  if (j.contains("energy") && j["energy"].is_object()) {
    const auto& e = j["energy"];
    os << "  energy:       " << std::fixed << std::setprecision(1) << e.value("total_pj", 0.0) / 1000 << " nJ, "
       << (e["average_power_mw"].is_number() ? e["average_power_mw"].get<double>() : 0.0) << " mW (estimate;";
    const nlohmann::json by = e.value("by_component", nlohmann::json::object());  // named: items() must not outlive it
    for (const auto& [c, pj] : by.items()) os << " " << c << " " << std::setprecision(1) << pj.get<double>() / 1000;
    os << " nJ)\n";
    // Performed actions the platform's table has no price for: the total leaves them out.
    const nlohmann::json unpriced = e.value("unpriced_actions", nlohmann::json::array());
    if (unpriced.is_array() && !unpriced.empty()) {
      os << "  warning:      actions without a price in ppa.energy (not in the energy):";
      for (const auto& a : unpriced) os << " " << (a.is_string() ? a.get<std::string>() : a.dump());
      os << "\n";
    }
  }
  if (j.contains("area") && j["area"].is_object()) os << area_text(j["area"]);
  if (j.contains("isa_variant_uses")) os << harness::variant_uses_text(j["isa_variant_uses"]);
  if (j.contains("roofline") && j["roofline"].is_object()) {
    const auto& r = j["roofline"];
    os << "  roofline:     " << std::setprecision(2) << r.value("ops_per_cycle", 0.0) << " ops/cycle of "
       << r.value("peak_ops_per_cycle", 0.0) << " peak (" << pct(r.value("fraction_of_peak", 0.0)) << "), "
       << r.value("offchip_bytes_per_cycle", 0.0) << " off-chip bytes/cycle, " << r.value("bound", std::string("?"))
       << " bound\n";
  }
  if (j.contains("traces"))
    for (const auto& [k, v] : j["traces"].items()) os << "  trace " << k << ": " << v.get<std::string>() << "\n";
  return os.str();
}

}  // namespace tlmcraft
