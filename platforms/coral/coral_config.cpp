#include "platforms/coral/coral_config.h"

#include <filesystem>
#include <set>
#include <sstream>

#include <yaml-cpp/yaml.h>

#include "platforms/platform.h"
#include "platforms/platform_config.h"

namespace tlmcraft::coral {
namespace {

// Reads the keys of one section; unknown keys are errors (a typo must not fall back to a default).
class Section {
 public:
  Section(const YAML::Node& parent, const std::string& key, const std::string& file, const std::string& path)
      : file_(file), path_(path) {
    node_ = key.empty() ? parent : parent[key];
    if (!node_ || !node_.IsMap()) throw InputError(yaml_where(file, parent) + ": missing section '" + path + "'");
  }
  template <typename T>
  T num(const char* key, T lo, T hi) {
    used_.insert(key);
    const YAML::Node n = node_[key];
    if (!n) throw InputError(yaml_where(file_, node_) + ": missing key '" + name(key) + "'");
    T v;
    try {
      v = n.as<T>();
    } catch (const YAML::Exception&) {
      throw InputError(yaml_where(file_, n) + ": '" + name(key) + "' must be a number, got '" + n.Scalar() + "'");
    }
    if (v < lo || v > hi) {
      std::ostringstream os;
      os << yaml_where(file_, n) << ": '" << name(key) << "' = " << v << " is out of range [" << lo << ", " << hi << "]";
      throw InputError(os.str());
    }
    return v;
  }
  bool flag(const char* key) {
    used_.insert(key);
    const YAML::Node n = node_[key];
    if (!n) throw InputError(yaml_where(file_, node_) + ": missing key '" + name(key) + "'");
    try {
      return n.as<bool>();
    } catch (const YAML::Exception&) {
      throw InputError(yaml_where(file_, n) + ": '" + name(key) + "' must be true or false, got '" + n.Scalar() + "'");
    }
  }
  Section sub(const char* key) {
    used_.insert(key);
    return Section(node_, key, file_, name(key));
  }
  void skip(const char* key) { used_.insert(key); }
  void finish() const {
    for (const auto& kv : node_) {
      const auto k = kv.first.as<std::string>();
      if (!used_.count(k)) throw InputError(yaml_where(file_, kv.first) + ": unknown key '" + name(k) + "'");
    }
  }

