// The toy suite of the co-design tests: two PLENA kernels, three candidates and a
// scripted suite runner whose cycles are 10 per instruction line of the kernel it is
// given (so they follow the real rewriting) and whose energy is 2 pJ per cycle + 100 pJ.
// With charge_latency, a line of an added instruction costs 10 plus the cycles of its
// latency class in the overlay the runner is given.
#pragma once
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include <yaml-cpp/yaml.h>

#include <map>

#include "agent/codesign/explorer.h"
#include "agent/codesign/overlay_yaml.h"

namespace tlmcraft::agent::codesign::toy {

namespace fs = std::filesystem;
using nlohmann::json;

inline const json kHardware = {{"platform", "plena"}, {"config", {{"arch", {{"vlen", 64}}}}}};

// ta: exp then reciprocal through row 128 (6 lines -> 5 with CD0).
inline const char* kTaskA =
    "S_ADDI_INT gp1, gp0, 0\nS_ADDI_INT gp2, gp0, 1024\nS_ADDI_INT gp3, gp0, "
    "128\n"
    "V_EXP_V gp3, gp1, 0\nV_RECI_V gp2, gp3, 0\nH_STORE_V gp2, gp0, a1, 0, 2\n";
// tb: x*x + x then exp through rows 128 and 192 (8 lines -> 6 with CD1).
inline const char* kTaskB =
    "S_ADDI_INT gp1, gp0, 0\nS_ADDI_INT gp2, gp0, "
    "1024\nS_ADDI_INT gp3, gp0, 128\n"
    "S_ADDI_INT gp4, gp0, 192\nV_MUL_VV gp3, gp1, gp1, "
    "0\nV_ADD_VV gp4, gp3, gp1, 0\n"
    "V_EXP_V gp2, gp4, 0\nH_STORE_V gp2, gp0, a1, 0, 2\n";

inline ExploreCandidate candidate(const std::string& name, double area, std::vector<std::string> temps,
                                  std::vector<std::string> steps, json operands) {
  json ins = {{"mnemonic", name}, {"operands", operands}, {"compose", {{"temps", temps}, {"steps", steps}}}};
  json lc = {{"name", "codesign_" + name}, {"cycles", 1}};
  return {name, {{"isa", "plena"}, {"instructions", {ins}}, {"latency_classes", {lc}}}, area};
}

inline std::vector<ExploreCandidate> candidates() {
  const json two = json::array({{{"name", "rd"}, {"kind", "gp"}}, {{"name", "rs1"}, {"kind", "gp"}}});
  const json three = json::array(
      {{{"name", "rd"}, {"kind", "gp"}}, {{"name", "rs1"}, {"kind", "gp"}}, {{"name", "rs2"}, {"kind", "gp"}}});
  return {candidate("CD0", 0.01, {"t0"}, {"V_EXP_V t0, rs1, 0", "V_RECI_V rd, t0, 0"}, two),
          candidate("CD1", 0.02, {"t0", "t1"},
                    {"V_MUL_VV t0, rs1, rs1, 0", "V_ADD_VV t1, t0, rs1, 0", "V_EXP_V rd, t1, 0"}, two),
          candidate("CD2", 0.005, {"t0"}, {"V_SUB_VV t0, rs1, rs2, 0", "V_EXP_V rd, t0, 0"}, three)};
}

inline int instruction_lines(const fs::path& file) {
  std::ifstream in(file);
  int n = 0;
  for (std::string l; std::getline(in, l);)
    if (l.find_first_not_of(" \t") != std::string::npos) ++n;
  return n;
}

// Mnemonic -> the cycles of its latency class, from an overlay file (none: empty).
inline std::map<std::string, int> declared_cycles(const std::string& overlay) {
  std::map<std::string, int> out;
  if (overlay.empty()) return out;
  const json doc = json_of_yaml(YAML::LoadFile(overlay));
  std::map<std::string, int> classes;
  for (const json& c : doc.value("latency_classes", json::array())) classes[c["name"]] = c["cycles"].get<int>();
  for (const json& i : doc.value("instructions", json::array()))
    out[i["mnemonic"]] = classes.at(i.value("latency_class", "codesign_" + i["mnemonic"].get<std::string>()));
  return out;
}

// The latency the added instructions in a kernel add: each line's declared cycles.
inline int added_latency(const fs::path& file, const std::map<std::string, int>& cycles) {
  std::ifstream in(file);
  int n = 0;
  for (std::string l; std::getline(in, l);) {
    const std::string op = l.substr(0, l.find(' '));
    if (cycles.count(op)) n += cycles.at(op);
  }
  return n;
}

struct ScriptedSuite {
  int calls = 0;
  std::string failing_overlay_word;  // a variant whose overlay mentions it fails task tb
  bool charge_latency = false;       // an added instruction's line costs 10 + its declared cycles
  SuiteRunner runner() {
    return [this](const std::string& kernels, const std::string& overlay, const std::string& results) {
      ++calls;
      std::string text;
      if (!overlay.empty()) {
        std::ifstream in(overlay);
        text.assign(std::istreambuf_iterator<char>(in), {});
      }
      const std::map<std::string, int> latency =
          charge_latency ? declared_cycles(overlay) : std::map<std::string, int>{};
      std::ofstream out(results);
      for (const char* task : {"ta", "tb"}) {
        const fs::path kernel = fs::path(kernels) / "plena" / task / "C1.asm";
        const int cycles = 10 * instruction_lines(kernel) + added_latency(kernel, latency);
        json r = {{"task", task},
                  {"config", "C1"},
                  {"status", "pass"},
                  {"cycles", cycles},
                  {"energy", {{"total_pj", 2.0 * cycles + 100}}}};
        if (!failing_overlay_word.empty() && text.find(failing_overlay_word) != std::string::npos &&
            task == std::string("tb")) {
          r["status"] = "fail";
          r["reason"] = "match 0%";
          r["seeds"] = {100, 101, 102};  // bench's trials: consecutive seeds, stopped at the first failure
          r["trials"] = json::array({{{"seed", 100}, {"status", "pass"}}, {{"seed", 101}, {"status", "fail"}}});
        }
        out << r.dump() << "\n";
      }
      return results;
    };
  }
};

inline std::vector<SuiteCell> suite_cells() { return {{"ta", "C1", kTaskA, ".asm"}, {"tb", "C1", kTaskB, ".asm"}}; }

inline const DataflowAdapter& plena() {
  const DataflowAdapter* a = find_dataflow_adapter("plena");
  if (!a) throw std::runtime_error("no plena adapter");
  return *a;
}

}  // namespace tlmcraft::agent::codesign::toy
