// Strict reading of model configuration mappings from YAML: typed values, sizes with
// binary suffixes, clock periods, and errors that name the source, line and key.
#pragma once
#include <cstdint>
#include <set>
#include <stdexcept>
#include <string>

#include <systemc>
#include <yaml-cpp/yaml.h>

namespace tlmcraft::models {

// Bad model configuration (YAML or struct values). Message names source, line and cause.
struct ConfigError : std::runtime_error {
  using std::runtime_error::runtime_error;
};

// Parses "4096", "0x1000", "64KiB", "8GiB" (KiB/MiB/GiB/TiB = powers of 1024).
// Throws ConfigError naming `what` on malformed text or overflow.
uint64_t parse_size(const std::string& text, const std::string& what);

// Loads a YAML file; throws ConfigError with the file name on I/O or syntax errors.
YAML::Node load_yaml_file(const std::string& path);

// Reads keys of one YAML mapping. Every key read is remembered; finish() rejects the
// ones never read (typos must not silently fall back to defaults).
class YamlMap {
 public:
  // `where` names the source for messages, e.g. "models/presets/hbm2.yaml" or "dram".
  YamlMap(const YAML::Node& node, std::string where);

  bool has(const std::string& key) const;
  uint64_t u64(const std::string& key, uint64_t fallback);
  uint64_t u64(const std::string& key);  // required
  uint32_t u32(const std::string& key, uint32_t fallback);  // ConfigError above 2^32 - 1
  std::string str(const std::string& key, const std::string& fallback);
  // Clock period from `clock_period_ps` (integer) or `clock_period_ns` (number); fallback
  // if neither is present.
  sc_core::sc_time clock_period(const sc_core::sc_time& fallback);
  YAML::Node node(const std::string& key);  // required sub-node
  const YAML::Node& raw() const { return node_; }
  // Error message prefix for a key: "<where>:<line>: key '<key>'".
  std::string at(const std::string& key) const;
  void finish() const;

 private:
  YAML::Node node_;
  std::string where_;
  std::set<std::string> used_;
};

// Ends a config's from_yaml: rejects unread keys, then runs the config's validate() with
// `where` prefixed to its message.
template <class Config>
Config finish_config(const YamlMap& m, Config c, const std::string& where) {
  m.finish();
  try {
    c.validate();
  } catch (const ConfigError& e) {
    throw ConfigError(where + ": " + e.what());
  }
  return c;
}

// A clock period as whole picoseconds (the unit configs are written back in).
inline uint64_t picoseconds(const sc_core::sc_time& t) { return t.value() / sc_core::sc_time(1, sc_core::SC_PS).value(); }

}  // namespace tlmcraft::models
