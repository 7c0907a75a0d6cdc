// simd_accel's platform configuration, read by tlmcraft's strict config reader
// (platforms/config_reader.h): unknown keys and bad values are errors naming file, line,
// column and key; a variant file may say `base: default` and change only what differs;
// --set KEY=VALUE overrides; the effective configuration is written back.
#pragma once
#include <cstdint>
#include <map>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

namespace simd_accel {

constexpr const char* kPlatformName = "simd_accel";

struct DramTiming {
  uint64_t size_bytes = 64ull << 20;
  uint32_t banks = 4;
  uint64_t row_bytes = 2048;
  uint64_t tRCD = 10, tCL = 10, tRP = 10;
  uint64_t burst_cycles = 4;  // cycles per 64-byte granule on the DRAM bus
};

struct SimdConfig {
  std::string name = "default";  // the config file's stem
  uint32_t clock_ns = 1;
  std::map<std::string, uint64_t> latency;  // latency class -> cycles
  uint64_t spad_bytes = 512 * 1024;
  DramTiming dram;
  uint32_t dma_queue_depth = 4;
  nlohmann::json raw;  // the effective configuration as read (after overrides)
};

// The folder holding this platform's data (isa/, configs/): $SIMD_ACCEL_DATA_DIR, else
// share/simd_accel next to the plugin library, else the source folder it was built from.
std::string data_dir();
// A config name ("default") resolves to <data_dir>/configs/<name>.yaml; a text with '/' or
// ending in .yaml is a path. Throws tlmcraft::InputError naming file:line:col and cause.
SimdConfig load_config(const std::string& name_or_path, const std::vector<std::string>& overrides = {});

}  // namespace simd_accel
