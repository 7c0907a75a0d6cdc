#include "platforms/coral/coral_config.h"

#include <filesystem>
#include <set>
#include <sstream>

#include <yaml-cpp/yaml.h>

#include "platforms/platform.h"
#include "platforms/config_reader.h"
#include "platforms/platform_config.h"

namespace tlmcraft::coral {

std::string coral_config_path(const std::string& name_or_path) {
  return platform_config_path("coral", name_or_path);
}

CoralConfig load_coral_config(const std::string& name_or_path, const std::vector<std::string>& overrides) {
  const ConfigTree tree = ConfigTree::load("coral", name_or_path, overrides, "memory.axi.read_latency=40");
  const std::string& file = tree.file();
  CoralConfig c;
  c.name = tree.name();
  try {
    ConfigSection top(tree);
    top.skip("platform");
    top.skip("ppa");  // energy and area tables, read by the harness (harness/ppa_model.h)
    c.clock_ns = top.num<double>("clock_ns", 1e-3, 1e6);

    ConfigSection mem = top.sub("memory");
    c.itcm_bytes = mem.num<uint32_t>("itcm_bytes", 1024, 1u << 16);
    c.dtcm_bytes = mem.num<uint32_t>("dtcm_bytes", 1024, 1u << 16);
    c.ext_base = mem.num<uint32_t>("ext_base", 0x00100000, 0xF0000000u);
    c.ext_bytes = mem.num<uint32_t>("ext_bytes", 4096, 1u << 28);
    if (uint64_t(c.ext_base) + c.ext_bytes > 0x100000000ull)
      mem.fail(mem.yaml()["ext_bytes"], "memory.ext_base + ext_bytes exceeds the 32-bit address space");
    if (c.itcm_bytes % 4 || c.dtcm_bytes % 16 || c.ext_bytes % 16)
      mem.fail(mem.yaml(), "memory sizes must be multiples of 16 bytes (ITCM: 4)");
    ConfigSection axi = mem.sub("axi");
    c.axi.read_latency = axi.num<uint32_t>("read_latency", 1, 100000);
    c.axi.write_latency = axi.num<uint32_t>("write_latency", 1, 100000);
    c.axi.bytes_per_cycle = axi.num<uint32_t>("bytes_per_cycle", 1, 1024);
    axi.finish();
    mem.finish();

    ConfigSection s = top.sub("scalar");
    auto& st = c.scalar;
    st.dispatch_width = s.num<uint32_t>("dispatch_width", 1, 8);
    st.fetch_line_bytes = s.num<uint32_t>("fetch_line_bytes", 4, 256);
    if (st.fetch_line_bytes & (st.fetch_line_bytes - 1)) s.fail(s.yaml()["fetch_line_bytes"], "scalar.fetch_line_bytes must be a power of two");
    st.fetch_interval = s.num<uint32_t>("fetch_interval", 1, 64);
    st.fetch_buffer = s.num<uint32_t>("fetch_buffer", 1, 16);
    if (st.fetch_buffer * 4 < st.fetch_line_bytes)
      s.fail(s.yaml()["fetch_buffer"],
             "scalar.fetch_buffer must hold a whole fetch line (fetch_line_bytes / 4 instructions)");
    st.alu_latency = s.num<uint32_t>("alu_latency", 1, 64);
    st.csr_latency = s.num<uint32_t>("csr_latency", 1, 64);
    ConfigSection br = s.sub("branch");
    st.taken_same_line = br.num<uint32_t>("taken_same_line", 1, 64);
    st.mispredict = br.num<uint32_t>("mispredict", 1, 64);
    st.mispredict_taken = br.num<uint32_t>("mispredict_taken", 1, 64);
    st.csr_after_redirect = br.num<uint32_t>("csr_after_redirect", 0, 64);
    br.finish();
    ConfigSection mul = s.sub("mul");
    st.mul_latency = mul.num<uint32_t>("latency", 1, 64);
    st.mul_queue = mul.num<uint32_t>("queue", 1, 64);
    mul.finish();
    ConfigSection div = s.sub("div");
    st.div_base = div.num<uint32_t>("base", 0, 64);
    div.finish();
    st.retirement_buffer = s.num<uint32_t>("retirement_buffer", 1, 256);
    ConfigSection lsu = s.sub("lsu");
    st.lsu_queue = lsu.num<uint32_t>("queue", 1, 64);
    st.load_tail = lsu.num<uint32_t>("load_tail", 0, 64);
    st.store_tail = lsu.num<uint32_t>("store_tail", 0, 64);
    st.axi_write_response = lsu.num<uint32_t>("axi_write_response", 0, 64);
    st.lsu_operand_read = lsu.num<uint32_t>("operand_read", 0, 64);
    lsu.finish();
    ConfigSection fpu = s.sub("fpu");
    st.fpu_queue = fpu.num<uint32_t>("queue", 1, 64);
    st.fpu_dispatch_interval = fpu.num<uint32_t>("dispatch_interval", 1, 64);
    st.fp_add = fpu.num<uint32_t>("add", 1, 256);
    st.fp_mul = fpu.num<uint32_t>("mul", 1, 256);
    st.fp_fma = fpu.num<uint32_t>("fma", 1, 256);
    st.fp_div = fpu.num<uint32_t>("div", 1, 256);
    st.fp_sqrt = fpu.num<uint32_t>("sqrt", 1, 256);
    st.fp_cvt = fpu.num<uint32_t>("cvt", 1, 256);
    st.fp_cmp = fpu.num<uint32_t>("cmp", 1, 256);
    fpu.finish();
    s.finish();

    ConfigSection v = top.sub("vector");
    auto& vt = c.vector;
    vt.command_queue = v.num<uint32_t>("command_queue", 1, 256);
    vt.commands_per_cycle = v.num<uint32_t>("commands_per_cycle", 1, 16);
    vt.uop_queue = v.num<uint32_t>("uop_queue", 8, 1024);  // an LMUL=8 command must fit
    vt.dispatch_per_cycle = v.num<uint32_t>("dispatch_per_cycle", 1, 16);
    vt.rob = v.num<uint32_t>("rob", 1, 1024);
    vt.retire_per_cycle = v.num<uint32_t>("retire_per_cycle", 1, 16);
    vt.alu_units = v.num<uint32_t>("alu_units", 1, 8);
    vt.mul_units = v.num<uint32_t>("mul_units", 1, 8);
    vt.permute_units = v.num<uint32_t>("permute_units", 1, 8);
    vt.div_units = v.num<uint32_t>("div_units", 1, 8);
    ConfigSection lat = v.sub("latency");
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
    ConfigSection vm = v.sub("memory");
    vt.lsu_start = vm.num<uint32_t>("lsu_start", 1, 64);  // the micro-op queue's cycle is one of them
    vt.lsu_op_cycles = vm.num<uint32_t>("op_cycles", 0, 64);
    vt.store_data_cycles = vm.num<uint32_t>("store_data_cycles", 0, 64);
    vt.idle_register_cycles = vm.num<uint32_t>("idle_register_cycles", 0, 64);
    vt.index_register_cycles = vm.num<uint32_t>("index_register_cycles", 0, 64);
    vt.load_writeback = vm.num<uint32_t>("load_writeback", 0, 64);
    vt.memory_interval = vm.num<uint32_t>("dispatch_interval", 0, 64);
    vm.finish();
    v.finish();

    ConfigSection d = top.sub("dma");
    c.dma.enabled = d.flag("enabled");
    c.dma.base = d.num<uint32_t>("base", 0, 0xFFFFFF00u);
    c.dma.queue_depth = d.num<uint32_t>("queue_depth", 1, 1024);
    c.dma.bytes_per_cycle = d.num<uint32_t>("bytes_per_cycle", 1, 1u << 16);
    d.finish();

    if (const YAML::Node ext = top.node("isa_ext")) {
      // Relative paths are relative to the config file's folder.
      auto path = [&](const YAML::Node& e) {
        if (!e.IsScalar() || e.Scalar().empty()) top.fail(e, "isa_ext must be an overlay path or a list of them");
        const std::filesystem::path p(e.Scalar());
        return p.is_absolute() ? p.string() : (std::filesystem::path(file).parent_path() / p).string();
      };
      if (ext.IsSequence())
        for (const auto& e : ext) c.isa_ext.push_back(path(e));
      else c.isa_ext.push_back(path(ext));
    }

    ConfigSection sim = top.sub("simulation");
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
        throw InputError(tree.where(tree.root()["memory"]) + ": memory regions '" + ranges[i].name + "' and '" +
                         ranges[j].name + "' overlap");
  c.raw = tree.to_json();
  std::vector<std::string> overlays = c.isa_ext;
  for (const auto& f : isa::riscv::variant_overlays()) overlays.push_back(f);
  if (!overlays.empty()) set_isa_extensions(c, overlays);
  return c;
}

void set_isa_extensions(CoralConfig& cfg, const std::vector<std::string>& overlay_files) {
  try {
    cfg.custom = overlay_files.empty() ? nullptr : isa::riscv::load_custom_extensions(overlay_files);
    cfg.isa_ext = overlay_files;
  } catch (const isa::riscv::CustomExtError& e) {
    throw InputError(e.what());
  }
}

}  // namespace tlmcraft::coral
