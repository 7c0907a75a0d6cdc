// Generates docs/isa/aie-ml.md from isa/aie_ml/aie_ml.yaml: prose notes, slots, registers,
// immediate kinds, latency classes and one table of operations per slot.
#include <sstream>

#include "isa/aie_ml/extension_ops.h"
#include "isa/aie_ml/isa_tables.h"

namespace tlmcraft::isa::aie_ml {

namespace {
// Table cells: a '|' inside would split the cell.
std::string cell(const std::string& s) {
  std::string o;
  for (char c : s) {
    if (c == '|') o += "\\|";
    else if (c == '\n') o += ' ';
    else o += c;
  }
  return o;
}
// YAML prose keeps one paragraph per line; markdown needs a blank line between paragraphs
// (list items stay together).
std::string paragraphs(const std::string& text) {
  std::string o;
  std::istringstream in(text);
  for (std::string line; std::getline(in, line);) {
    const bool item = line.rfind("- ", 0) == 0;
    if (!o.empty()) o += item ? "\n" : "\n\n";
    o += line;
  }
  return o;
}
}  // namespace

std::string reference_markdown(const AieIsaDetails& d) {
  std::ostringstream o;
  o << "# " << d.display_name << " ISA reference (tlmcraft model)\n\n";
  o << "<!-- Generated from isa/aie_ml/aie_ml.yaml by `aie_ml_isa_doc`; do not edit by hand. -->\n\n";
  o << d.description << "\n\n";
  for (const auto& n : d.notes) o << "## " << n.name << "\n\n" << paragraphs(n.doc) << "\n\n";
  o << "## Slots\n\n| slot | role |\n|---|---|\n";
  for (const auto& s : d.slots) o << "| " << s.name << " | " << cell(s.doc) << " |\n";
  o << "\n## Registers\n\n| name | count | bits | meaning |\n|---|---|---|---|\n";
  for (const auto& r : d.register_classes)
    o << "| " << r.name << " | " << r.count << " | " << r.bits << " | " << cell(r.doc) << " |\n";
  o << "\n## Immediate kinds\n\n| kind | range | multiple of | meaning |\n|---|---|---|---|\n";
  for (const auto& k : d.immediates)
    o << "| " << k.name << " | " << k.min << " .. " << k.max << " | " << k.align << " | " << cell(k.doc) << " |\n";
  o << "\n## Latency classes\n\nResult latency in cycles: a bundle that reads the result may issue this many cycles "
       "after the producer (1 = the next cycle).\n\n| class | cycles | note |\n|---|---|---|\n";
  for (const auto& name : d.latency_order)
    o << "| " << name << " | " << d.isa.latency.at(name) << " | " << cell(d.isa.latency_doc.at(name)) << " |\n";
  o << "\n## Ports of added ops\n\nRegister-file reads and writes an op added by data may use in a slot "
       "(docs/isa-extensions.md; the co-design miner's limits).\n\n| slot | reads | writes | widest built-in op |\n"
       "|---|---|---|---|\n";
  for (const auto& [slot, ports] : d.isa.added_op_ports)
    o << "| " << slot_name(slot) << " | " << ports.reads << " | " << ports.writes << " | " << cell(d.added_op_ports_doc.count(slot) ? d.added_op_ports_doc.at(slot) : "") << " |\n";
  o << "\n## Operations\n\n" << d.isa.ops.size() << " operations. Operand shapes: register classes by prefix, `sdst`/`ssrc` any "
       "scalar-side register, `vany` any vector or accumulator view, `mem` a memory operand, `ptrmod` a pointer update, "
       "immediate kinds as above; `a|b` accepts either. Multiply ops state the multiply-accumulates one issue performs and "
       "their operand format (YAML `macs`, `format`); the platform counts them by format (report `macs_by_format`) and "
       "the energy table prices each format (docs/energy-area.md).\n";
  for (const auto& slot : d.slots) {
    o << "\n### Slot " << slot.name << "\n\n| op | operands | latency | AMD name | description | operation |\n|---|---|---|---|---|---|\n";
    Slot sl;
    slot_from_name(slot.name, sl);
    for (size_t i = 0; i < d.isa.ops.size(); ++i) {
      const OpSpec& op = d.isa.ops[i];
      if (op.slot != sl) continue;
      std::string operands;
      for (size_t k = 0; k < op.operands.size(); ++k) operands += (k ? ", " : "") + op.operands[k];
      std::string doc = op.doc;
      if (op.extension >= 0) {
        // An op added by data: its operands by name, role and format, and how it is defined.
        const ExtensionOp& e = *d.isa.extensions[size_t(op.extension)];
        operands.clear();
        for (size_t k = 0; k < e.operands.size(); ++k) {
          const ExtOperand& a = e.operands[k];
          operands += (k ? ", " : "") + a.name + ":" + a.shape + (a.format.empty() ? "" : "." + a.format) +
                      (a.role == ExtOperand::Role::Write ? " (out)" : a.role == ExtOperand::Role::ReadWrite ? " (in/out)" : "");
        }
        doc += std::string(" Added by data (") + (e.composed() ? "compose" : "semantics") +
               (e.replaces.empty() ? "" : "; replaces its composition") + ").";
        if (op.ii > 1) doc += " Holds its slot " + std::to_string(op.ii) + " cycles.";
      }
      const OpExtra& ex = d.extra[i];
      if (op.macs) doc += " Per issue: " + std::to_string(op.macs) + " " + mac_format_name(op.mac_format) + " MACs (counted for energy).";
      if (op.commutative[0] >= 0)
        doc += " Operands " + std::to_string(op.commutative[0] + 1) + " and " + std::to_string(op.commutative[1] + 1) +
               " commute.";
      if (ex.access_bytes) doc += " Accesses " + std::to_string(ex.access_bytes) + " bytes, aligned to " + std::to_string(ex.access_align) + ".";
      if (!op.alt_slots.empty()) {
        doc += " Also fits slots:";
        for (Slot a : op.alt_slots) {
          doc += std::string(" ") + slot_name(a);
          const auto form = op.alt_operands.find(a);
          if (form == op.alt_operands.end()) continue;
          std::string shapes;
          for (const auto& f : form->second) shapes += (shapes.empty() ? "" : ", ") + f;
          doc += " (" + shapes + ")";
        }
        doc += ".";
      }
      o << "| " << op.mnemonic << " | `" << cell(operands) << "` | " << op.latency_class << " (" << d.isa.latency.at(op.latency_class)
        << ") | " << cell(op.real_name.empty() ? op.mnemonic : op.real_name) << " | " << cell(doc) << " | "
        << (op.operation.empty() ? "" : "`" + cell(op.operation) + "`") << " |\n";
    }
  }
  return o.str();
}

}  // namespace tlmcraft::isa::aie_ml
