#include "platforms/plena/plena_area.h"

#include <algorithm>
#include <map>

#include "isa/operator_area.h"
#include "platforms/platform.h"
#include "platforms/plena/plena_actions.h"

namespace tlmcraft::plena {
namespace {

constexpr int kLaneBits = 16;  // bf16

// The operator kind a step uses (an action op of isa/actions.h), from its mnemonic.
std::string operator_kind(const std::string& mnemonic) {
  auto has = [&](const char* s) { return mnemonic.find(s) != std::string::npos; };
  if (has("EXP")) return "exp";
  if (has("RECI")) return "recip";
  if (has("SQRT")) return "sqrt";
  if (has("MUL")) return "mul";
  if (has("MAX") || has("MIN")) return "cmp";
  return "add";  // add, sub, shift (lane moves are cheaper; counted as an adder)
}

// The area of one bf16 operator of `kind`, um2 (every kind above is priced).
double bf16_operator_um2(const std::string& kind) {
  double um2 = 0;
  isa::operator_area_um2(kind, "bf16", um2);
  return um2;
}

// A scalar integer step (S_ADDI_INT, ...): in a composed instruction it updates an
// address register while the vector unit works (post-increment).
bool integer_step(const isa::InstructionSpec& s) {
  return s.cls == 'S' && s.mnemonic.size() > 4 && s.mnemonic.compare(s.mnemonic.size() - 4, 4, "_INT") == 0;
}

// A post-increment's own int32 operator (the vector lanes' bf16 operators cannot do
// it) and a 2:1 multiplexer per bit in front of the gp file's write port (its data
// now also comes from a vector instruction).
double address_update_um2(const std::string& mnemonic) {
  constexpr int kGpBits = 32;
  double op = 0;
  isa::operator_area_um2(mnemonic.find("MUL") != std::string::npos ? "mul" : "add", "int32", op);
  return op + kGpBits * isa::kMux2Um2;
}

std::string mnemonic_of(const std::string& step_text) { return step_text.substr(0, step_text.find_first_of(" \t")); }

double semantics_area_mm2(const isa::InstructionSpec& ins, int64_t vlen) {
  double um2 = 0;
  for (const isa::NamedAction& a : plena_expression_actions(ins, uint64_t(vlen))) {
    double each = 0;
    if (!isa::action_area_um2(a.name, each))
      throw InputError("instruction " + ins.mnemonic + ": no area for action '" + a.name +
                       "' in the operator table (isa/operator_area.h)");
    um2 += each * double(a.count);
  }
  return um2 * 1e-6;
}

}  // namespace

double plena_composed_area_mm2(const isa::IsaSpec& spec, const std::vector<std::string>& step_mnemonics, size_t temps,
                               int64_t vlen) {
  std::map<std::string, int> uses;  // operator kind -> steps using it so far
  bool vector = false;
  double um2 = 0;
  for (const std::string& m : step_mnemonics) {
    const isa::InstructionSpec* s = spec.find(m);
    if (!s) continue;
    if (integer_step(*s)) {
      um2 += address_update_um2(m);
      continue;
    }
    vector = vector || s->cls == 'V';
    const std::string kind = operator_kind(m);
    if (uses[kind]++ > 0) um2 += (s->cls == 'V' ? double(vlen) : 1.0) * bf16_operator_um2(kind);
  }
  um2 += double(temps) * (vector ? double(vlen) : 1.0) * kLaneBits * (isa::kFlipFlopUm2 + isa::kMux2Um2);
  return um2 * 1e-6;
}

double plena_write_ports_area_mm2(const isa::IsaSpec& spec, const std::string& register_class, int added) {
  const std::map<std::string, int> bits = {{"gp", 32}, {"fp", 16}, {"addr", 64}};  // plena.yaml's classes
  const int cls = spec.register_class_index(register_class);
  if (cls < 0 || !bits.count(register_class))
    throw InputError("no register-file area for register class '" + register_class + "' (gp, fp, addr)");
  const int count = spec.register_classes()[size_t(cls)].count;
  return double(added) * isa::register_write_port_um2(count, bits.at(register_class)) * 1e-6;
}

double plena_added_area_mm2(const isa::IsaSpec& spec, const isa::InstructionSpec& ins, int64_t vlen) {
  if (ins.has_expression()) return semantics_area_mm2(ins, vlen);
  if (!ins.is_fused()) return 0;
  std::vector<std::string> steps;
  for (const isa::Composition::Step& s : ins.compose.steps) steps.push_back(mnemonic_of(s.text));
  return plena_composed_area_mm2(spec, steps, ins.compose.temps.size(), vlen);
}

namespace {

// A class's write ports: one when the description declares none.
int write_ports(const isa::IsaSpec& spec, const std::string& register_class) {
  const int i = spec.register_class_index(register_class);
  return i < 0 ? 1 : std::max(spec.register_classes()[size_t(i)].write_ports, 1);
}

}  // namespace

std::vector<AddedArea> plena_variant_area(const isa::IsaSpec& variant, const isa::IsaSpec& base, int64_t vlen) {
  std::vector<AddedArea> lines;
  for (const isa::InstructionSpec& ins : variant.instructions()) {
    if (!ins.is_fused() && !ins.has_expression()) continue;
    AddedArea a{ins.mnemonic, "instruction"};
    try {
      a.mm2 = plena_added_area_mm2(variant, ins, vlen);
    } catch (const std::runtime_error& e) {
      a.unpriced = e.what();
    }
    lines.push_back(a);
  }
  for (const isa::RegisterClass& c : variant.register_classes()) {
    const int added = write_ports(variant, c.name) - write_ports(base, c.name);
    if (added <= 0) continue;
    AddedArea a{c.name + (added == 1 ? " write port" : " write ports (" + std::to_string(added) + ")"),
                "register_port"};
    try {
      a.mm2 = plena_write_ports_area_mm2(variant, c.name, added);
    } catch (const std::runtime_error& e) {
      a.unpriced = e.what();
    }
    lines.push_back(a);
  }
  return lines;
}

}  // namespace tlmcraft::plena
