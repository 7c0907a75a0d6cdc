// Configuration of the command-level DRAM timing engine (models/dram_command_engine.h):
// organisation (channels > pseudo-channels > bank groups > banks > rows), JEDEC-style
// timing parameters in DRAM clock cycles, controller buffers and policies, address
// mapping. Read from a preset YAML (models/presets/hbm2_8gb_2gbps.yaml); keys in
// docs/models.md. Knows no platform.
#pragma once
#include <cstdint>
#include <string>

#include <nlohmann/json.hpp>
#include <yaml-cpp/yaml.h>

namespace tlmcraft::models {

struct DramOrganisation {
  uint32_t channels = 8;
  uint32_t pseudo_channels = 2;  // per channel
  uint32_t bank_groups = 4;      // per pseudo-channel
  uint32_t banks = 4;            // per bank group
  uint32_t rows = 1u << 15;      // per bank
  uint32_t columns = 64;         // per row, in device columns
  uint32_t prefetch = 2;         // columns moved by one column command (internal prefetch)
  uint32_t channel_bits = 64;    // data width of one (pseudo-)channel in bits
  // Bytes moved by one request = one column command: prefetch * channel_bits / 8.
  uint64_t request_bytes() const { return uint64_t(prefetch) * channel_bits / 8; }
};

// Cycles of the DRAM clock (names as in JESD235; RCD for reads and writes separately).
struct DramTimingParams {
  uint32_t nBL = 4, nCL = 7, nRCDRD = 7, nRCDWR = 7, nRP = 7, nRAS = 17, nRC = 19, nWR = 8;
  uint32_t nRTPS = 2, nRTPL = 3, nCWL = 2, nCCDS = 1, nCCDL = 2, nRRDS = 2, nRRDL = 3;
  uint32_t nWTRS = 3, nWTRL = 4, nFAW = 15;
  uint32_t act_cycles = 2;  // command-bus cycles of an ACT (two-cycle row command)
};

enum class DramAddressMapping { Mop4ClXor };

struct DramCommandConfig {
  std::string name = "hbm";
  DramOrganisation org;
  DramTimingParams t;
  uint32_t read_queue = 33;   // requests a channel's read buffer holds
  uint32_t write_queue = 33;  // requests a channel's write buffer holds
  uint32_t active_queue = 33; // requests whose row is being opened
  uint32_t write_high_percent = 80, write_low_percent = 20;  // write-mode watermarks (of write_queue)
  DramAddressMapping mapping = DramAddressMapping::Mop4ClXor;

  void validate() const;  // throws ConfigError
  // Keys: name, organisation {channels, pseudo_channels, bank_groups, banks, rows, columns,
  // prefetch, channel_bits}, timing {nBL ... nFAW, act_cycles}, read_queue, write_queue,
  // active_queue, write_high_percent, write_low_percent, mapping (mop4clxor).
  // Unknown keys are errors. No refresh is modelled (see docs/models.md).
  static DramCommandConfig from_yaml(const YAML::Node& node, const std::string& where);
  static DramCommandConfig from_yaml_file(const std::string& path);
  nlohmann::json to_json() const;
};

}  // namespace tlmcraft::models
