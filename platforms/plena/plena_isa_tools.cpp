#include "platforms/plena/plena_isa_tools.h"

#include <iomanip>
#include <sstream>

#include "isa/isa_variant.h"
#include "isa/plena/opcodes.h"
#include "isa/plena/state.h"
#include "platforms/plena/plena_area.h"
#include "platforms/plena/plena_config.h"

namespace tlmcraft::plena {
namespace {

std::string hex(uint32_t v) {
  std::ostringstream o;
  o << "0x" << std::hex << v;
  return o.str();
}

// Cycle notes per latency class from the default platform configuration.
std::map<std::string, std::string> default_latency_notes() {
  std::map<std::string, std::string> notes;
  const PlenaConfig c = load_plena_config("default");
  for (const auto& [cls, cycles] : c.latency) {
    std::string s = std::to_string(cycles) + (cycles == 1 ? " cycle" : " cycles");
    if (c.ii_of(cls) != 1) s += "; pipelined mode: a new one every " + std::to_string(c.ii_of(cls)) + " cycles";
    notes[cls] = s;
  }
  notes["hbm"] = "set by the HBM model and the DMA engine (docs/platforms/plena.md)";
  return notes;
}

void check_register_class(const isa::IsaSpec& spec, const std::string& name, size_t compiled,
                          std::vector<std::string>& out) {
  const int i = spec.register_class_index(name);
  if (i < 0) return out.push_back("register class '" + name + "' is missing (the semantics have " +
                                  std::to_string(compiled) + " " + name + " registers)");
  const size_t count = size_t(spec.register_classes()[i].count);
  if (count != compiled)
    out.push_back("register class '" + name + "' has " + std::to_string(count) + " registers, the semantics " +
                  std::to_string(compiled));
}

// The instructions added by data (composed or `semantics:`) and the register-file ports
// the variant adds, with the area each adds at the default configuration's VLEN
// (plena_variant_area: the figure a run's report and the co-design tools use).
std::string added_hardware_summary(const isa::IsaSpec& spec, const isa::IsaSpec& base) {
  std::string out;
  for (const AddedArea& line : plena_variant_area(spec, base, load_plena_config("default").vlen)) {
    std::ostringstream a;
    if (line.unpriced.empty())
      a << std::setprecision(4) << line.mm2 << " mm2";
    else
      a << "area not priced: " << line.unpriced;
    const isa::InstructionSpec* ins = line.kind == "instruction" ? spec.find(line.name) : nullptr;
    const std::string what = ins ? (ins->is_fused() ? "compose" : "semantics") : "register_ports";
    out += (out.empty() ? "; added: " : ", ") + line.name + " (" + what + ", " + a.str() + ")";
  }
  return out;
}

}  // namespace

std::vector<std::string> compiled_table_mismatches(const isa::IsaSpec& spec) {
  std::vector<std::string> out;
  for (uint32_t op = 1; op <= isa::plena::kMaxOpcode; ++op) {
    const std::string name = isa::plena::mnemonic(op);
    const isa::InstructionSpec* by_op = spec.find_opcode(op);
    if (!by_op)
      out.push_back("opcode " + hex(op) + " (" + name + " in isa/plena/opcodes.h) is not in the YAML");
    else if (by_op->mnemonic != name)
      out.push_back("opcode " + hex(op) + " is " + by_op->mnemonic + " in the YAML but " + name +
                    " in isa/plena/opcodes.h");
  }
  for (const auto& ins : spec.instructions()) {
    // Composed or expression semantics: nothing compiled to agree with.
    if (ins.is_fused() || !ins.semantics.empty()) continue;
    if (ins.opcode > isa::plena::kMaxOpcode || std::string(isa::plena::mnemonic(ins.opcode)) != ins.mnemonic)
      out.push_back(spec.where_line(ins.line) + ": " + ins.mnemonic + " (opcode " +
                    hex(ins.opcode) + ") has no semantics: add it to isa/plena/opcodes.h and semantics_*.cpp, " +
                    "or give it compose: or semantics: (docs/isa-extensions.md)");
  }
  const isa::plena::PlenaState s;
  check_register_class(spec, "gp", s.gp.size(), out);
  check_register_class(spec, "fp", s.fp.size(), out);
  check_register_class(spec, "addr", s.a.size(), out);
  return out;
}

isa::IsaTools plena_isa_tools() {
  isa::IsaTools t = isa::table_isa_tools(
      "plena", "PLENA (isa/plena/plena.yaml; table-driven assembler, encoder and reference)", {".asm"},
      default_latency_notes);
  auto generic = t.check;
  t.check = [generic](const std::string& path) {
    isa::IsaCheck c = generic(path);
    if (!c.ok()) return c;
    const std::string file = path.empty() ? isa::isa_yaml_path("plena") : path;
    const isa::IsaSpec spec = isa::IsaSpec::load(file, isa::current_isa_variant().overlays);
    for (const auto& m : compiled_table_mismatches(spec)) c.errors.push_back(m);
    c.summary += added_hardware_summary(spec, isa::IsaSpec::load(file, {}));
    return c;
  };
  return t;
}

}  // namespace tlmcraft::plena
