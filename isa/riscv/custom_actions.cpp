// Energy actions of a custom instruction (isa/actions.h, derived): a composition performs
// its steps' arithmetic and register traffic minus the traffic of its temps (they never
// leave the datapath); a `semantics:` instruction the operations its expression counts
// plus its operands' register traffic. Units: "scalar" (x operations), "fpu" (f), "vector";
// formats int8/int16/int32 (the element width) and fp32; register files "xreg", "freg", "vreg"
// (the names Coral's per-action table prices the standard instructions by).
#include <map>

#include "isa/actions.h"
#include "isa/riscv/custom_ext.h"
#include "isa/riscv/step_encoder.h"

namespace tlmcraft::isa::riscv {
namespace {

bool starts(const std::string& s, const char* p) { return s.rfind(p, 0) == 0; }

// The primitive op (isa/actions.h) a step mnemonic performs.
std::string primitive_of(std::string m) {
  if (m[0] == 'v') m = m.substr(1);
  if (m[0] == 'f' && m != "fence") m = m.substr(1);
  if (starts(m, "macc") || starts(m, "madd") || starts(m, "nmsac") || starts(m, "nmsub") || starts(m, "wmacc") ||
      starts(m, "msub") || starts(m, "nmadd"))
    return "mac";
  if (starts(m, "mul") || starts(m, "wmul") || starts(m, "smul")) return "mul";
  if (starts(m, "div") || starts(m, "rem")) return "div";
  if (starts(m, "sqrt")) return "sqrt";
  if (starts(m, "cvt") || starts(m, "sext") || starts(m, "zext") || starts(m, "nclip") || starts(m, "nsr")) return "convert";
  if (starts(m, "mv") || starts(m, "sgnj") || starts(m, "merge")) return "move";
  if (starts(m, "min") || starts(m, "max") || starts(m, "slt") || starts(m, "ms") || starts(m, "eq") ||
      starts(m, "lt") || starts(m, "le") || starts(m, "class") || starts(m, "redmin") || starts(m, "redmax"))
    return "cmp";
  if (starts(m, "add") || starts(m, "sub") || starts(m, "rsub") || starts(m, "wadd") || starts(m, "wsub") ||
      starts(m, "sadd") || starts(m, "ssub") || starts(m, "aadd") || starts(m, "asub") || starts(m, "redsum") ||
      starts(m, "wredsum") || starts(m, "adc") || starts(m, "sbc") || starts(m, "neg"))
    return "add";
  return "logic";  // and, or, xor, shifts
}

std::string format_of(ValueClass c, unsigned sew_bytes) {
  if (c == ValueClass::F) return "fp32";
  if (c == ValueClass::V) return "int" + std::to_string(8 * sew_bytes);
  return "int32";
}

const char* file_of(ValueClass c) { return c == ValueClass::F ? "freg" : c == ValueClass::V ? "vreg" : "xreg"; }

uint64_t bytes_of(ValueClass c, unsigned sew_bytes, unsigned vl) {
  return c == ValueClass::V ? uint64_t(vl) * sew_bytes : c == ValueClass::Imm ? 0 : 4;
}

StorageTraffic& traffic_of(std::vector<StorageTraffic>& t, ValueClass c) {
  for (auto& x : t)
    if (x.storage == file_of(c)) return x;
  t.push_back({file_of(c), 0, 0});
  return t.back();
}

NamedActions composed(const CustomInsn& in, unsigned sew, unsigned vl) {
  std::vector<NamedActions> steps;
  std::vector<StorageTraffic> saved;
  unsigned step_sew = sew;
  for (const ComposeStep& st : in.steps) {
    // A vtype step does no arithmetic; the steps after it work at its SEW.
    if (st.sets_vtype >= 0) {
      step_sew = 1u << ((uint32_t(st.sets_vtype) >> 3) & 7);
      continue;
    }
    InstructionWork w;
    bool any_vector = false;
    ValueClass rd_cls = ValueClass::X;
    for (size_t k = 0; k < st.names_by_position.size(); ++k) {
      const int n = st.names_by_position[k];
      if (n < 0) continue;
      const auto& name = in.names[size_t(n)];
      if (name.cls == ValueClass::Imm) continue;
      const uint64_t b = bytes_of(name.cls, step_sew, vl);
      StorageTraffic& t = traffic_of(w.traffic, name.cls);
      (k == 0 ? t.write_bytes : t.read_bytes) += b;
      if (name.temp) (k == 0 ? traffic_of(saved, name.cls).write_bytes : traffic_of(saved, name.cls).read_bytes) += b;
      if (k == 0) rd_cls = name.cls;
      any_vector = any_vector || name.cls == ValueClass::V;
    }
    if (st.load) {  // its memory read is the platform's (the access it reports); no operator
      steps.push_back(actions_of(w));
      continue;
    }
    const ValueClass op_cls = any_vector ? ValueClass::V : rd_cls;
    const char* unit = op_cls == ValueClass::V ? "vector" : op_cls == ValueClass::F ? "fpu" : "scalar";
    // A widening add (vwadd.wv) adds at its result's width; a widening multiply multiplies
    // its narrow operands.
    const std::string primitive = primitive_of(st.mnemonic);
    const unsigned op_sew = starts(st.mnemonic, "vw") && primitive == "add" ? 2 * step_sew : step_sew;
    w.ops.push_back({unit, primitive, format_of(op_cls, op_sew), op_cls == ValueClass::V ? uint64_t(vl) : 1});
    steps.push_back(actions_of(w));
  }
  return compose_actions(steps, saved);
}

// The evaluator's operation names as primitives (composites such as sigmoid are
// decomposed by actions_of itself).
std::string semantic_op(const std::string& op) {
  static const std::map<std::string, std::string> m = {
      {"sub", "add"},       {"neg", "add"},       {"reduce_add", "add"}, {"reduce_max", "cmp"}, {"reduce_min", "cmp"},
      {"min", "cmp"},       {"max", "cmp"},       {"abs", "cmp"},        {"relu", "cmp"},       {"eq", "cmp"},
      {"ne", "cmp"},        {"lt", "cmp"},        {"le", "cmp"},         {"gt", "cmp"},         {"ge", "cmp"},
      {"select", "move"},   {"and", "logic"},     {"or", "logic"},       {"xor", "logic"},      {"not", "logic"},
      {"shl", "logic"},     {"shr", "logic"},     {"sat", "convert"},    {"srs", "convert"},    {"rne", "convert"},
      {"fma", "mac"},       {"rem", "div"}};
  auto it = m.find(op);
  return it == m.end() ? op : it->second;
}

std::string action_format(extension::ElemFormat f) {
  const std::string n = extension::format_name(f);  // "i8", "u16", "f32", "bf16", "bool"
  if (n[0] == 'i' || n[0] == 'u') return "int" + n.substr(1);
  return n == "f32" ? "fp32" : n;
}

NamedActions semantic(const CustomInsn& in, unsigned sew, unsigned vl) {
  const bool vec = in.is_vector();
  const extension::ExprProgram& prog = *in.semantics[vec ? (sew == 1 ? 0 : sew == 2 ? 1 : 2) : 0];
  InstructionWork w;
  for (const auto& c : prog.op_counts) {
    if (c.op == "input" || c.op == "literal") continue;
    const uint64_t lanes = c.lanes == 0 ? vl : c.lanes;
    w.ops.push_back({vec && c.lanes != 1 ? "vector" : extension::is_float(c.format) ? "fpu" : "scalar", semantic_op(c.op),
                     action_format(c.format), uint64_t(c.per_element) * lanes});
  }
  for (const auto& o : in.operands) {
    if (o.value == ValueClass::Imm) continue;
    StorageTraffic& t = traffic_of(w.traffic, o.value);
    if (o.read) t.read_bytes += bytes_of(o.value, sew, vl);
    if (o.write) t.write_bytes += bytes_of(o.value, sew, vl);
  }
  return actions_of(w);
}

}  // namespace

NamedActions custom_actions(const CustomInsn& in, unsigned sew_bytes, unsigned vl) {
  return in.semantics.empty() ? composed(in, sew_bytes, vl) : semantic(in, sew_bytes, vl);
}

}  // namespace tlmcraft::isa::riscv
