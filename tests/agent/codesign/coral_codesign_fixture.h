// Shared by the Coral codesign tests: the multiply-accumulate candidate cmac (as the miner
// writes it; examples/isa_ext/coral/mac.yaml), a Coral platform with an overlay, the
// platform's dataflow adapter and a kernel's evaluation at C1, alone or shipped ISA against
// a variant.
#pragma once
#include <cstdint>
#include <memory>
#include <nlohmann/json.hpp>
#include <stdexcept>
#include <string>
#include <vector>

#include "agent/codesign/kernel_dataflow.h"
#include "harness/evaluate.h"
#include "platforms/coral/coral_config.h"
#include "platforms/coral/coral_platform.h"
#include "tests/unique_temp_dir.h"

namespace tlmcraft::agent::codesign::coral_test {

using nlohmann::json;

inline const json kHardware = {{"platform", "coral"}, {"platform_config", "default"}};

// cmac as a mined candidate would carry it (custom-0, R4: rd = rs1 * rs2 + rs3).
inline json cmac_overlay() {
  json ops = json::array();
  ops.push_back({{"name", "rd"}, {"field", "rd"}, {"role", "write"}, {"value", "x"}});
  for (const char* r : {"rs1", "rs2", "rs3"})
    ops.push_back({{"name", r}, {"field", r}, {"role", "read"}, {"value", "x"}});
  json ins = {{"mnemonic", "cmac"},
              {"encoding", {{"opcode", "custom-0"}, {"format", "r4"}, {"funct3", 0}, {"funct2", 0}}},
              {"operands", ops},
              {"compose", {{"temps", {"t0"}}, {"steps", {"mul t0, rs1, rs2", "add rd, t0, rs3"}}}},
              {"timing", {{"unit", "mul"}, {"latency", 2}, {"ii", 1}}}};
  return {{"isa", "riscv"}, {"instructions", {ins}}};
}

// xsub: rd = (rs1 ^ rs2) - rs2 (custom-0, R), a chain no suite kernel here holds: an
// overlay the peephole places nowhere, so every image stays the shipped ISA's.
inline json xsub_overlay() {
  json ops = json::array();
  ops.push_back({{"name", "rd"}, {"field", "rd"}, {"role", "write"}, {"value", "x"}});
  for (const char* r : {"rs1", "rs2"}) ops.push_back({{"name", r}, {"field", r}, {"role", "read"}, {"value", "x"}});
  json ins = {{"mnemonic", "xsub"},
              {"encoding", {{"opcode", "custom-0"}, {"format", "r"}, {"funct3", 1}, {"funct7", 0}}},
              {"operands", ops},
              {"compose", {{"temps", {"t0"}}, {"steps", {"xor t0, rs1, rs2", "sub rd, t0, rs2"}}}},
              {"timing", {{"unit", "alu"}, {"latency", 1}, {"ii", 1}}}};
  return {{"isa", "riscv"}, {"instructions", {ins}}};
}

inline std::unique_ptr<coral::CoralPlatform> platform_with(const std::string& overlay) {
  coral::CoralConfig cfg = coral::load_coral_config("default");
  coral::set_isa_extensions(cfg, overlay.empty() ? std::vector<std::string>{} : std::vector<std::string>{overlay});
  return std::make_unique<coral::CoralPlatform>(cfg);
}

// The Coral dataflow adapter (what mine, explore and the search use).
inline const DataflowAdapter& coral_adapter() {
  const DataflowAdapter* a = find_dataflow_adapter("coral");
  if (!a) throw std::runtime_error("no coral adapter");
  return *a;
}

// The report of `kernel_path` for `task` at C1 on a platform with `overlay` ("" = none):
// `trials` trials from `seed`, no baseline run.
inline json evaluate_c1(const std::string& task, const std::string& overlay, const std::string& kernel_path,
                        uint64_t seed, int trials) {
  auto p = platform_with(overlay);
  EvalOptions o;
  o.platform = "coral";
  o.task = task;
  o.config = "C1";
  o.kernel_path = kernel_path;
  o.trials = trials;
  o.seed = seed;
  o.compare_baseline = false;
  return evaluate(*p, o);
}

// The C1 reports of `shipped_kernel` on the shipped ISA and of `variant_kernel` on the ISA
// with the overlay `overlay_yaml`, both `trials` trials from `seed`. Each kernel is written
// as `file` in a directory of its own (the extension gives the language).
struct ShippedAndVariantReports {
  json shipped, variant;
};
inline ShippedAndVariantReports evaluate_c1_shipped_and_variant(const std::string& task, const std::string& file,
                                                                const std::string& shipped_kernel,
                                                                const std::string& variant_kernel,
                                                                const std::string& overlay_yaml, uint64_t seed,
                                                                int trials) {
  const test::UniqueTempDir shipped("coral-shipped-" + task), variant("coral-variant-" + task);
  return {evaluate_c1(task, "", shipped.write(file, shipped_kernel), seed, trials),
          evaluate_c1(task, variant.write("overlay.yaml", overlay_yaml), variant.write(file, variant_kernel), seed,
                      trials)};
}

}  // namespace tlmcraft::agent::codesign::coral_test
