#include "platforms/plena/plena_config.h"

#include <filesystem>
#include <sstream>

#include <yaml-cpp/yaml.h>

#include "platforms/platform.h"
#include "platforms/platform_config.h"

namespace tlmcraft::plena {
namespace {

template <typename T>
T get(const YAML::Node& parent, const char* key, const std::string& file, T lo, T hi) {
  const YAML::Node n = parent[key];
  if (!n) throw InputError(yaml_where(file, parent) + ": missing key '" + key + "'");
  T v;
  try {
    v = n.as<T>();
  } catch (const YAML::Exception&) {
    throw InputError(yaml_where(file, n) + ": '" + key + "' must be a number, got '" + n.Scalar() + "'");
  }
  if (v < lo || v > hi) {
    std::ostringstream os;
    os << yaml_where(file, n) << ": '" << key << "' = " << v << " is out of range [" << lo << ", " << hi << "]";
    throw InputError(os.str());
  }
  return v;
}

}  // namespace

uint32_t PlenaConfig::latency_of(const std::string& cls) const {
  if (mode == TimingMode::Serial) {
    auto s = serial_latency.find(cls);
    if (s != serial_latency.end()) return s->second;
  }
  auto it = latency.find(cls);
  if (it == latency.end())
    throw InputError("platform config " + name + ": no latency for class '" + cls + "' (timing.latency)");
  return it->second;
}

uint32_t PlenaConfig::ii_of(const std::string& cls) const {
  auto it = initiation_interval.find(cls);
  return it == initiation_interval.end() ? 1 : it->second;
}

std::string plena_config_path(const std::string& name_or_path) {
  return platform_config_path("plena", name_or_path);
}

namespace {

// timing.serial: {latency: {class: cycles}, free_when_rd_zero: [MNEMONIC, ...]}
void read_serial_rules(const YAML::Node& s, const std::string& file, PlenaConfig& c) {
  if (!s.IsMap()) throw InputError(yaml_where(file, s) + ": timing.serial must be a mapping");
  for (const auto& kv : s) {
    const auto k = kv.first.as<std::string>();
    if (k != "latency" && k != "free_when_rd_zero")
      throw InputError(yaml_where(file, kv.first) + ": unknown key timing.serial." + k + " (latency, free_when_rd_zero)");
  }
  if (const auto n = s["latency"]) {
    if (!n.IsMap()) throw InputError(yaml_where(file, n) + ": timing.serial.latency must be a mapping");
    for (const auto& kv : n)
      c.serial_latency[kv.first.as<std::string>()] = get<uint32_t>(n, kv.first.as<std::string>().c_str(), file, 0, 1u << 20);
  }
  if (const auto f = s["free_when_rd_zero"]) {
    if (!f.IsSequence()) throw InputError(yaml_where(file, f) + ": timing.serial.free_when_rd_zero must be a list");
    for (const auto& e : f) c.serial_free_when_rd_zero.insert(e.as<std::string>());
  }
}

// Reads the validated tree; yaml-cpp throws on values of an unexpected shape.
PlenaConfig read_plena_config(YAML::Node root, const std::string& file);

}  // namespace

PlenaConfig load_plena_config(const std::string& name_or_path, const std::vector<std::string>& overrides) {
  const std::string file = plena_config_path(name_or_path);
  if (!std::filesystem::exists(file)) throw InputError(file + ": platform config not found");
  YAML::Node root;
  try {
    root = YAML::LoadFile(file);
  } catch (const YAML::ParserException& e) {
    throw InputError(file + ":" + std::to_string(e.mark.line + 1) + ":" + std::to_string(e.mark.column + 1) +
                     ": " + e.msg);
  }
  if (!root.IsMap()) throw InputError(file + ": expected a mapping at the top level");
  for (const auto& o : overrides) apply_config_override(root, o, "timing.mode=pipelined");
  try {
    return read_plena_config(root, file);
  } catch (const YAML::Exception& e) {  // e.g. a subscript of a scalar: still an input error
    throw InputError(yaml_error_message(file, e));
  }
}

namespace {

PlenaConfig read_plena_config(YAML::Node root, const std::string& file) {
  PlenaConfig c;
  c.name = std::filesystem::path(file).stem().string();
  const auto arch = root["arch"], mem = root["memory"], timing = root["timing"];
  if (!arch || !mem || !timing) throw InputError(file + ": needs the sections arch, memory and timing");
  c.clock_ns = get<double>(root, "clock_ns", file, 1e-3, 1e6);
  c.mlen = get<uint32_t>(arch, "mlen", file, 4, 1024);
  c.vlen = get<uint32_t>(arch, "vlen", file, 4, 1024);
  c.blen = get<uint32_t>(arch, "blen", file, 1, 256);
  c.hlen = get<uint32_t>(arch, "hlen", file, 1, 1024);
  c.v_prefetch_rows = get<uint32_t>(arch, "v_prefetch_rows", file, 1, 1024);
  c.loop_depth = get<uint32_t>(arch, "loop_depth", file, 1, 64);
  if (c.mlen % c.blen || c.vlen % c.hlen || c.mlen % 8 || c.vlen % 8)
    throw InputError(yaml_where(file, arch) + ": need mlen % blen == 0, vlen % hlen == 0 and mlen, vlen multiples of 8 (MX blocks)");
  if (c.mlen != c.vlen)
    throw InputError(yaml_where(file, arch) + ": this model requires mlen == vlen (a VRAM row feeds one systolic row)");

  c.msram_elements = get<uint32_t>(mem["msram"], "elements", file, 1, 1u << 26);
  c.msram_banks = get<uint32_t>(mem["msram"], "banks", file, 1, 256);
  c.vram_elements = get<uint32_t>(mem["vram"], "elements", file, 1, 1u << 26);
  c.vram_banks = get<uint32_t>(mem["vram"], "banks", file, 1, 256);
  c.vram_ports = get<uint32_t>(mem["vram"], "ports", file, 1, 16);
  c.int_mem_words = get<uint32_t>(mem["int_mem"], "words", file, 1, 1u << 24);
  c.fp_mem_elements = get<uint32_t>(mem["fp_mem"], "elements", file, 1, 1u << 24);
  if (c.msram_elements % (c.mlen * c.mlen))
    throw InputError(yaml_where(file, mem["msram"]) + ": msram elements must be a multiple of mlen*mlen");
  if (c.vram_elements % c.vlen)
    throw InputError(yaml_where(file, mem["vram"]) + ": vram elements must be a multiple of vlen");
  const auto hbm = mem["hbm"];
  if (!hbm || !hbm["preset"]) throw InputError(yaml_where(file, mem) + ": memory.hbm.preset missing");
  c.hbm_preset = hbm["preset"].as<std::string>();
  c.hbm_size_bytes = get<uint64_t>(hbm, "size_bytes", file, 4096, 1ull << 40);
  c.hbm_overrides = nlohmann::json::object();
  for (const auto& kv : hbm) {
    const auto k = kv.first.as<std::string>();
    if (k != "preset" && k != "size_bytes" && k != "timing_preset") c.hbm_overrides[k] = yaml_to_json(kv.second);
  }
  if (hbm["timing_preset"]) c.hbm_timing_preset = hbm["timing_preset"].as<std::string>();
  if (const auto f = mem["hbm_formats"]) {
    if (!f.IsSequence() || f.size() == 0 || f.size() > 16)
      throw InputError(yaml_where(file, f) + ": hbm_formats must be a list of 1..16 formats");
    c.hbm_formats.clear();
    for (const auto& e : f) {
      const auto s = e.as<std::string>();
      if (s == "mxfp8") c.hbm_formats.push_back(HbmFormat::MXFP8);
      else if (s == "bf16") c.hbm_formats.push_back(HbmFormat::BF16);
      else throw InputError(yaml_where(file, e) + ": unknown HBM format '" + s + "' (mxfp8, bf16)");
    }
  }

  const std::string mode = timing["mode"] ? timing["mode"].as<std::string>() : "";
  if (mode == "serial") c.mode = TimingMode::Serial;
  else if (mode == "pipelined") c.mode = TimingMode::Pipelined;
  else throw InputError(yaml_where(file, timing["mode"] ? timing["mode"] : timing) +
                        ": timing.mode must be 'serial' or 'pipelined', got '" + mode + "'");
  for (const char* sec : {"latency", "initiation_interval"}) {
    const auto n = timing[sec];
    if (!n) continue;
    if (!n.IsMap()) throw InputError(yaml_where(file, n) + ": timing." + sec + " must be a mapping");
    auto& dst = std::string(sec) == "latency" ? c.latency : c.initiation_interval;
    for (const auto& kv : n) dst[kv.first.as<std::string>()] = get<uint32_t>(n, kv.first.as<std::string>().c_str(), file, 1, 1u << 20);
  }
  if (const auto d = timing["dma"]) {
    for (auto [key, dst] : {std::pair{"prefetch", &c.prefetch}, std::pair{"store", &c.store}}) {
      if (!d[key]) continue;
      dst->queue_depth = get<uint32_t>(d[key], "queue_depth", file, 1, 1024);
      dst->bytes_per_cycle = get<uint32_t>(d[key], "bytes_per_cycle", file, 1, 1u << 16);
    }
  }
  if (const auto s = timing["serial"]) read_serial_rules(s, file, c);
  if (const auto l = root["limits"])
    c.loop_iteration_limit = get<uint64_t>(l, "loop_iteration_instructions", file, 0, 1ull << 40);
  if (timing["sram_bank_conflicts"]) c.sram_bank_conflicts = timing["sram_bank_conflicts"].as<bool>();
  if (timing["quantum_cycles"]) c.quantum_cycles = get<uint64_t>(timing, "quantum_cycles", file, 1, 1ull << 40);
  c.raw = yaml_to_json(root);
  return c;
}

}  // namespace
}  // namespace tlmcraft::plena
