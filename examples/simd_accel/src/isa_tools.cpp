#include "isa_tools.h"

#include <iomanip>
#include <sstream>

#include "isa/assembler.h"
#include "isa/encoding.h"
#include "isa/isa_doc.h"
#include "simd_platform.h"

namespace simd_accel {

namespace isa = tlmcraft::isa;

namespace {

// Cycles per latency class of the default configuration, for `isa doc --latencies`.
std::map<std::string, std::string> default_latency_notes() {
  const SimdConfig c = load_config("default");
  std::map<std::string, std::string> notes;
  for (const auto& [cls, cycles] : c.latency) notes[cls] = std::to_string(cycles) + (cycles == 1 ? " cycle" : " cycles");
  notes["dma"] = "1 cycle to issue; the transfer's cycles come from the DMA engine and DRAM (README.md, \"DMA transfers\")";
  return notes;
}

isa::AsmResult assemble_listing(const isa::IsaSpec& spec, const std::string& source, const std::string& file) {
  isa::AsmResult r;
  isa::Program prog;
  r.ok = isa::assemble(spec, source, file, prog, r.diags);
  const isa::InstructionCounts counts = isa::count_instructions(spec, prog);
  r.instructions = counts.total;
  r.by_class = counts.by_class;
  r.by_unit = counts.by_unit;
  for (size_t pc = 0; pc < prog.code.size(); ++pc) {
    std::ostringstream o;
    o << std::setw(5) << pc << "  line " << std::setw(4) << prog.code[pc].line << "  " << std::hex << std::setw(8)
      << std::setfill('0') << isa::encode(spec, prog.code[pc]) << std::dec << std::setfill(' ') << "  "
      << isa::disassemble(spec, prog.code[pc]);
    r.listing.push_back(o.str());
  }
  return r;
}

}  // namespace

isa::IsaTools simd_isa_tools() {
  isa::IsaTools t;
  t.name = "simd";
  t.summary = "simd_accel's 16-lane SIMD ISA (example plugin): YAML-driven assembler, encoder, reference";
  t.kernel_extensions = {".sasm"};
  t.check = [](const std::string& path) {
    isa::IsaCheck c = isa::check_table_isa_file(path.empty() ? isa_path() : path);
    if (c.isa.empty()) c.isa = "simd";
    return c;
  };
  t.doc = [](bool latencies) {
    return isa::render_isa_markdown(*load_isa(), latencies ? default_latency_notes() : std::map<std::string, std::string>{});
  };
  t.assemble = [](const std::string& source, const std::string& file) { return assemble_listing(*load_isa(), source, file); };
  t.encode = [](const std::string& source, const std::string& file, std::vector<uint32_t>& words, std::string& error) {
    isa::Program prog;
    std::vector<isa::Diagnostic> diags;
    if (!isa::assemble(*load_isa(), source, file, prog, diags)) {
      for (const auto& d : diags) error += (error.empty() ? "" : "\n") + d.format();
      return false;
    }
    words = isa::encode_program(*load_isa(), prog);
    return true;
  };
  t.decode = [](const std::vector<uint32_t>& words, std::string& text, std::string& error) {
    isa::Program prog;
    if (!isa::decode_program(*load_isa(), words, prog, &error)) return false;
    text = isa::disassemble_program(*load_isa(), prog);
    return true;
  };
  return t;
}

}  // namespace simd_accel
