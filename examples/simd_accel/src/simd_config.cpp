#include "simd_config.h"

#include <dlfcn.h>

#include <cstdlib>
#include <filesystem>

#include "models/yaml_config.h"
#include "platforms/platform.h"
#include "platforms/platform_config.h"

namespace simd_accel {

namespace fs = std::filesystem;
using tlmcraft::InputError;

std::string data_dir() {
  if (const char* env = std::getenv("SIMD_ACCEL_DATA_DIR"); env && *env) return env;
  Dl_info info{};
  if (dladdr(reinterpret_cast<void*>(&data_dir), &info) && info.dli_fname) {
    const fs::path beside = fs::path(info.dli_fname).parent_path() / "share" / "simd_accel";
    if (fs::is_directory(beside)) return beside.string();
  }
  return SIMD_ACCEL_SOURCE_DIR;  // a build that was never installed
}

namespace {

std::string config_path(const std::string& name_or_path) {
  const bool is_path = name_or_path.find('/') != std::string::npos ||
                       (name_or_path.size() > 5 && name_or_path.compare(name_or_path.size() - 5, 5, ".yaml") == 0);
  return is_path ? name_or_path : data_dir() + "/configs/" + name_or_path + ".yaml";
}

std::map<std::string, uint64_t> read_latencies(const YAML::Node& node, const std::string& where) {
  if (!node.IsMap()) throw InputError(tlmcraft::yaml_where(where, node) + ": 'latency' must be a mapping of class: cycles");
  std::map<std::string, uint64_t> out;
  for (const auto& kv : node) {
    const std::string cls = kv.first.as<std::string>();
    uint64_t cycles = 0;
    try {
      cycles = kv.second.as<uint64_t>();
    } catch (const YAML::Exception&) {
      throw InputError(tlmcraft::yaml_where(where, kv.second) + ": latency." + cls + " must be a whole number of cycles");
    }
    if (cycles == 0 || cycles > 1000000)
      throw InputError(tlmcraft::yaml_where(where, kv.second) + ": latency." + cls + " = " + std::to_string(cycles) +
                       " is outside 1..1000000");
    out[cls] = cycles;
  }
  return out;
}

uint64_t size_key(tlmcraft::models::YamlMap& m, const std::string& key, uint64_t fallback) {
  if (!m.has(key)) return fallback;
  return tlmcraft::models::parse_size(m.str(key, ""), m.at(key));
}

SimdConfig parse(const YAML::Node& root, const std::string& file) {
  using tlmcraft::models::YamlMap;
  SimdConfig c;
  YamlMap top(root, file);
  c.clock_ns = top.u32("clock_ns", c.clock_ns);
  if (c.clock_ns == 0) throw InputError(top.at("clock_ns") + ": must be at least 1");
  c.latency = read_latencies(top.node("latency"), file);
  YamlMap spad(top.node("spad"), file);
  c.spad_bytes = size_key(spad, "size_bytes", c.spad_bytes);
  spad.finish();
  YamlMap dram(top.node("dram"), file);
  c.dram.size_bytes = size_key(dram, "size_bytes", c.dram.size_bytes);
  c.dram.banks = dram.u32("banks", c.dram.banks);
  c.dram.row_bytes = size_key(dram, "row_bytes", c.dram.row_bytes);
  c.dram.tRCD = dram.u64("tRCD", c.dram.tRCD);
  c.dram.tCL = dram.u64("tCL", c.dram.tCL);
  c.dram.tRP = dram.u64("tRP", c.dram.tRP);
  c.dram.burst_cycles = dram.u64("burst_cycles", c.dram.burst_cycles);
  dram.finish();
  YamlMap dma(top.node("dma"), file);
  c.dma_queue_depth = dma.u32("queue_depth", c.dma_queue_depth);
  dma.finish();
  top.finish();
  if (c.spad_bytes == 0 || c.spad_bytes % 64 != 0 || c.spad_bytes > (1u << 30))
    throw InputError(file + ": spad.size_bytes must be a positive multiple of 64 up to 1 GiB");
  if (c.dram.row_bytes == 0 || c.dram.row_bytes % 64 != 0 || c.dram.size_bytes % c.dram.row_bytes != 0)
    throw InputError(file + ": dram.row_bytes must be a positive multiple of 64 that divides dram.size_bytes");
  if (c.dram.banks == 0 || c.dram.burst_cycles == 0 || c.dma_queue_depth == 0)
    throw InputError(file + ": dram.banks, dram.burst_cycles and dma.queue_depth must be at least 1");
  c.raw = tlmcraft::yaml_to_json(root);
  return c;
}

}  // namespace

SimdConfig load_config(const std::string& name_or_path, const std::vector<std::string>& overrides) {
  const std::string file = config_path(name_or_path);
  if (!fs::is_regular_file(file)) throw InputError("simd_accel config '" + name_or_path + "': no such file " + file);
  try {
    YAML::Node root = YAML::LoadFile(file);
    for (const auto& o : overrides) tlmcraft::apply_config_override(root, o, "latency.vfma=6");
    SimdConfig c = parse(root, file);
    c.name = fs::path(file).stem().string();
    return c;
  } catch (const YAML::Exception& e) {
    throw InputError(tlmcraft::yaml_error_message(file, e));
  } catch (const tlmcraft::models::ConfigError& e) {
    throw InputError(e.what());
  }
}

}  // namespace simd_accel
