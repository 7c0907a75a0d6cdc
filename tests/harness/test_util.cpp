#include "tests/harness/test_util.h"

#include <fstream>
#include <sstream>

namespace tlmcraft::harness::test {

std::string read_text(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  std::ostringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

void write_text(const std::string& path, const std::string& text) {
  std::ofstream out(path, std::ios::binary | std::ios::trunc);
  out << text;
}

std::vector<std::string> read_lines(const std::string& path) {
  std::vector<std::string> lines;
  std::istringstream in(read_text(path));
  std::string line;
  while (std::getline(in, line)) lines.push_back(line);
  return lines;
}

namespace {

nlohmann::json record(const std::string& platform, const std::string& task, int level, const std::string& config,
                      const std::string& kernel, const std::string& status) {
  nlohmann::json r = {{"schema", "tlmcraft.report/1"}, {"platform", platform}, {"task", task}, {"level", level},
                      {"config", config}, {"status", status}, {"reason", ""}};
  r["kernel"] = kernel == "baseline" ? nlohmann::json{{"path", nullptr}, {"source", "baseline"}}
                                     : nlohmann::json{{"path", kernel}, {"source", "file"}};
  r["job"] = {{"platform", platform}, {"task", task}, {"config", config}, {"kernel", kernel}};
  return r;
}

nlohmann::json timed(nlohmann::json r, int cycles, int baseline, nlohmann::json speedup) {
  r["cycles"] = cycles;
  r["baseline_cycles"] = baseline;
  r["speedup"] = speedup;
  return r;
}

}  // namespace

std::vector<nlohmann::json> hand_made_records() {
  using nlohmann::json;
  std::vector<json> rs;
  json silu1 = timed(record("plena", "silu", 1, "C1", "baseline", "pass"), 50, 100, 2.0);
  silu1["units"] = json::array({{{"name", "vector"}, {"instructions", 8}, {"busy_cycles", 25}, {"stall_cycles", 1},
                                 {"utilisation", 0.5}},
                                {{"name", "scalar"}, {"instructions", 10}, {"busy_cycles", 10}, {"stall_cycles", 0},
                                 {"utilisation", 0.2}}});
  rs.push_back(silu1);
  rs.push_back(timed(record("plena", "silu", 1, "C2", "baseline", "pass"), 200, 100, 0.5));
  json silu3 = timed(record("plena", "silu", 1, "C3", "baseline", "fail"), 30, 100, 3.33);  // failing: speedup ignored
  silu3["reason"] = "match 0.00% (256 of 256 wrong; output never written: 256)";
  rs.push_back(silu3);
  rs.push_back(timed(record("plena", "silu", 1, "C4", "baseline", "pass"), 100, 100, 1.0));
  json silu5 = record("plena", "silu", 1, "C5", "baseline", "timeout");
  silu5["reason"] = "worker exceeded the per-job timeout of 300 s and was killed";
  rs.push_back(silu5);
  // gemm C1 has no "speedup" field: it is derived from the cycles, 100 / 25 = 4.
  json gemm1 = record("plena", "gemm", 1, "C1", "baseline", "pass");
  gemm1["cycles"] = 25;
  gemm1["baseline_cycles"] = 100;
  rs.push_back(gemm1);
  rs.push_back(record("plena", "gemm", 1, "C2", "baseline", "crash"));  // replaced by the later line
  json gemm2 = record("plena", "gemm", 1, "C2", "baseline", "assemble_error");
  gemm2["reason"] = "k.asm:3:5: error: unknown mnemonic 'V_FOO' <expected V_ADD>";
  rs.push_back(gemm2);
  rs.push_back(record("plena", "conv2d", 1, "C1", "baseline", "unsupported"));
  rs.push_back(record("plena", "conv2d", 1, "C2", "baseline", "unsupported"));
  rs.push_back(timed(record("plena", "ffn", 2, "C1", "baseline", "pass"), 200, 300, 1.5));
  rs.push_back(record("plena", "ffn", 2, "C2", "baseline", "fail"));
  // coral relu: five samples per config. C1: k1 (3x) and k2 (2x) pass; C2: none; C3: all (1x).
  for (int k = 1; k <= 5; ++k) {
    const std::string kernel = "samples/k" + std::to_string(k) + ".asm";
    if (k == 1) rs.push_back(timed(record("coral", "relu", 1, "C1", kernel, "pass"), 10, 30, 3.0));
    else if (k == 2) rs.push_back(timed(record("coral", "relu", 1, "C1", kernel, "pass"), 15, 30, 2.0));
    else rs.push_back(record("coral", "relu", 1, "C1", kernel, "fail"));
    rs.push_back(record("coral", "relu", 1, "C2", kernel, "fail"));
    rs.push_back(timed(record("coral", "relu", 1, "C3", kernel, "pass"), 40, 40, 1.0));
  }
  return rs;
}

size_t count(const std::string& text, const std::string& what) {
  size_t n = 0;
  for (size_t at = text.find(what); at != std::string::npos; at = text.find(what, at + 1)) ++n;
  return n;
}

nlohmann::json run_record(const std::string& task, uint64_t cycles, const std::string& variant, const std::string& bw) {
  using nlohmann::json;
  json r = {{"platform", "plena"}, {"task", task}, {"config", "C1"}, {"level", 1}, {"status", "pass"},
            {"cycles", cycles}, {"instructions", 10}, {"speedup", 1.0}, {"baseline_cycles", cycles}};
  r["job"] = {{"platform", "plena"}, {"task", task}, {"config", "C1"}, {"kernel", "baseline"}, {"variant", variant}};
  r["provenance"] = {{"variant", variant}, {"platform_config", "default"}, {"config_fnv1a64", "00ff"},
                     {"overrides", {{"timing.dma.prefetch.bytes_per_cycle", bw}}}};
  r["units"] = json::array({{{"name", "tile(0,0).core"}, {"busy_cycles", cycles / 2}, {"stall_cycles", 3}},
                            {{"name", "tile(1,0).core"}, {"busy_cycles", cycles / 4}, {"stall_cycles", 4}}});
  r["memory"] = {{"ddr", {{"row_hits", 7}, {"row_misses", 2}}}, {"cores", {{"t", {{"stall_lock", 5}, {"stall_bank", 6}}}}}};
  r["energy"] = {{"total_pj", 2000.0}, {"average_power_mw", 3.5}};
  r["roofline"] = {{"ops", 100.0}, {"offchip_bytes", 50.0}, {"operational_intensity", 2.0}, {"ops_per_cycle", 1.0},
                   {"offchip_bytes_per_cycle", 0.5}, {"peak_ops_per_cycle", 16.0}, {"peak_offchip_bytes_per_cycle", 4.0},
                   {"fraction_of_peak", 0.0625}, {"bound", "memory"}};
  return r;
}

}  // namespace tlmcraft::harness::test
