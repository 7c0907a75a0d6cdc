#include "models/yaml_config.h"

#include <cctype>
#include <cmath>
#include <limits>
#include <sstream>

namespace tlmcraft::models {

namespace {

std::string line_of(const YAML::Node& n) {
  const YAML::Mark m = n.Mark();
  if (m.is_null()) return "";
  return ":" + std::to_string(m.line + 1);
}

}  // namespace

uint64_t parse_size(const std::string& text_in, const std::string& what) {
  std::string text;
  for (char c : text_in)
    if (!std::isspace(static_cast<unsigned char>(c))) text += c;
  struct Suffix { const char* s; uint64_t mult; };
  static const Suffix suffixes[] = {{"KiB", 1ull << 10}, {"MiB", 1ull << 20},
                                    {"GiB", 1ull << 30}, {"TiB", 1ull << 40}};
  uint64_t mult = 1;
  for (const auto& sf : suffixes) {
    const std::string s = sf.s;
    if (text.size() > s.size() && text.compare(text.size() - s.size(), s.size(), s) == 0) {
      mult = sf.mult;
      text.resize(text.size() - s.size());
      break;
    }
  }
  if (text.empty() || text[0] == '-' || text[0] == '+')
    throw ConfigError(what + ": expected a non-negative integer (optionally with KiB/MiB/GiB/TiB), got '" +
                      text_in + "'");
  size_t pos = 0;
  unsigned long long v = 0;
  try {
    v = std::stoull(text, &pos, 0);
  } catch (const std::exception&) {
    pos = 0;
  }
  if (pos != text.size())
    throw ConfigError(what + ": expected a non-negative integer (optionally with KiB/MiB/GiB/TiB), got '" +
                      text_in + "'");
  if (v > std::numeric_limits<uint64_t>::max() / mult)
    throw ConfigError(what + ": value '" + text_in + "' does not fit in 64 bits");
  return static_cast<uint64_t>(v) * mult;
}

YAML::Node load_yaml_file(const std::string& path) {
  try {
    return YAML::LoadFile(path);
  } catch (const YAML::BadFile&) {
    throw ConfigError(path + ": cannot open file");
  } catch (const YAML::Exception& e) {
    throw ConfigError(path + ":" + std::to_string(e.mark.line + 1) + ": YAML syntax error: " + e.msg);
  }
}

YamlMap::YamlMap(const YAML::Node& node, std::string where) : node_(node), where_(std::move(where)) {
  if (!node_.IsMap())
    throw ConfigError(where_ + line_of(node_) + ": expected a mapping of configuration keys");
}

bool YamlMap::has(const std::string& key) const { return bool(node_[key]); }

std::string YamlMap::at(const std::string& key) const {
  const YAML::Node n = node_[key];
  return where_ + (n ? line_of(n) : line_of(node_)) + ": key '" + key + "'";
}

uint64_t YamlMap::u64(const std::string& key, uint64_t fallback) {
  used_.insert(key);
  const YAML::Node n = node_[key];
  if (!n) return fallback;
  if (!n.IsScalar()) throw ConfigError(at(key) + ": expected an integer");
  return parse_size(n.Scalar(), at(key));
}

uint64_t YamlMap::u64(const std::string& key) {
  if (!has(key)) throw ConfigError(where_ + line_of(node_) + ": missing required key '" + key + "'");
  return u64(key, 0);
}

std::string YamlMap::str(const std::string& key, const std::string& fallback) {
  used_.insert(key);
  const YAML::Node n = node_[key];
  if (!n) return fallback;
  if (!n.IsScalar()) throw ConfigError(at(key) + ": expected a string");
  return n.Scalar();
}

sc_core::sc_time YamlMap::clock_period(const sc_core::sc_time& fallback) {
  used_.insert("clock_period_ps");
  used_.insert("clock_period_ns");
  const bool ps = has("clock_period_ps"), ns = has("clock_period_ns");
  if (ps && ns) throw ConfigError(at("clock_period_ns") + ": give clock_period_ps or clock_period_ns, not both");
  if (ps) {
    const uint64_t v = parse_size(node_["clock_period_ps"].Scalar(), at("clock_period_ps"));
    if (v == 0) throw ConfigError(at("clock_period_ps") + ": must be greater than zero");
    return sc_core::sc_time(static_cast<double>(v), sc_core::SC_PS);
  }
  if (ns) {
    const YAML::Node n = node_["clock_period_ns"];
    double v = 0;
    std::istringstream is(n.IsScalar() ? n.Scalar() : std::string());
    if (!(is >> v) || !(is >> std::ws).eof() || !(v > 0) || !std::isfinite(v))
      throw ConfigError(at("clock_period_ns") + ": expected a positive number of nanoseconds");
    // Whole picoseconds keep cycle arithmetic exact.
    const double ps_val = std::round(v * 1000.0);
    if (std::fabs(ps_val - v * 1000.0) > 1e-6)
      throw ConfigError(at("clock_period_ns") + ": must be a whole number of picoseconds");
    return sc_core::sc_time(ps_val, sc_core::SC_PS);
  }
  return fallback;
}

YAML::Node YamlMap::node(const std::string& key) {
  used_.insert(key);
  const YAML::Node n = node_[key];
  if (!n) throw ConfigError(where_ + line_of(node_) + ": missing required key '" + key + "'");
  return n;
}

uint32_t YamlMap::u32(const std::string& key, uint32_t fallback) {
  const uint64_t v = u64(key, fallback);
  if (v > UINT32_MAX) throw ConfigError(at(key) + ": too large");
  return static_cast<uint32_t>(v);
}

void YamlMap::finish() const {
  for (const auto& kv : node_) {
    const std::string key = kv.first.Scalar();
    if (!used_.count(key))
      throw ConfigError(where_ + line_of(kv.first) + ": unknown key '" + key + "'");
  }
}

}  // namespace tlmcraft::models
