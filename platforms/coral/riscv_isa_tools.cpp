#include "platforms/coral/riscv_isa_tools.h"

#include <cstdio>
#include <fstream>
#include <iomanip>
#include <sstream>

#include "common/data_dir.h"
#include "isa/riscv/custom_ext.h"
#include "isa/riscv/hart.h"
#include "platforms/coral/coral_area.h"
#include "platforms/coral/toolchain.h"

namespace tlmcraft::coral {
namespace {

// The hand-written references, in reading order.
std::string reference_markdown() {
  std::string md;
  for (const char* name : {"riscv.md", "riscv-vector.md"}) {
    const std::string path = data::data_path(std::string("docs/isa/") + name);
    std::ifstream in(path);
    if (!in) throw std::runtime_error(path + ": cannot read the RISC-V reference");
    std::stringstream ss;
    ss << in.rdbuf();
    md += (md.empty() ? "" : "\n") + ss.str();
  }
  return md;
}

// An overlay (`isa: riscv`), or the variant's overlays when no file is named, is loaded
// and validated; the ISA itself has no YAML.
isa::IsaCheck check(const std::string& path) {
  isa::IsaCheck c;
  c.isa = "riscv";
  c.file = path;
  const std::vector<std::string> files = path.empty() ? isa::riscv::variant_overlays() : std::vector<std::string>{path};
  if (!files.empty()) {
    try {
      const auto ext = isa::riscv::load_custom_extensions(files);
      const std::vector<AddedArea> lines = coral_variant_area(*ext);  // what a run's area adds
      char added[64];
      std::snprintf(added, sizeof added, ", %.6f mm2 added", added_area_mm2(lines));
      c.summary = std::to_string(ext->instructions().size()) + " custom instructions" + added;
      for (const AddedArea& a : lines)
        if (!a.unpriced.empty()) c.summary += "; area not priced: " + a.unpriced;
    } catch (const isa::riscv::CustomExtError& e) {
      std::istringstream lines(e.what());
      for (std::string l; std::getline(lines, l);) c.errors.push_back(l);
    }
    return c;
  }
  c.errors.push_back(
      (path.empty() ? std::string("riscv") : path) +
      ": RISC-V has no YAML description to check: its decoder is compiled in (isa/riscv/decode.cpp)");
  return c;
}

// Builds the kernel with the Coral toolchain; the listing disassembles every code word.
isa::AsmResult assemble(const std::string& source, const std::string& file) {
  isa::AsmResult r;
  isa::Program prog;
  uint64_t address = 0;
  ToolchainOptions options;
  const auto overlays = isa::riscv::variant_overlays();
  if (!overlays.empty()) options.custom = isa::riscv::load_custom_extensions(overlays);
  r.ok = build_kernel(source, file, prog, r.diags, options);
  if (!r.ok) return r;
  for (const auto& s : prog.segments)
    if (s.executable) {
      address = s.address;
      break;
    }
  for (const auto& in : prog.code) {
    const std::string text = isa::riscv::disassemble(in.opcode, uint32_t(address), options.custom.get());
    r.by_class[text.substr(0, text.find(' '))]++;
    r.instructions++;
    std::ostringstream o;
    o << std::hex << std::setw(8) << std::setfill('0') << address << std::dec << std::setfill(' ') << "  line "
      << std::setw(4) << in.line << "  " << std::hex << std::setw(8) << std::setfill('0') << in.opcode << std::dec
      << std::setfill(' ') << "  " << text;
    r.listing.push_back(o.str());
    address += 4;
  }
  return r;
}

}  // namespace

isa::IsaTools riscv_isa_tools() {
  isa::IsaTools t;
  t.name = "riscv";
  // Program::code holds the raw words: classify them as the timing model does.
  t.instruction_class = [](const isa::Instruction& in) {
    // Custom opcodes class as their overlay's unit does (TLMCRAFT_ISA_EXT, loaded once).
    static const auto custom = [] {
      const auto files = isa::riscv::variant_overlays();
      try {
        return files.empty() ? nullptr : isa::riscv::load_custom_extensions(files);
      } catch (const isa::riscv::CustomExtError&) {
        return std::shared_ptr<const isa::riscv::CustomExtensions>();  // reported where the variant is loaded
      }
    }();
    return isa::riscv::to_string(isa::riscv::decode(in.opcode, custom.get()).cls);
  };
  t.summary = "RISC-V rv32imf_zve32x for Coral (GNU binutils / clang; decoder compiled in, docs/isa/riscv.md)";
  t.kernel_extensions = {".s", ".S", ".c"};
  t.check = check;
  t.doc = [](bool) { return reference_markdown(); };
  t.assemble = assemble;
  t.header = [](const std::vector<std::string>& overlays) {
    try {
      return isa::riscv::custom_c_header(*isa::riscv::load_custom_extensions(overlays));
    } catch (const isa::riscv::CustomExtError& e) {
      throw std::runtime_error(e.what());
    }
  };
  return t;
}

}  // namespace tlmcraft::coral