 private:
  std::string name(const std::string& k) const { return path_.empty() ? k : path_ + "." + k; }
  YAML::Node node_;
  std::string file_, path_;
  std::set<std::string> used_;
};

}  // namespace

std::string coral_config_path(const std::string& name_or_path) {
  return platform_config_path("coral", name_or_path);
}

CoralConfig load_coral_config(const std::string& name_or_path, const std::vector<std::string>& overrides) {
  const std::string file = coral_config_path(name_or_path.empty() ? "default" : name_or_path);
  if (!std::filesystem::exists(file)) throw InputError(file + ": platform config not found");
  YAML::Node root;
  try {
    root = YAML::LoadFile(file);
  } catch (const YAML::ParserException& e) {
    throw InputError(file + ":" + std::to_string(e.mark.line + 1) + ":" + std::to_string(e.mark.column + 1) + ": " + e.msg);
  } catch (const YAML::Exception& e) {
    throw InputError(file + ": " + e.msg);
  }
  if (!root.IsMap()) throw InputError(file + ": expected a mapping at the top level");
  for (const auto& o : overrides) apply_config_override(root, o, "memory.axi.read_latency=40");

  CoralConfig c;
  c.name = std::filesystem::path(file).stem().string();
  try {
    Section top(root, "", file, "");
    top.skip("platform");
    top.skip("ppa");  // energy and area tables, read by the harness (harness/ppa_model.h)
    if (root["platform"] && root["platform"].as<std::string>() != "coral")
      throw InputError(yaml_where(file, root["platform"]) + ": this is a config for platform '" +
                       root["platform"].as<std::string>() + "', not coral");
    c.clock_ns = top.num<double>("clock_ns", 1e-3, 1e6);

    Section mem = top.sub("memory");
    c.itcm_bytes = mem.num<uint32_t>("itcm_bytes", 1024, 1u << 16);
    c.dtcm_bytes = mem.num<uint32_t>("dtcm_bytes", 1024, 1u << 16);
    c.ext_base = mem.num<uint32_t>("ext_base", 0x00100000, 0xF0000000u);
    c.ext_bytes = mem.num<uint32_t>("ext_bytes", 4096, 1u << 28);
    if (uint64_t(c.ext_base) + c.ext_bytes > 0x100000000ull)
      throw InputError(file + ": memory.ext_base + ext_bytes exceeds the 32-bit address space");
    if (c.itcm_bytes % 4 || c.dtcm_bytes % 16 || c.ext_bytes % 16)
      throw InputError(file + ": memory sizes must be multiples of 16 bytes (ITCM: 4)");
    Section axi = mem.sub("axi");
    c.axi.read_latency = axi.num<uint32_t>("read_latency", 1, 100000);
    c.axi.write_latency = axi.num<uint32_t>("write_latency", 1, 100000);
    c.axi.bytes_per_cycle = axi.num<uint32_t>("bytes_per_cycle", 1, 1024);
    axi.finish();
    mem.finish();

    Section s = top.sub("scalar");
    auto& st = c.scalar;
    st.dispatch_width = s.num<uint32_t>("dispatch_width", 1, 8);
    st.fetch_line_bytes = s.num<uint32_t>("fetch_line_bytes", 4, 256);
    if (st.fetch_line_bytes & (st.fetch_line_bytes - 1)) throw InputError(file + ": scalar.fetch_line_bytes must be a power of two");
    st.fetch_interval = s.num<uint32_t>("fetch_interval", 1, 64);
    st.alu_latency = s.num<uint32_t>("alu_latency", 1, 64);
    st.csr_latency = s.num<uint32_t>("csr_latency", 1, 64);
    Section br = s.sub("branch");
    st.taken_same_line = br.num<uint32_t>("taken_same_line", 1, 64);
    st.taken = br.num<uint32_t>("taken", 1, 64);
    st.mispredict = br.num<uint32_t>("mispredict", 1, 64);
    st.mispredict_taken = br.num<uint32_t>("mispredict_taken", 1, 64);
    br.finish();
    Section mul = s.sub("mul");
    st.mul_latency = mul.num<uint32_t>("latency", 1, 64);
    st.mul_queue = mul.num<uint32_t>("queue", 1, 64);
    mul.finish();
    Section div = s.sub("div");
    st.div_base = div.num<uint32_t>("base", 0, 64);
    div.finish();
    st.retirement_buffer = s.num<uint32_t>("retirement_buffer", 1, 256);
    Section lsu = s.sub("lsu");
    st.lsu_queue = lsu.num<uint32_t>("queue", 1, 64);
    st.load_tail = lsu.num<uint32_t>("load_tail", 0, 64);
    st.store_tail = lsu.num<uint32_t>("store_tail", 0, 64);
    st.axi_write_response = lsu.num<uint32_t>("axi_write_response", 0, 64);
    st.lsu_operand_read = lsu.num<uint32_t>("operand_read", 0, 64);
    lsu.finish();
    Section fpu = s.sub("fpu");
    st.fpu_queue = fpu.num<uint32_t>("queue", 1, 64);
    st.fp_add = fpu.num<uint32_t>("add", 1, 256);
    st.fp_mul = fpu.num<uint32_t>("mul", 1, 256);
    st.fp_fma = fpu.num<uint32_t>("fma", 1, 256);
    st.fp_div = fpu.num<uint32_t>("div", 1, 256);
    st.fp_sqrt = fpu.num<uint32_t>("sqrt", 1, 256);
    st.fp_cvt = fpu.num<uint32_t>("cvt", 1, 256);
    st.fp_cmp = fpu.num<uint32_t>("cmp", 1, 256);
    fpu.finish();
    s.finish();

    Section v = top.sub("vector");
    auto& vt = c.vector;
    vt.command_queue = v.num<uint32_t>("command_queue", 1, 256);
    vt.commands_per_cycle = v.num<uint32_t>("commands_per_cycle", 1, 16);
    vt.uop_queue = v.num<uint32_t>("uop_queue", 8, 1024);  // an LMUL=8 command must fit
    vt.rob = v.num<uint32_t>("rob", 1, 1024);
    vt.alu_units = v.num<uint32_t>("alu_units", 1, 8);
    vt.mul_units = v.num<uint32_t>("mul_units", 1, 8);
    vt.permute_units = v.num<uint32_t>("permute_units", 1, 8);
    vt.div_units = v.num<uint32_t>("div_units", 1, 8);
    Section lat = v.sub("latency");
    vt.alu = lat.num<uint32_t>("alu", 1, 256);
    vt.fixed_point = lat.num<uint32_t>("fixed_point", 1, 256);
    vt.mul = lat.num<uint32_t>("mul", 1, 256);
    vt.div = lat.num<uint32_t>("div", 1, 256);
    vt.reduction = lat.num<uint32_t>("reduction", 1, 256);
    vt.permute = lat.num<uint32_t>("permute", 1, 256);
    vt.mask = lat.num<uint32_t>("mask", 1, 256);
    vt.to_scalar = lat.num<uint32_t>("to_scalar", 0, 256);
    vt.writeback = lat.num<uint32_t>("writeback", 0, 256);
    vt.reduction_interval = lat.num<uint32_t>("reduction_interval", 1, 256);
    vt.slide_interval = lat.num<uint32_t>("slide_interval", 1, 256);
    vt.div_interval = lat.num<uint32_t>("div_interval", 1, 256);
    vt.div_bits_per_cycle = lat.num<uint32_t>("div_bits_per_cycle", 1, 64);
    vt.div_overlap = lat.num<uint32_t>("div_overlap", 0, 64);
    lat.finish();
    Section vm = v.sub("memory");
    vt.lsu_start = vm.num<uint32_t>("lsu_start", 0, 64);
    vt.lsu_op_cycles = vm.num<uint32_t>("op_cycles", 0, 64);
    vt.store_data_cycles = vm.num<uint32_t>("store_data_cycles", 0, 64);
    vt.idle_register_cycles = vm.num<uint32_t>("idle_register_cycles", 0, 64);
    vt.index_register_cycles = vm.num<uint32_t>("index_register_cycles", 0, 64);
    vt.load_writeback = vm.num<uint32_t>("load_writeback", 0, 64);
    vt.memory_interval = vm.num<uint32_t>("dispatch_interval", 1, 64);
    vm.finish();
    v.finish();

    Section d = top.sub("dma");
    c.dma.enabled = d.flag("enabled");
    c.dma.base = d.num<uint32_t>("base", 0, 0xFFFFFF00u);
    c.dma.queue_depth = d.num<uint32_t>("queue_depth", 1, 1024);
    c.dma.bytes_per_cycle = d.num<uint32_t>("bytes_per_cycle", 1, 1u << 16);
    d.finish();

    Section sim = top.sub("simulation");
    c.quantum_cycles = sim.num<uint64_t>("quantum_cycles", 1, 1ull << 40);
    sim.finish();
    top.finish();
  } catch (const YAML::Exception& e) {
    throw InputError(yaml_error_message(file, e));
  }
  // The fixed map: ITCM, DTCM, CSR block, optional DMA registers and external memory must not overlap.
  struct Range { const char* name; uint64_t lo, hi; };
  std::vector<Range> ranges = {{"itcm", kItcmBase, uint64_t(kItcmBase) + c.itcm_bytes},
                               {"dtcm", kDtcmBase, uint64_t(kDtcmBase) + c.dtcm_bytes},
                               {"csr", kCsrBase, uint64_t(kCsrBase) + kCsrBytes},
                               {"ext", c.ext_base, uint64_t(c.ext_base) + c.ext_bytes}};
  if (c.dma.enabled) ranges.push_back({"dma", c.dma.base, uint64_t(c.dma.base) + 32});
  for (size_t i = 0; i < ranges.size(); ++i)
    for (size_t j = i + 1; j < ranges.size(); ++j)
      if (ranges[i].lo < ranges[j].hi && ranges[j].lo < ranges[i].hi)
        throw InputError(file + ": memory regions '" + ranges[i].name + "' and '" + ranges[j].name + "' overlap");
  c.raw = yaml_to_json(root);
  return c;
}

}  // namespace tlmcraft::coral
