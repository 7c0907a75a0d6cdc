// Reads a Perfetto (Chrome trace-event) JSON file written by traces/perfetto_writer back
// into per-track slices, counters and flows, in cycles, and a VCD signal's changes, for
// platform trace tests.
#pragma once
#include <cmath>
#include <cstdint>
#include <fstream>
#include <map>
#include <sstream>
#include <string>
#include <utility>
#include <vector>

#include <nlohmann/json.hpp>

namespace tlmcraft::testing {

struct PerfettoSlice {
  std::string track, name;  // track: the thread name ("vector_lsu", "hbm.channel3")
  uint64_t begin = 0, end = 0;
  nlohmann::json args;
};

struct PerfettoFlow {
  std::string name, from_track, to_track;
  uint64_t from = 0, to = 0;  // cycles
};

struct PerfettoTrace {
  nlohmann::json json;
  std::vector<PerfettoSlice> slices;
  std::map<std::string, std::vector<std::pair<uint64_t, int64_t>>> counters;  // by track name: (cycle, value)
  std::vector<PerfettoFlow> flows;
  std::vector<std::string> tracks;  // thread names, counters included

  std::vector<PerfettoSlice> on(const std::string& track) const {
    std::vector<PerfettoSlice> out;
    for (const auto& s : slices)
      if (s.track == track) out.push_back(s);
    return out;
  }
  // The counter's value at `cycle` (its last sample at or before it; 0 before any).
  int64_t value_at(const std::string& counter, uint64_t cycle) const {
    int64_t v = 0;
    auto it = counters.find(counter);
    if (it == counters.end()) return v;
    for (const auto& [c, x] : it->second)
      if (c <= cycle) v = x;
    return v;
  }
};

// `ns_per_cycle`: the trace's clock period (ts is in microseconds).
inline PerfettoTrace read_perfetto(const std::string& path, double ns_per_cycle = 1.0) {
  PerfettoTrace t;
  std::ifstream in(path);
  t.json = nlohmann::json::parse(in);
  auto cycle = [&](double us) { return uint64_t(std::llround(us * 1000.0 / ns_per_cycle)); };
  std::map<std::pair<int, int>, std::string> thread;
  for (const auto& e : t.json["traceEvents"])
    if (e["ph"] == "M" && e["name"] == "thread_name") {
      std::string name = e["args"]["name"];
      const size_t lane = name.find(" #");  // lanes of one track: "vector", "vector #2"
      if (lane != std::string::npos) name.resize(lane);
      thread[{e["pid"].get<int>(), e["tid"].get<int>()}] = name;
      t.tracks.push_back(name);
    }
  std::map<int64_t, PerfettoFlow> flows;
  for (const auto& e : t.json["traceEvents"]) {
    const std::string ph = e["ph"];
    if (ph == "X") {
      PerfettoSlice s;
      s.track = thread[{e["pid"].get<int>(), e["tid"].get<int>()}];
      s.name = e["name"];
      s.begin = e["args"]["begin_cycle"];
      s.end = e["args"]["end_cycle"];
      s.args = e["args"];
      t.slices.push_back(s);
    } else if (ph == "C") {
      std::string name = e["name"];
      t.counters[name].push_back({cycle(e["ts"]), e["args"]["value"].get<int64_t>()});
    } else if (ph == "s" || ph == "f") {
      PerfettoFlow& f = flows[e["id"].get<int64_t>()];
      f.name = e["name"];
      (ph == "s" ? f.from_track : f.to_track) = thread[{e["pid"].get<int>(), e["tid"].get<int>()}];
      (ph == "s" ? f.from : f.to) = cycle(e["ts"]);
    }
  }
  for (auto& [_, f] : flows) t.flows.push_back(f);
  return t;
}

// A signal's value changes in a VCD file written by traces/vcd_writer, by its scope path
// ("plena.hbm.row_hits.value"): (time, value) from $dumpvars on. Times are VCD units
// (cycles for a 1 ns clock).
inline std::vector<std::pair<uint64_t, int64_t>> vcd_changes(const std::string& path, const std::string& signal) {
  std::ifstream in(path);
  std::string line, id;
  std::vector<std::string> scope;
  std::vector<std::pair<uint64_t, int64_t>> out;
  uint64_t time = 0;
  bool body = false;
  while (std::getline(in, line)) {
    if (!body) {
      if (line.rfind("$scope module ", 0) == 0) scope.push_back(line.substr(14, line.find(' ', 14) - 14));
      if (line.rfind("$upscope", 0) == 0) scope.pop_back();
      if (line.rfind("$var ", 0) == 0) {  // $var <type> <width> <id> <name> $end
        std::istringstream ss(line.substr(5));
        std::string type, width, var_id, name, full;
        ss >> type >> width >> var_id >> name;
        for (const auto& s : scope) full += s + ".";
        if (full + name == signal) id = var_id;
      }
      if (line.rfind("$enddefinitions", 0) == 0) body = true;
      continue;
    }
    if (line.empty()) continue;
    if (line[0] == '#') time = std::stoull(line.substr(1));
    if (line[0] == 'b' && !id.empty()) {
      const size_t space = line.find(' ');
      if (line.substr(space + 1) == id) out.push_back({time, int64_t(std::stoll(line.substr(1, space - 1), nullptr, 2))});
    }
  }
  return out;
}

}  // namespace tlmcraft::testing
