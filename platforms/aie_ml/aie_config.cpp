#include "platforms/aie_ml/aie_config.h"

#include <filesystem>
#include <sstream>

#include <yaml-cpp/yaml.h>

#include "models/yaml_config.h"
#include "platforms/platform.h"

namespace tlmcraft::aie_ml {
namespace {

std::string where(const std::string& file, const YAML::Node& n) {
  const YAML::Mark m = n.Mark();
  if (m.line < 0) return file;
  return file + ":" + std::to_string(m.line + 1);
}

nlohmann::json to_json(const YAML::Node& n) {
  switch (n.Type()) {
    case YAML::NodeType::Map: {
      nlohmann::json j = nlohmann::json::object();
      for (const auto& kv : n) j[kv.first.as<std::string>()] = to_json(kv.second);
      return j;
    }
    case YAML::NodeType::Sequence: {
      nlohmann::json j = nlohmann::json::array();
      for (const auto& e : n) j.push_back(to_json(e));
      return j;
    }
    case YAML::NodeType::Scalar: {
      const std::string s = n.Scalar();
      if (n.Tag() == "!") return s;
      try { size_t p; long long v = std::stoll(s, &p, 0); if (p == s.size()) return v; } catch (...) {}
      try { size_t p; double v = std::stod(s, &p); if (p == s.size()) return v; } catch (...) {}
      if (s == "true") return true;
      if (s == "false") return false;
      return s;
    }
    default: return nullptr;
  }
}

// "a.b.c=value": the key must exist already so a typo is an error, not a silent default.
void apply_override(YAML::Node root, const std::string& text) {
  const auto eq = text.find('=');
  if (eq == std::string::npos || eq == 0)
    throw InputError("--set '" + text + "': expected KEY=VALUE, e.g. array.columns=2");
  const std::string key = text.substr(0, eq), value = text.substr(eq + 1);
  std::vector<std::string> parts;
  std::stringstream ss(key);
  for (std::string p; std::getline(ss, p, '.');) parts.push_back(p);
  YAML::Node node = root;
  std::string walked;
  for (size_t i = 0; i < parts.size(); ++i) {
    if (!node.IsMap() || !node[parts[i]]) {
      std::string known;
      if (node.IsMap())
        for (const auto& kv : node) known += (known.empty() ? "" : ", ") + kv.first.as<std::string>();
      throw InputError("--set '" + text + "': unknown key '" + (walked.empty() ? "" : walked + ".") + parts[i] +
                       "'" + (known.empty() ? "" : " (known here: " + known + ")"));
    }
    walked += (walked.empty() ? "" : ".") + parts[i];
    if (i + 1 < parts.size()) node.reset(node[parts[i]]);  // reset: yaml-cpp's operator= would overwrite
  }
  YAML::Node parsed;
  try {
    parsed = YAML::Load(value);
  } catch (const YAML::Exception& e) {
    throw InputError("--set '" + text + "': value is not valid YAML: " + e.msg);
  }
  node[parts.back()] = parsed;
}

uint64_t get(const YAML::Node& parent, const std::string& section, const char* key, const std::string& file,
             uint64_t lo, uint64_t hi) {
  if (!parent || !parent.IsMap()) throw InputError(file + ": missing section '" + section + "'");
  const YAML::Node n = parent[key];
  if (!n) throw InputError(where(file, parent) + ": missing key '" + section + "." + key + "'");
  uint64_t v;
  try {
    v = models::parse_size(n.Scalar(), section + "." + key);
  } catch (const std::exception&) {
    throw InputError(where(file, n) + ": '" + section + "." + key + "' must be a non-negative integer, got '" +
                     n.Scalar() + "'");
  }
  if (v < lo || v > hi)
    throw InputError(where(file, n) + ": '" + section + "." + key + "' = " + std::to_string(v) +
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
      throw InputError(where(file, s) + ": " + section + " memory must divide into banks of whole 128-bit words");
  }
  t.locks = static_cast<uint32_t>(get(s, section, "locks", file, 1, 64));
  t.mm2s_channels = static_cast<uint32_t>(get(s, section, "mm2s_channels", file, 0, 16));
  t.s2mm_channels = static_cast<uint32_t>(get(s, section, "s2mm_channels", file, 0, 16));
  t.dma_dims = static_cast<uint32_t>(get(s, section, "dma_dims", file, 1, 4));
  return t;
}

}  // namespace

std::string aie_config_path(const std::string& name_or_path) {
  if (name_or_path.find('/') != std::string::npos || name_or_path.find(".yaml") != std::string::npos)
    return name_or_path;
  return std::string(TLMCRAFT_SOURCE_DIR) + "/platforms/aie_ml/configs/" + name_or_path + ".yaml";
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
  for (const auto& o : overrides) apply_override(root, o);

  AieConfig c;
  c.name = std::filesystem::path(file).stem().string();
  if (!root["clock_ns"]) throw InputError(file + ": missing key 'clock_ns'");
  try {
    c.clock_ns = root["clock_ns"].as<double>();
  } catch (const YAML::Exception&) {
    throw InputError(where(file, root["clock_ns"]) + ": 'clock_ns' must be a number");
  }
  if (!(c.clock_ns >= 1e-3 && c.clock_ns <= 1e6)) throw InputError(where(file, root["clock_ns"]) + ": 'clock_ns' out of range");
  c.columns = static_cast<uint32_t>(get(root["array"], "array", "columns", file, 1, 64));
  c.rows = static_cast<uint32_t>(get(root["array"], "array", "rows", file, 1, 16));
  c.compute = tile_kind(root, "compute", file, true);
  c.mem_tile = tile_kind(root, "mem_tile", file, true);
  c.shim = tile_kind(root, "shim", file, false);
  if (c.compute.dma_dims > 3) throw InputError(where(file, root["compute"]) + ": compute.dma_dims is at most 3");
  c.program_memory_bytes = static_cast<uint32_t>(get(root["compute"], "compute", "program_memory_bytes", file, 16, 1u << 24));
  c.bundle_bytes = static_cast<uint32_t>(get(root["compute"], "compute", "bundle_bytes", file, 1, 256));
  c.stream_bytes_per_cycle = static_cast<uint32_t>(get(root["stream"], "stream", "bytes_per_cycle", file, 4, 64));
  if (c.stream_bytes_per_cycle % 4) throw InputError(where(file, root["stream"]) + ": stream.bytes_per_cycle must be a multiple of 4");
  c.hop_cycles = static_cast<uint32_t>(get(root["stream"], "stream", "hop_cycles", file, 0, 1000));
  c.bd_setup_cycles = static_cast<uint32_t>(get(root["dma"], "dma", "bd_setup_cycles", file, 0, 10000));
  c.lock_wake_cycles = static_cast<uint32_t>(get(root["dma"], "dma", "lock_wake_cycles", file, 0, 10000));
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
  c.raw = to_json(root);
  return c;
}

}  // namespace tlmcraft::aie_ml
