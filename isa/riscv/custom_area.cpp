// The datapath a custom instruction adds (docs/isa-extensions.md, "Coral", Area): its
// operations at 32-bit elements (custom_actions at SEW 32, VLEN/32 lanes for a vector
// instruction), each a new operator beside the core's own units (a custom instruction is
// its own functional unit), plus per temp a pipeline register and a 2:1 bypass
// multiplexer per bit. Operator, flip-flop and multiplexer areas: the shared table
// isa/operator_area.h ([H14], [N45], 45 nm). Coral's own rules on top of it: a MAC
// accumulates at the element width (as vmacc does; the energy table prices it so), and a
// compare or logic op on floats is an integer compare of the bits (a 32-bit adder).
#include <stdexcept>

#include "isa/operator_area.h"
#include "isa/riscv/compose_vtype.h"
#include "isa/riscv/custom_ext.h"

namespace tlmcraft::isa::riscv {
namespace {

bool is_float(const std::string& format) { return format == "f32" || format == "fp32" || format == "bf16"; }

double operator_um2(const std::string& primitive, const std::string& format) {
  double um2 = 0;
  bool priced = false;
  if (primitive == "mac")
    priced = mac_area_um2(format, format, um2);
  else if ((primitive == "cmp" || primitive == "logic") && is_float(format))
    priced = operator_area_um2(primitive, "int32", um2);
  else
    priced = operator_area_um2(primitive, format, um2);
  if (!priced) throw std::invalid_argument("no operator area for '" + primitive + "' on '" + format + "'");
  return um2;
}

// A load step's path into the LSU: its own address adder (register + offset, 32 bits), a
// 2:1 multiplexer per address bit onto the LSU's request port (shared with the core's loads)
// and one per data bit steering the loaded word (a scalar's 32 bits, a vector's VLEN) into the
// unit instead of the register file.
double load_path_um2(const ComposeStep& st) {
  const double data_bits = st.vector ? kVlenBits : 32;
  return operator_um2("add", "int32") + (32 + data_bits) * kMux2Um2;
}

}  // namespace

double custom_area_mm2(const CustomInsn& in) {
  if (in.declared_area_mm2 >= 0) return in.declared_area_mm2;
  const unsigned lanes = kVlenBits / 32;
  // A composition across a vtype change is placed only where it starts at its last vtype
  // step's vtype (compose_vtype.h): its steps are priced at the widths they run at there.
  const unsigned sew = changes_vtype(in) ? placed_sew_bytes(in) : 4;
  double um2 = 0;
  for (const NamedAction& a : custom_actions(in, sew, lanes)) {
    const size_t d1 = a.name.find('.'), d2 = a.name.rfind('.');
    if (d1 == std::string::npos || d1 == d2) continue;
    const std::string unit = a.name.substr(0, d1);
    if (unit != "scalar" && unit != "fpu" && unit != "vector") continue;  // register traffic, not datapath
    um2 += double(a.count) * operator_um2(a.name.substr(d1 + 1, d2 - d1 - 1), a.name.substr(d2 + 1));
  }
  for (const ComposeStep& st : in.steps)
    if (st.load) um2 += load_path_um2(st);
  for (const CustomInsn::Name& n : in.names) {
    if (!n.temp || !in.semantics.empty()) continue;  // a semantics: datapath has no steps' temps
    const double bits = n.cls == ValueClass::V ? kVlenBits : 32;
    um2 += bits * (kFlipFlopUm2 + kMux2Um2);
  }
  return um2 * 1e-6;
}

}  // namespace tlmcraft::isa::riscv
