#include "platforms/aie_ml/aie_config.h"

#include <filesystem>
#include <sstream>

#include <yaml-cpp/yaml.h>

#include "models/yaml_config.h"
#include "platforms/platform.h"
#include "platforms/config_reader.h"
#include "platforms/platform_config.h"

namespace tlmcraft::aie_ml {
namespace {

uint32_t u32(ConfigSection& s, const char* key, uint64_t lo, uint64_t hi) {
  return static_cast<uint32_t>(s.size(key, lo, hi));
}

// `memory_key`: the tile's data memory size key ("" when the tile kind has none).
TileKindConfig tile_kind(ConfigSection& s, const std::string& section, const char* memory_key) {
  TileKindConfig t;
  if (*memory_key) {
    t.memory_bytes = u32(s, memory_key, 1024, 1u << 24);
    t.banks = u32(s, "banks", 1, 64);
    if (t.memory_bytes % (t.banks * 16)) s.fail(s.yaml(), section + " memory must divide into banks of whole 128-bit words");
  }
  t.locks = u32(s, "locks", 1, 64);
  t.mm2s_channels = u32(s, "mm2s_channels", 0, 16);
  t.s2mm_channels = u32(s, "s2mm_channels", 0, 16);
  t.dma_dims = u32(s, "dma_dims", 1, 4);
  return t;
}

AieConfig read_aie_config(const ConfigTree& tree) {
  AieConfig c;
  c.name = tree.name();
  ConfigSection top(tree);
  top.skip("platform");
  top.skip("ppa");  // energy and area tables, read by the harness (harness/ppa_model.h)
  c.clock_ns = top.num<double>("clock_ns", 1e-3, 1e6);
  ConfigSection array = top.sub("array");
  c.columns = u32(array, "columns", 1, 64);
  c.rows = u32(array, "rows", 1, 16);
  array.finish();
  ConfigSection compute = top.sub("compute");
  c.compute = tile_kind(compute, "compute", "data_memory_bytes");
  if (c.compute.dma_dims > 3) compute.fail(compute.yaml(), "compute.dma_dims is at most 3");
  c.program_memory_bytes = u32(compute, "program_memory_bytes", 16, 1u << 24);
  c.bundle_bytes = u32(compute, "bundle_bytes", 1, 256);
  if (compute.has("acc_read_cycles"))  // optional: older config files do not have it
    c.acc_read_cycles = u32(compute, "acc_read_cycles", 0, 16);
  if (compute.has("pipeline")) {  // optional: older config files do not have it
    const std::string mode = compute.text("pipeline");
    if (mode != "interlocked" && mode != "exposed")
      compute.fail(compute.yaml()["pipeline"], "compute.pipeline must be 'interlocked' or 'exposed', got '" + mode + "'");
    c.exposed_pipeline = mode == "exposed";
  }
  if (compute.has("branch_delay_nops"))  // optional: older config files do not have it
    c.branch_delay_nops = u32(compute, "branch_delay_nops", 0, 5);
  compute.finish();
  ConfigSection mem_tile = top.sub("mem_tile"), shim = top.sub("shim");
  c.mem_tile = tile_kind(mem_tile, "mem_tile", "bytes");
  c.shim = tile_kind(shim, "shim", "");
  if (shim.has("read_ahead_bytes")) {  // optional: older config files do not have it
    c.shim_read_ahead_bytes = u32(shim, "read_ahead_bytes", 0, 1u << 20);
    if (c.shim_read_ahead_bytes % 4)
      shim.fail(shim.yaml()["read_ahead_bytes"], "shim.read_ahead_bytes must be a multiple of 4");
  }
  mem_tile.finish();
  shim.finish();
  ConfigSection stream = top.sub("stream");
  c.stream_bytes_per_cycle = u32(stream, "bytes_per_cycle", 4, 64);
  if (c.stream_bytes_per_cycle % 4) stream.fail(stream.yaml(), "stream.bytes_per_cycle must be a multiple of 4");
  c.hop_cycles = u32(stream, "hop_cycles", 0, 1000);
  stream.finish();
  ConfigSection dma = top.sub("dma");
  c.bd_setup_cycles = u32(dma, "bd_setup_cycles", 0, 10000);
  c.lock_wake_cycles = u32(dma, "lock_wake_cycles", 0, 10000);
  dma.finish();
  ConfigSection phases = top.sub("phases");
  c.phase_switch_cycles = u32(phases, "switch_cycles", 0, 100000000);
  c.bd_config_words = u32(phases, "bd_config_words", 0, 1024);
  phases.finish();
  ConfigSection timing = top.sub("timing");
  c.quantum_cycles = timing.size("quantum_cycles", 1, 1ull << 40);
  timing.finish();
  // The DDR model reads its own keys strictly (models/dram).
  ConfigSection ddr = top.sub("ddr");
  YAML::Node dn = YAML::Clone(ddr.yaml());
  for (const auto& kv : ddr.yaml()) ddr.skip(kv.first.as<std::string>());
  dn["name"] = "ddr";
  if (!dn["clock_period_ps"] && !dn["clock_period_ns"]) dn["clock_period_ns"] = c.clock_ns;
  try {
    c.ddr = models::DramConfig::from_yaml(dn, tree.file() + " (ddr)");
  } catch (const std::exception& e) {
    throw InputError(std::string("DDR configuration: ") + e.what());
  }
  top.finish();
  c.raw = tree.to_json();
  return c;
}

}  // namespace

std::string aie_config_path(const std::string& name_or_path) {
  return platform_config_path("aie_ml", name_or_path);
}

bool exposed_pipeline_in(const nlohmann::json& config) {
  const auto compute = config.find("compute");
  if (compute == config.end() || !compute->is_object() || !compute->contains("pipeline"))
    return AieConfig{}.exposed_pipeline;
  const nlohmann::json& mode = (*compute)["pipeline"];
  return mode.is_string() && mode.get<std::string>() == "exposed";
}

isa::aie_ml::ReadStages read_stages(const AieConfig& config) { return {config.acc_read_cycles}; }

isa::aie_ml::ReadStages read_stages_in(const nlohmann::json& config) {
  const auto compute = config.find("compute");
  if (compute == config.end() || !compute->is_object()) return read_stages(AieConfig{});
  const auto acc = compute->find("acc_read_cycles");
  if (acc == compute->end() || !acc->is_number_integer() || acc->get<int64_t>() < 0) return read_stages(AieConfig{});
  return {static_cast<uint32_t>(acc->get<int64_t>())};
}

AieConfig load_aie_config(const std::string& name_or_path, const std::vector<std::string>& overrides) {
  const ConfigTree tree = ConfigTree::load("aie_ml", name_or_path, overrides, "array.columns=2");
  try {
    return read_aie_config(tree);
  } catch (const YAML::Exception& e) {  // e.g. a subscript of a scalar: still an input error
    throw InputError(yaml_error_message(tree.file(), e));
  }
}

}  // namespace tlmcraft::aie_ml
