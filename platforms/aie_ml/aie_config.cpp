#include "platforms/aie_ml/aie_config.h"

#include <filesystem>
#include <sstream>

#include <yaml-cpp/yaml.h>

#include "models/yaml_config.h"
#include "platforms/platform.h"
#include "platforms/platform_config.h"

namespace tlmcraft::aie_ml {
namespace {

uint64_t get(const YAML::Node& parent, const std::string& section, const char* key, const std::string& file,
             uint64_t lo, uint64_t hi) {
  if (!parent || !parent.IsMap()) throw InputError(file + ": missing section '" + section + "'");
  const YAML::Node n = parent[key];
  if (!n) throw InputError(yaml_where(file, parent) + ": missing key '" + section + "." + key + "'");
  uint64_t v;
  try {
    v = models::parse_size(n.Scalar(), section + "." + key);
  } catch (const std::exception&) {
    throw InputError(yaml_where(file, n) + ": '" + section + "." + key + "' must be a non-negative integer, got '" +
                     n.Scalar() + "'");
  }
  if (v < lo || v > hi)
    throw InputError(yaml_where(file, n) + ": '" + section + "." + key + "' = " + std::to_string(v) +
                     " is out of range [" + std::to_string(lo) + ", " + std::to_string(hi) + "]");
  return v;
}

TileKindConfig tile_kind(const YAML::Node& root, const std::string& section, const std::string& file,
                         bool has_memory) {
  const YAML::Node s = root[section];
  TileKindConfig t;
  if (has_memory) {
    const char* mem_key = section == "compute" ? "data_memory_bytes" : "bytes";
    t.memory_bytes = static_cast<uint32_t>(get(s, section, mem_key, file, 1024, 1u << 24));
    t.banks = static_cast<uint32_t>(get(s, section, "banks", file, 1, 64));
    if (t.memory_bytes % (t.banks * 16))
      throw InputError(yaml_where(file, s) + ": " + section + " memory must divide into banks of whole 128-bit words");
  }
  t.locks = static_cast<uint32_t>(get(s, section, "locks", file, 1, 64));
  t.mm2s_channels = static_cast<uint32_t>(get(s, section, "mm2s_channels", file, 0, 16));
  t.s2mm_channels = static_cast<uint32_t>(get(s, section, "s2mm_channels", file, 0, 16));
  t.dma_dims = static_cast<uint32_t>(get(s, section, "dma_dims", file, 1, 4));
  return t;
}

// Reads the validated tree; yaml-cpp throws on values of an unexpected shape.
AieConfig read_aie_config(YAML::Node root, const std::string& file);

}  // namespace

std::string aie_config_path(const std::string& name_or_path) {
  return platform_config_path("aie_ml", name_or_path);
}

AieConfig load_aie_config(const std::string& name_or_path, const std::vector<std::string>& overrides) {
  const std::string file = aie_config_path(name_or_path);
  if (!std::filesystem::exists(file)) throw InputError(file + ": platform config not found");
  YAML::Node root;
  try {
    root = YAML::LoadFile(file);
  } catch (const YAML::ParserException& e) {
    throw InputError(file + ":" + std::to_string(e.mark.line + 1) + ": " + e.msg);
  }
  if (!root.IsMap()) throw InputError(file + ": expected a mapping at the top level");
  for (const auto& o : overrides) apply_config_override(root, o, "array.columns=2");
  try {
    return read_aie_config(root, file);
  } catch (const YAML::Exception& e) {  // e.g. a subscript of a scalar: still an input error
    throw InputError(yaml_error_message(file, e));
  }
}

namespace {

AieConfig read_aie_config(YAML::Node root, const std::string& file) {
  AieConfig c;
  c.name = std::filesystem::path(file).stem().string();
  if (!root["clock_ns"]) throw InputError(file + ": missing key 'clock_ns'");
  try {
    c.clock_ns = root["clock_ns"].as<double>();
  } catch (const YAML::Exception&) {
    throw InputError(yaml_where(file, root["clock_ns"]) + ": 'clock_ns' must be a number");
  }
  if (!(c.clock_ns >= 1e-3 && c.clock_ns <= 1e6)) throw InputError(yaml_where(file, root["clock_ns"]) + ": 'clock_ns' out of range");
  c.columns = static_cast<uint32_t>(get(root["array"], "array", "columns", file, 1, 64));
  c.rows = static_cast<uint32_t>(get(root["array"], "array", "rows", file, 1, 16));
  c.compute = tile_kind(root, "compute", file, true);
  c.mem_tile = tile_kind(root, "mem_tile", file, true);
  c.shim = tile_kind(root, "shim", file, false);
  if (c.compute.dma_dims > 3) throw InputError(yaml_where(file, root["compute"]) + ": compute.dma_dims is at most 3");
  c.program_memory_bytes = static_cast<uint32_t>(get(root["compute"], "compute", "program_memory_bytes", file, 16, 1u << 24));
  c.bundle_bytes = static_cast<uint32_t>(get(root["compute"], "compute", "bundle_bytes", file, 1, 256));
  if (root["compute"]["acc_read_cycles"])  // optional: older config files do not have it
    c.acc_read_cycles = static_cast<uint32_t>(get(root["compute"], "compute", "acc_read_cycles", file, 0, 16));
  c.stream_bytes_per_cycle = static_cast<uint32_t>(get(root["stream"], "stream", "bytes_per_cycle", file, 4, 64));
  if (c.stream_bytes_per_cycle % 4) throw InputError(yaml_where(file, root["stream"]) + ": stream.bytes_per_cycle must be a multiple of 4");
  c.hop_cycles = static_cast<uint32_t>(get(root["stream"], "stream", "hop_cycles", file, 0, 1000));
  c.bd_setup_cycles = static_cast<uint32_t>(get(root["dma"], "dma", "bd_setup_cycles", file, 0, 10000));
  c.lock_wake_cycles = static_cast<uint32_t>(get(root["dma"], "dma", "lock_wake_cycles", file, 0, 10000));
  c.phase_switch_cycles = static_cast<uint32_t>(get(root["phases"], "phases", "switch_cycles", file, 0, 100000000));
  c.bd_config_words = static_cast<uint32_t>(get(root["phases"], "phases", "bd_config_words", file, 0, 1024));
  c.quantum_cycles = get(root["timing"], "timing", "quantum_cycles", file, 1, 1ull << 40);
  const YAML::Node ddr = root["ddr"];
  if (!ddr || !ddr.IsMap()) throw InputError(file + ": missing section 'ddr'");
  YAML::Node dn = YAML::Clone(ddr);
  dn["name"] = "ddr";
  if (!dn["clock_period_ps"] && !dn["clock_period_ns"]) dn["clock_period_ns"] = c.clock_ns;
  try {
    c.ddr = models::DramConfig::from_yaml(dn, file + " (ddr)");
  } catch (const std::exception& e) {
    throw InputError(std::string("DDR configuration: ") + e.what());
  }
  c.raw = yaml_to_json(root);
  return c;
}

}  // namespace
}  // namespace tlmcraft::aie_ml
