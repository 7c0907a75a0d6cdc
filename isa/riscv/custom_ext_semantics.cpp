// `semantics:` custom instructions through the shared evaluator (isa/extension/):
// value classes map to its types, registers to its values and back.
//
//   x: i32 (or u32 with `type: u32`) scalar; in a vector instruction an x input is an
//      SEW-wide scalar (as the .vx forms take it) and an x output an i32/u32 scalar.
//   f: f32 scalar (bit pattern in the f register).
//   v: a vector of vl SEW-bit integers (signed, or `type: unsigned`), SEW from vtype: one
//      program per element width, compiled when the overlay is loaded.
//   imm: the I format's 12-bit immediate, an i32 scalar (SEW-wide in a vector instruction).
#include <cstring>

#include "isa/riscv/custom_ext.h"
#include "isa/riscv/custom_field.h"

namespace tlmcraft::isa::riscv {
namespace {

using extension::ElemFormat;
using extension::Value;

ElemFormat int_format(unsigned bytes, bool is_unsigned) {
  if (bytes == 1) return is_unsigned ? ElemFormat::U8 : ElemFormat::I8;
  if (bytes == 2) return is_unsigned ? ElemFormat::U16 : ElemFormat::I16;
  return is_unsigned ? ElemFormat::U32 : ElemFormat::I32;
}

// The evaluator's type of operand `o` at element width `sew_bytes` (0: a scalar instruction).
extension::ValueType type_of(const CustomOperand& o, unsigned sew_bytes) {
  switch (o.value) {
    case ValueClass::F: return extension::scalar_of(ElemFormat::F32);
    case ValueClass::V: return extension::vector_of(int_format(sew_bytes, o.is_unsigned));
    case ValueClass::X:
    case ValueClass::Imm:
      if (sew_bytes && o.read && !o.write) return extension::scalar_of(int_format(sew_bytes, o.is_unsigned));
      return extension::scalar_of(o.is_unsigned ? ElemFormat::U32 : ElemFormat::I32);
  }
  return extension::scalar_of(ElemFormat::I32);
}

extension::Role role_of(const CustomOperand& o) {
  if (o.read && o.write) return extension::Role::InOut;
  return o.write ? extension::Role::Output : extension::Role::Input;
}

// Element i of the group at `reg`, as the format's integer.
int64_t element(const Hart& h, unsigned reg, unsigned i, unsigned bytes, bool is_unsigned) {
  if (bytes == 1) return is_unsigned ? int64_t(h.vget<uint8_t>(reg, i)) : int64_t(h.vget<int8_t>(reg, i));
  if (bytes == 2) return is_unsigned ? int64_t(h.vget<uint16_t>(reg, i)) : int64_t(h.vget<int16_t>(reg, i));
  return is_unsigned ? int64_t(h.vget<uint32_t>(reg, i)) : int64_t(h.vget<int32_t>(reg, i));
}

void set_element(Hart& h, unsigned reg, unsigned i, unsigned bytes, int64_t v) {
  if (bytes == 1) h.vset<uint8_t>(reg, i, uint8_t(v));
  else if (bytes == 2) h.vset<uint16_t>(reg, i, uint16_t(v));
  else h.vset<uint32_t>(reg, i, uint32_t(v));
}

Value read_operand(const CustomOperand& o, const Hart& h, const DecodedInsn& d, unsigned sew_bytes) {
  const extension::ValueType t = type_of(o, sew_bytes);
  const uint32_t r = custom_field_value(d, o.field);
  switch (o.value) {
    case ValueClass::F: {
      float f;
      std::memcpy(&f, &h.f[r], 4);
      return Value::scalar_float(ElemFormat::F32, f);
    }
    case ValueClass::V: {
      std::vector<int64_t> lanes(h.vl);
      for (unsigned i = 0; i < h.vl; ++i) lanes[i] = element(h, r, i, sew_bytes, o.is_unsigned);
      return Value::vector_int(t.format, lanes);
    }
    case ValueClass::X: return Value::scalar_int(t.format, o.is_unsigned ? int64_t(h.x[r]) : int64_t(int32_t(h.x[r])));
    case ValueClass::Imm: return Value::scalar_int(t.format, int64_t(d.imm));
  }
  return {};
}

void write_operand(const CustomOperand& o, const Value& v, Hart& h, const DecodedInsn& d, unsigned sew_bytes, bool masked) {
  const uint32_t r = custom_field_value(d, o.field);
  switch (o.value) {
    case ValueClass::F: std::memcpy(&h.f[r], &v.floats[0], 4); return;
    case ValueClass::X: h.x[r] = uint32_t(v.ints[0]); return;
    case ValueClass::V:
      for (unsigned i = 0; i < h.vl; ++i)  // a scalar result fills every lane
        if (!masked || ((h.v[0][i >> 3] >> (i & 7)) & 1)) set_element(h, r, i, sew_bytes, v.ints[v.ints.size() == 1 ? 0 : i]);
      return;
    case ValueClass::Imm: return;
  }
}

}  // namespace

void compile_custom_semantics(CustomInsn& in, const std::string& text, const extension::SourceLocation& where) {
  in.semantics.clear();
  const bool vec = in.is_vector();
  for (unsigned sew : vec ? std::vector<unsigned>{1, 2, 4} : std::vector<unsigned>{0}) {
    std::vector<extension::OperandDecl> decls;
    for (const auto& o : in.operands) decls.push_back({o.name, type_of(o, sew), role_of(o)});
    in.semantics.push_back(std::make_shared<const extension::ExprProgram>(extension::compile_semantics(text, where, decls)));
  }
}

void run_custom_semantics(const CustomInsn& in, Hart& h, const DecodedInsn& d, bool masked, unsigned stride,
                          unsigned sew_bytes) {
  (void)stride;
  const bool vec = in.is_vector();
  if (vec && h.vl == 0) return;  // no elements: nothing is written
  const extension::ExprProgram& prog = *in.semantics[vec ? (sew_bytes == 1 ? 0 : sew_bytes == 2 ? 1 : 2) : 0];
  std::vector<Value> inputs;
  for (uint32_t k : prog.inputs) inputs.push_back(read_operand(in.operands[k], h, d, vec ? sew_bytes : 0));
  const std::vector<Value> outputs = extension::evaluate(prog, inputs);  // every input read first
  for (size_t k = 0; k < prog.outputs.size(); ++k)
    write_operand(in.operands[prog.outputs[k]], outputs[k], h, d, vec ? sew_bytes : 0, masked);
}

}  // namespace tlmcraft::isa::riscv
