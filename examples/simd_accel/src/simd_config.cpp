#include "simd_config.h"

#include <dlfcn.h>

#include <cstdlib>
#include <filesystem>

#include "platforms/config_reader.h"
#include "platforms/platform.h"
#include "platforms/platform_config.h"

namespace simd_accel {

namespace fs = std::filesystem;
using tlmcraft::ConfigSection;
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

// A name resolves in this platform's own configs folder, also before the plugin registered
// it (the tests load configs directly).
std::string config_path(const std::string& name_or_path) {
  const bool is_path = name_or_path.find('/') != std::string::npos ||
                       (name_or_path.size() > 5 && name_or_path.compare(name_or_path.size() - 5, 5, ".yaml") == 0);
  return is_path ? name_or_path : data_dir() + "/configs/" + name_or_path + ".yaml";
}

// Cycles per latency class; a class left out takes the ISA's own figure.
std::map<std::string, uint64_t> read_latencies(ConfigSection latency) {
  std::map<std::string, uint64_t> out;
  for (const auto& kv : latency.yaml()) {
    const std::string cls = kv.first.as<std::string>();
    out[cls] = latency.num<uint64_t>(cls, 1, 1000000);
  }
  return out;
}

DramTiming read_dram(ConfigSection dram) {
  DramTiming d;
  d.size_bytes = dram.size("size_bytes", 64 * 1024, 1ull << 40);
  d.banks = dram.num<uint32_t>("banks", 1, 64);
  d.row_bytes = dram.size("row_bytes", 64, 1u << 20);
  if (d.row_bytes % 64 != 0 || d.size_bytes % d.row_bytes != 0)
    dram.fail(dram.yaml()["row_bytes"], "'dram.row_bytes' must be a multiple of 64 that divides dram.size_bytes");
  d.tRCD = dram.num<uint64_t>("tRCD", 0, 10000);
  d.tCL = dram.num<uint64_t>("tCL", 0, 10000);
  d.tRP = dram.num<uint64_t>("tRP", 0, 10000);
  d.burst_cycles = dram.num<uint64_t>("burst_cycles", 1, 10000);
  dram.finish();
  return d;
}

SimdConfig parse(const tlmcraft::ConfigTree& tree) {
  SimdConfig c;
  c.name = tree.name();
  ConfigSection top(tree);
  top.skip("platform");
  c.clock_ns = top.num<uint32_t>("clock_ns", 1, 1000000);
  c.latency = read_latencies(top.sub("latency"));
  ConfigSection spad = top.sub("spad");
  c.spad_bytes = spad.size("size_bytes", 64, 1u << 30);
  if (c.spad_bytes % 64 != 0) spad.fail(spad.yaml()["size_bytes"], "'spad.size_bytes' must be a multiple of 64");
  spad.finish();
  c.dram = read_dram(top.sub("dram"));
  ConfigSection dma = top.sub("dma");
  c.dma_queue_depth = dma.num<uint32_t>("queue_depth", 1, 1024);
  dma.finish();
  top.finish();
  c.raw = tree.to_json();
  return c;
}

}  // namespace

SimdConfig load_config(const std::string& name_or_path, const std::vector<std::string>& overrides) {
  const auto tree = tlmcraft::ConfigTree::load(kPlatformName, config_path(name_or_path), overrides, "latency.vfma=6");
  try {
    return parse(tree);
  } catch (const YAML::Exception& e) {
    throw InputError(tlmcraft::yaml_error_message(tree.file(), e));
  }
}

}  // namespace simd_accel
