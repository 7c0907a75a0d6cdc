#include "agent/tool_text.h"

#include <algorithm>
#include <cstdio>
#include <sstream>

namespace tlmcraft::agent {
namespace {

using nlohmann::json;

std::string num(const json& v) {
  if (v.is_null()) return "n/a";
  if (v.is_number_integer() || v.is_number_unsigned()) return v.dump();
  if (v.is_number_float()) {
    char buf[32];
    std::snprintf(buf, sizeof buf, "%.6g", v.get<double>());
    return buf;
  }
  if (v.is_string()) return v.get<std::string>();
  return v.dump();
}

std::string index_text(const json& index) {
  if (!index.is_array()) return num(index);
  std::string s = "[";
  for (size_t i = 0; i < index.size(); ++i) s += (i ? "," : "") + num(index[i]);
  return s + "]";
}

// The trial whose check view_output shows: the last checked one (evaluate() stops at the
// first failing trial, so that is the failing one when there is one).
const json* checked_trial(const json& report) {
  const json* found = nullptr;
  if (report.contains("trials") && report["trials"].is_array())
    for (const auto& t : report["trials"])
      if (t.contains("check")) found = &t;
  return found;
}

bool is_scalar(const json& v) { return !v.is_object() && !v.is_array(); }

// Reads of a register before its in-flight result landed, per core, from a platform
// without register interlocks (report memory.cores.<core>.pipeline, mode "exposed"): on
// such a core the read sees the old value, so these lines explain wrong outputs.
std::string early_reads_text(const json& report) {
  const json mem = report.value("memory", json::object());
  if (!mem.is_object() || !mem.contains("cores") || !mem["cores"].is_object()) return "";
  std::ostringstream o;
  for (const auto& [core, stats] : mem["cores"].items()) {
    if (!stats.is_object() || !stats.contains("pipeline") || !stats["pipeline"].is_object()) continue;
    const json& p = stats["pipeline"];
    if (p.value("mode", "") != "exposed" || p.value("early_reads", 0) == 0) continue;
    o << "\n"
      << core << ": " << num(p["early_reads"])
      << " read(s) of a register before its result landed (no interlocks: they read the old value)";
    for (const auto& n : p.value("notes", json::array())) o << "\n  " << num(n);
  }
  return o.str();
}

}  // namespace

std::string fixed(double v, int digits) {
  char buf[64];
  std::snprintf(buf, sizeof buf, "%.*f", digits, v);
  return buf;
}

double report_match_rate(const json& report) {
  double rate = -1;
  if (report.contains("trials") && report["trials"].is_array())
    for (const auto& t : report["trials"])
      if (t.contains("check")) {
        const double r = t["check"].value("match_rate", 0.0);
        rate = rate < 0 ? r : std::min(rate, r);
      }
  return rate;
}

std::string evaluation_text(const json& report) {
  std::ostringstream o;
  const std::string status = report.value("status", "?");
  o << "status: " << status;
  const double rate = report_match_rate(report);
  if (rate >= 0) o << "  match_rate: " << fixed(rate * 100.0, 2) << "%";
  if (status != "assemble_error" && report.contains("cycles")) {
    o << "  cycles: " << num(report["cycles"]);
    if (report.contains("baseline_cycles") && !report["baseline_cycles"].is_null()) {
      o << " (baseline " << num(report["baseline_cycles"]);
      if (report.contains("speedup") && report["speedup"].is_number())
        o << ", speedup " << fixed(report["speedup"].get<double>(), 2) << "x";
      o << ")";
    }
  }
  if (report.contains("isa_variant_uses"))  // what the ISA variant's instructions did
    for (const auto& u : report["isa_variant_uses"]) o << "\nisa variant: " << u.value("text", std::string());
  if (status != "pass") o << "\nreason: " << report.value("reason", "") << early_reads_text(report);
  if (status == "assemble_error" && report.contains("assemble")) {
    const auto& d = report["assemble"].value("diagnostics", json::array());
    for (size_t i = 0; i < d.size() && i < 5; ++i) o << "\n  " << num(d[i]);
    if (d.size() > 5) o << "\n  (" << d.size() - 5 << " more; call check_syntax)";
  }
  return o.str();
}

std::string output_text(const json& report, size_t max_rows) {
  std::ostringstream o;
  const std::string status = report.value("status", "?");
  const json* trial = checked_trial(report);
  if (!trial) {
    o << "no outputs to show: status " << status << ": " << report.value("reason", "");
    if (report.contains("trials") && !report["trials"].empty()) {
      const auto& t = report["trials"].back();
      if (!t.value("message", "").empty()) o << "\n" << t.value("message", "");
    }
    return o.str();
  }
  const json& c = (*trial)["check"];
  const double elements = c.value("elements", 0.0);
  const double mism = c.value("mismatches", 0.0);
  o << "trial seed " << num((*trial)["seed"]) << ": " << trial->value("summary", "") << "\n";
  o << "mismatching: " << (elements > 0 ? fixed(100.0 * mism / elements, 2) : "0.00") << "% (" << num(c["mismatches"])
    << " of " << num(c["elements"]) << ")  unwritten: " << num(c["unwritten"]) << "  non-finite: " << num(c["non_finite"])
    << "\nmse: " << num(c["mse"]) << "  max_abs_err: " << num(c["max_abs_err"]) << "  max_rel_err: " << num(c["max_rel_err"])
    << "\n";
  const json rows = c.value("rows", json::array());
  if (!rows.empty()) {
    // With many rows, the mismatching ones are the interesting ones.
    std::vector<const json*> shown;
    if (rows.size() <= max_rows) {
      for (const auto& r : rows) shown.push_back(&r);
    } else {
      for (const auto& r : rows)
        if (r.value("mismatches", 0) > 0 && shown.size() < max_rows) shown.push_back(&r);
      for (const auto& r : rows)
        if (shown.size() < max_rows && r.value("mismatches", 0) == 0) shown.push_back(&r);
      std::sort(shown.begin(), shown.end(), [&](const json* a, const json* b) {
        return std::make_pair((*a)["tensor"].dump(), (*a).value("row", 0)) <
               std::make_pair((*b)["tensor"].dump(), (*b).value("row", 0));
      });
    }
    o << "rows (got min..max nonzero | want min..max nonzero | mismatches):\n";
    for (const json* r : shown) {
      o << "  " << num((*r)["tensor"]) << "[" << num((*r)["row"]) << "]: " << num((*r)["got_min"]) << ".."
        << num((*r)["got_max"]) << " nz " << num((*r)["got_nonzero"]) << " | " << num((*r)["want_min"]) << ".."
        << num((*r)["want_max"]) << " nz " << num((*r)["want_nonzero"]) << " | " << num((*r)["mismatches"]) << "\n";
    }
    if (shown.size() < rows.size()) {
      size_t bad = 0;
      for (const auto& r : rows) bad += r.value("mismatches", 0) > 0;
      o << "  (" << rows.size() - shown.size() << " more rows not shown; " << bad << " of " << rows.size()
        << " rows have mismatches)\n";
    }
  }
  const json first = c.value("first_mismatches", json::array());
  if (!first.empty()) {
    o << "first mismatches:\n";
    for (const auto& m : first) {
      o << "  " << num(m["tensor"]) << index_text(m["index"]) << ": got " << (m.value("unwritten", false) ? "unwritten" : num(m["got"]))
        << " want " << num(m["want"]) << "\n";
    }
  }
  std::string s = o.str();
  if (!s.empty() && s.back() == '\n') s.pop_back();
  return s;
}

std::string profile_text(const json& report) {
  std::ostringstream o;
  const std::string status = report.value("status", "?");
  if (status == "assemble_error" || !report.contains("cycles")) {
    o << "no profile: the kernel did not run (status " << status << ")";
    return o.str();
  }
  o << "cycles: " << num(report["cycles"]) << "  instructions: " << num(report.value("instructions", json()));
  if (status != "pass") o << "  (status " << status << ": profile of the first trial)";
  o << "\n";
  const json units = report.value("units", json::array());
  if (!units.empty()) {
    o << "units (instructions, busy, stall, utilisation):\n";
    for (const auto& u : units)
      o << "  " << num(u["name"]) << ": " << num(u["instructions"]) << " instr, busy " << num(u["busy_cycles"])
        << ", stall " << num(u["stall_cycles"]) << ", util " << fixed(100.0 * u.value("utilisation", 0.0), 1) << "%\n";
  }
  const json hot = report.value("hot_lines", json::array());
  if (!hot.empty()) {
    o << "hottest lines (cycles, executions):\n";
    for (const auto& h : hot)
      o << "  line " << num(h["line"]) << ": " << num(h["cycles"]) << " cycles, " << num(h["executions"]) << "x  "
        << num(h["text"]) << "\n";
  }
  const json mem = report.value("memory", json::object());
  if (mem.is_object() && mem.contains("phases") && mem["phases"].is_array()) {
    // Multi-phase kernels (AIE-ML `.phase`): where each stage's time goes.
    o << "phases (start .. end cycle, cycles):\n";
    for (const auto& ph : mem["phases"]) {
      const uint64_t b = ph.value("start_cycle", uint64_t(0)), e = ph.value("end_cycle", uint64_t(0));
      o << "  " << num(ph.value("name", json())) << ": " << b << " .. " << e << ", " << (e - b) << "\n";
    }
  }
  if (mem.is_object() && !mem.empty()) {
    // Only what moved: zero counters and the repeated name are left out.
    std::ostringstream m;
    for (const auto& [name, stats] : mem.items()) {
      std::string fields;
      if (stats.is_object())
        for (const auto& [k, v] : stats.items())
          if (k != "name" && v.is_number() && v.get<double>() != 0) fields += " " + k + " " + num(v);
      if (!fields.empty()) m << "  " << name << ":" << fields << "\n";
    }
    if (!m.str().empty()) o << "memory traffic (non-zero counters):\n" << m.str();
  }
  std::string s = o.str();
  if (!s.empty() && s.back() == '\n') s.pop_back();
  return s + early_reads_text(report);
}

std::string yaml_text(const json& value, int indent) {
  std::ostringstream o;
  const std::string pad(size_t(indent), ' ');
  auto inline_array = [](const json& a) {
    std::string s = "[";
    for (size_t i = 0; i < a.size(); ++i) s += (i ? ", " : "") + num(a[i]);
    return s + "]";
  };
  if (value.is_object()) {
    for (const auto& [k, v] : value.items()) {
      if (is_scalar(v)) o << pad << k << ": " << num(v) << "\n";
      else if (v.is_array() && std::all_of(v.begin(), v.end(), is_scalar)) o << pad << k << ": " << inline_array(v) << "\n";
      else o << pad << k << ":\n" << yaml_text(v, indent + 2);
    }
  } else if (value.is_array()) {
    for (const auto& v : value) {
      if (is_scalar(v)) o << pad << "- " << num(v) << "\n";
      else o << pad << "-\n" << yaml_text(v, indent + 2);
    }
  } else {
    o << pad << num(value) << "\n";
  }
  return o.str();
}

}  // namespace tlmcraft::agent
