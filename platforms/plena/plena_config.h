// PLENA platform configuration: loaded from YAML (platforms/plena/configs/*.yaml),
// overridable entry by entry with KEY=VALUE (dotted paths), validated with clear errors.
#pragma once
#include <cstdint>
#include <map>
#include <set>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

namespace tlmcraft::plena {

enum class TimingMode { Serial, Pipelined };
enum class HbmFormat { MXFP8, BF16 };

struct DmaConfig {
  uint32_t queue_depth = 4;
  uint32_t bytes_per_cycle = 64;
};

struct PlenaConfig {
  std::string name = "default";  // config file stem
  double clock_ns = 1.0;
  // arch
  uint32_t mlen = 64, vlen = 64, blen = 4, hlen = 16, v_prefetch_rows = 4, loop_depth = 8;
  // memory
  uint32_t msram_elements = 16384, msram_banks = 4;
  uint32_t vram_elements = 65536, vram_banks = 8, vram_ports = 2;
  uint32_t int_mem_words = 1024, fp_mem_elements = 1024;
  std::string hbm_preset = "hbm2";                  // storage (models/dram)
  std::string hbm_timing_preset = "hbm2_8gb_2gbps";  // timing (models/dram_command_engine)
  uint64_t hbm_size_bytes = 256ull << 20;
  nlohmann::json hbm_overrides;            // entries of memory.hbm other than preset/size
  std::vector<HbmFormat> hbm_formats{HbmFormat::MXFP8, HbmFormat::MXFP8, HbmFormat::BF16};
  // timing
  TimingMode mode = TimingMode::Serial;
  std::map<std::string, uint32_t> latency;              // latency class -> cycles
  std::map<std::string, uint32_t> initiation_interval;  // latency class -> cycles (pipelined)
  // Serial mode only (the reference simulator's dispatch): latency overrides, and the
  // instructions that take 0 cycles when their rd is the zero register (f0).
  std::map<std::string, uint32_t> serial_latency;
  std::set<std::string> serial_free_when_rd_zero;
  DmaConfig prefetch, store;
  // limits.loop_iteration_instructions: instructions one iteration of an open loop may run
  // (the reference's MAX_LOOP_INSTRUCTIONS); 0 = no limit.
  uint64_t loop_iteration_limit = 0;
  bool sram_bank_conflicts = true;
  uint64_t quantum_cycles = 10000;

  nlohmann::json raw;  // the effective YAML as JSON (after overrides), for reports

  uint32_t latency_of(const std::string& cls) const;  // throws InputError if unknown (serial overrides applied)
  uint32_t ii_of(const std::string& cls) const;       // 1 when not listed
};

// Path of a named config ("default") or a file path as given.
std::string plena_config_path(const std::string& name_or_path);

// Loads and validates; `overrides` are "dotted.key=value" strings. Throws
// tlmcraft::InputError naming the file, line and cause (or the override) on bad input.
PlenaConfig load_plena_config(const std::string& name_or_path,
                              const std::vector<std::string>& overrides = {});

}  // namespace tlmcraft::plena
