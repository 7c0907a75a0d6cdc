#include "platforms/plena/plena_config.h"

#include <filesystem>
#include <sstream>

#include <yaml-cpp/yaml.h>

#include "platforms/platform.h"
#include "platforms/config_reader.h"
#include "platforms/platform_config.h"

namespace tlmcraft::plena {

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

// A mapping of latency class -> cycles (every key is a class name).
void read_cycles(ConfigSection s, uint32_t lo, std::map<std::string, uint32_t>& dst) {
  for (const auto& kv : s.yaml()) {
    const std::string cls = kv.first.as<std::string>();
    dst[cls] = s.num<uint32_t>(cls, lo, 1u << 20);
  }
}

// timing.serial: {latency: {class: cycles}, free_when_rd_zero: [MNEMONIC, ...]}
void read_serial_rules(ConfigSection s, PlenaConfig& c) {
  if (s.has("latency")) read_cycles(s.sub("latency"), 0, c.serial_latency);
  if (s.has("free_when_rd_zero")) {
    const YAML::Node f = s.node("free_when_rd_zero");
    if (!f.IsSequence()) s.fail(f, "timing.serial.free_when_rd_zero must be a list");
    for (const auto& e : f) c.serial_free_when_rd_zero.insert(e.as<std::string>());
  }
  s.finish();
}

void read_arch(ConfigSection a, PlenaConfig& c) {
  c.mlen = a.num<uint32_t>("mlen", 4, 1024);
  c.vlen = a.num<uint32_t>("vlen", 4, 1024);
  c.blen = a.num<uint32_t>("blen", 1, 256);
  c.hlen = a.num<uint32_t>("hlen", 1, 1024);
  c.v_prefetch_rows = a.num<uint32_t>("v_prefetch_rows", 1, 1024);
  c.loop_depth = a.num<uint32_t>("loop_depth", 1, 64);
  a.finish();
  if (c.mlen % c.blen || c.vlen % c.hlen || c.mlen % 8 || c.vlen % 8)
    a.fail(a.yaml(), "need mlen % blen == 0, vlen % hlen == 0 and mlen, vlen multiples of 8 (MX blocks)");
  if (c.mlen != c.vlen) a.fail(a.yaml(), "this model requires mlen == vlen (a VRAM row feeds one systolic row)");
}

void read_hbm(ConfigSection h, PlenaConfig& c) {
  c.hbm_preset = h.text("preset");
  c.hbm_size_bytes = h.num<uint64_t>("size_bytes", 4096, 1ull << 40);
  if (h.has("timing_preset")) c.hbm_timing_preset = h.text("timing_preset");
  // Any other entry overrides the storage preset's (models/dram checks its keys strictly).
  c.hbm_overrides = nlohmann::json::object();
  for (const auto& kv : h.yaml()) {
    const auto k = kv.first.as<std::string>();
    if (k == "preset" || k == "size_bytes" || k == "timing_preset") continue;
    c.hbm_overrides[k] = yaml_to_json(kv.second);
    h.skip(k);
  }
  h.finish();
}

void read_memory(ConfigSection m, PlenaConfig& c) {
  ConfigSection msram = m.sub("msram"), vram = m.sub("vram"), int_mem = m.sub("int_mem"), fp_mem = m.sub("fp_mem");
  c.msram_elements = msram.num<uint32_t>("elements", 1, 1u << 26);
  c.msram_banks = msram.num<uint32_t>("banks", 1, 256);
  c.vram_elements = vram.num<uint32_t>("elements", 1, 1u << 26);
  c.vram_banks = vram.num<uint32_t>("banks", 1, 256);
  c.vram_ports = vram.num<uint32_t>("ports", 1, 16);
  c.int_mem_words = int_mem.num<uint32_t>("words", 1, 1u << 24);
  c.fp_mem_elements = fp_mem.num<uint32_t>("elements", 1, 1u << 24);
  for (const ConfigSection* s : {&msram, &vram, &int_mem, &fp_mem}) s->finish();
  if (c.msram_elements % (c.mlen * c.mlen)) msram.fail(msram.yaml(), "msram elements must be a multiple of mlen*mlen");
  if (c.vram_elements % c.vlen) vram.fail(vram.yaml(), "vram elements must be a multiple of vlen");
  read_hbm(m.sub("hbm"), c);
  if (m.has("hbm_formats")) {
    const YAML::Node f = m.node("hbm_formats");
    if (!f.IsSequence() || f.size() == 0 || f.size() > 16) m.fail(f, "hbm_formats must be a list of 1..16 formats");
    c.hbm_formats.clear();
    for (const auto& e : f) {
      const auto s = e.as<std::string>();
      if (s == "mxfp8") c.hbm_formats.push_back(HbmFormat::MXFP8);
      else if (s == "bf16") c.hbm_formats.push_back(HbmFormat::BF16);
      else m.fail(e, "unknown HBM format '" + s + "' (mxfp8, bf16)");
    }
  }
  m.finish();
}

void read_timing(ConfigSection t, PlenaConfig& c) {
  const std::string mode = t.has("mode") ? t.text("mode") : "";
  if (mode == "serial") c.mode = TimingMode::Serial;
  else if (mode == "pipelined") c.mode = TimingMode::Pipelined;
  else t.fail(t.has("mode") ? t.node("mode") : t.yaml(), "timing.mode must be 'serial' or 'pipelined', got '" + mode + "'");
  if (t.has("latency")) read_cycles(t.sub("latency"), 1, c.latency);
  if (t.has("initiation_interval")) read_cycles(t.sub("initiation_interval"), 1, c.initiation_interval);
  if (t.has("dma")) {
    ConfigSection d = t.sub("dma");
    for (auto [key, dst] : {std::pair{"prefetch", &c.prefetch}, std::pair{"store", &c.store}}) {
      if (!d.has(key)) continue;
      ConfigSection q = d.sub(key);
      dst->queue_depth = q.num<uint32_t>("queue_depth", 1, 1024);
      dst->bytes_per_cycle = q.num<uint32_t>("bytes_per_cycle", 1, 1u << 16);
      q.finish();
    }
    d.finish();
  }
  if (t.has("serial")) read_serial_rules(t.sub("serial"), c);
  if (t.has("sram_bank_conflicts")) c.sram_bank_conflicts = t.flag("sram_bank_conflicts");
  c.quantum_cycles = t.num_or<uint64_t>("quantum_cycles", 1, 1ull << 40, c.quantum_cycles);
  t.finish();
}

PlenaConfig read_plena_config(const ConfigTree& tree) {
  PlenaConfig c;
  c.name = tree.name();
  ConfigSection top(tree);
  top.skip("platform");
  top.skip("ppa");  // energy and area tables, read by the harness (harness/ppa_model.h)
  top.skip("inert_settings");  // read by the harness (harness/inert_settings.h)
  c.clock_ns = top.num<double>("clock_ns", 1e-3, 1e6);
  read_arch(top.sub("arch"), c);
  read_memory(top.sub("memory"), c);
  read_timing(top.sub("timing"), c);
  if (top.has("limits")) {
    ConfigSection l = top.sub("limits");
    c.loop_iteration_limit = l.num<uint64_t>("loop_iteration_instructions", 0, 1ull << 40);
    l.finish();
  }
  top.finish();
  c.raw = tree.to_json();
  return c;
}

}  // namespace

PlenaConfig load_plena_config(const std::string& name_or_path, const std::vector<std::string>& overrides) {
  const ConfigTree tree = ConfigTree::load("plena", name_or_path, overrides, "timing.mode=pipelined");
  try {
    return read_plena_config(tree);
  } catch (const YAML::Exception& e) {  // e.g. a subscript of a scalar: still an input error
    throw InputError(yaml_error_message(tree.file(), e));
  }
}

}  // namespace tlmcraft::plena
