// The custom instructions at run time: lookup by encoding, decoding into the ISS's
// DecodedInsn, disassembly and execution of a composition.
//
// A composition runs on a scratch hart: every input is copied into a hidden register of
// the scratch register file (temps get hidden registers too), the steps run there with
// the hart's vtype/vl, and only then are the outputs copied back. So all inputs are read
// before any output is written: rd may equal any source.
#include "isa/riscv/custom_ext.h"

#include <algorithm>
#include <cstdio>

#include "isa/riscv/compose_vtype.h"
#include "isa/riscv/custom_field.h"
#include "isa/riscv/load_step.h"
#include "isa/riscv/step_encoder.h"
#include "isa/riscv/vector_common.h"
#include "isa/riscv/register_names.h"

namespace tlmcraft::isa::riscv {

const char* to_string(ValueClass c) {
  switch (c) {
    case ValueClass::X: return "x";
    case ValueClass::F: return "f";
    case ValueClass::V: return "v";
    case ValueClass::Imm: return "imm";
  }
  return "?";
}
const char* to_string(CustomFormat f) {
  switch (f) {
    case CustomFormat::R: return "r";
    case CustomFormat::I: return "i";
    case CustomFormat::R4: return "r4";
  }
  return "?";
}
const char* to_string(CustomUnit u) {
  switch (u) {
    case CustomUnit::Alu: return "alu";
    case CustomUnit::Mul: return "mul";
    case CustomUnit::Fpu: return "fpu";
    case CustomUnit::VecAlu: return "valu";
    case CustomUnit::VecMul: return "vmul";
    case CustomUnit::VecPermute: return "vpermute";
  }
  return "?";
}
const char* to_string(Field f) {
  switch (f) {
    case Field::Rd: return "rd";
    case Field::Rs1: return "rs1";
    case Field::Rs2: return "rs2";
    case Field::Rs3: return "rs3";
    case Field::Imm: return "imm";
  }
  return "?";
}

bool CustomInsn::is_vector() const {
  for (const auto& o : operands)
    if (o.value == ValueClass::V) return true;
  return false;
}

const CustomOperand* CustomInsn::operand(Field f) const {
  for (const auto& o : operands)
    if (o.field == f) return &o;
  return nullptr;
}

namespace {

uint8_t register_id(ValueClass c, uint32_t r) {
  switch (c) {
    case ValueClass::X: return r == 0 ? kNoReg : uint8_t(r);
    case ValueClass::F: return uint8_t(kFpBase + r);
    case ValueClass::V: return uint8_t(kVecBase + r);
    case ValueClass::Imm: return kNoReg;
  }
  return kNoReg;
}

OpClass op_class(CustomUnit u) {
  switch (u) {
    case CustomUnit::Alu: return OpClass::Alu;
    case CustomUnit::Mul: return OpClass::Mul;
    case CustomUnit::Fpu: return OpClass::FpAdd;
    case CustomUnit::VecAlu: return OpClass::VecAlu;
    case CustomUnit::VecMul: return OpClass::VecMul;
    case CustomUnit::VecPermute: return OpClass::VecPermute;
  }
  return OpClass::Alu;
}

void exec_custom(Hart& h, const DecodedInsn& d) { h.custom->execute(h, d); }

[[noreturn]] void custom_illegal(const CustomInsn& in, const DecodedInsn& d, const std::string& why) {
  char raw[16];
  std::snprintf(raw, sizeof raw, "0x%08x", d.raw);
  throw Trap{TrapCause::IllegalInstruction, d.raw, "illegal instruction " + std::string(raw) + " (" + in.mnemonic + "): " + why};
}

// Where each name lives in the scratch register file (compose_vtype.h: one aligned group
// per vector name, sized by the widest value it holds at any step; v0 stays the mask).
std::vector<uint32_t> scratch_map(const CustomInsn& in, const DecodedInsn& d, const std::vector<NameGroup>& groups) {
  std::vector<uint32_t> reg;
  if (!allocate_scratch(in, groups, reg))
    custom_illegal(in, d, "its operands and temps need more hidden registers than the register file holds at this LMUL");
  return reg;
}

// What the timing model needs of a load step: the access (address, bytes, blocks) and, for a
// vector load, the group it loads.
void load_info(StepInfo& to, const StepInfo& load) {
  to.mem_addr = load.mem_addr;
  to.mem_bytes = load.mem_bytes;
  to.mem_blocks = load.mem_blocks;
  to.mem_strided = load.mem_strided;
  if (load.dst_group && load.sew_bytes) {  // a vector load (a scalar one leaves them 0)
    to.load_group = load.dst_group;
    to.load_sew_bytes = load.sew_bytes;
  }
}

void copy_group(uint8_t (*dst)[kVlenBytes], unsigned to, const uint8_t (*src)[kVlenBytes], unsigned from, unsigned regs) {
  for (unsigned k = 0; k < regs; ++k) std::memcpy(dst[to + k], src[from + k], kVlenBytes);
}

}  // namespace

namespace {
void run_compose(const CustomInsn& in, Hart& h, const DecodedInsn& d, bool masked, const std::vector<NameGroup>& groups);
std::vector<NameGroup> checked_groups(const CustomInsn& in, const Hart& h, const DecodedInsn& d);
}  // namespace

bool is_custom(const DecodedInsn& d) { return d.exec == exec_custom; }

int CustomExtensions::find(uint32_t raw) const {
  for (size_t i = 0; i < insns_.size(); ++i)
    if ((raw & insns_[i].mask) == insns_[i].match) return int(i);
  return -1;
}

void CustomExtensions::decode_into(int index, DecodedInsn& d) const {
  const CustomInsn& in = insns_[size_t(index)];
  d.exec = exec_custom;
  d.aux = uint32_t(index);
  d.cls = op_class(in.unit);
  d.latency = uint8_t(in.latency);
  d.ii = uint8_t(in.ii);
  if (in.format == CustomFormat::I) d.imm = static_cast<int32_t>(d.raw) >> 20;
  d.dst[0] = d.dst[1] = kNoReg;
  for (auto& s : d.src) s = kNoReg;
  int ns = 0;
  // A load step's address register comes first: the timing model reads it as the LSU's.
  const int address = load_address_operand(in);
  if (address >= 0) d.src[ns++] = register_id(ValueClass::X, custom_field_value(d, in.operands[size_t(address)].field));
  for (size_t i = 0; i < in.operands.size(); ++i) {
    const CustomOperand& o = in.operands[i];
    if (o.value == ValueClass::Imm || int(i) == address) continue;
    const uint8_t id = register_id(o.value, custom_field_value(d, o.field));
    if (o.write) d.dst[0] = id;
    if (o.read && ns < 4) d.src[ns++] = id;
  }
  if (in.masked && !(d.raw >> 25 & 1) && ns < 4) d.src[ns++] = kVecBase;  // v0, the mask
}

std::string CustomExtensions::disassemble(int index, uint32_t raw) const {
  const CustomInsn& in = insns_[size_t(index)];
  DecodedInsn d;
  d.raw = raw;
  d.rd = (raw >> 7) & 31;
  d.rs1 = (raw >> 15) & 31;
  d.rs2 = (raw >> 20) & 31;
  d.rs3 = raw >> 27;
  d.imm = static_cast<int32_t>(raw) >> 20;
  std::string s = in.mnemonic;
  const char* sep = " ";
  for (const auto& o : in.operands) {
    const uint32_t v = custom_field_value(d, o.field);
    s += sep;
    sep = ",";
    if (o.value == ValueClass::X) s += kXNames[v];
    else if (o.value == ValueClass::F) s += kFNames[v];
    else if (o.value == ValueClass::V) s += "v" + std::to_string(v);
    else s += std::to_string(d.imm);
  }
  if (in.masked && !(raw >> 25 & 1)) s += ",v0.t";
  return s;
}

void CustomExtensions::execute(Hart& h, const DecodedInsn& d) const {
  const CustomInsn& in = insns_[d.aux];
  const bool vec = in.is_vector();
  const bool masked = in.masked && !(d.raw >> 25 & 1);
  unsigned stride = 1, sew = 4;
  std::vector<NameGroup> groups;
  if (vec) {
    if (h.vill()) custom_illegal(in, d, "vtype.vill is set");
    const vec::VType vt = vec::current_vtype(h, d);
    stride = vec::group_regs(vt.lmul_log2);
    sew = vt.sew_bytes;
    groups = checked_groups(in, h, d);
    if (masked && d.rd == 0 && in.operand(Field::Rd) && in.operand(Field::Rd)->value == ValueClass::V)
      custom_illegal(in, d, "masked instruction with destination group v0");
  }
  if (!in.semantics.empty()) {
    run_custom_semantics(in, h, d, masked, stride, sew);
  } else {
    run_compose(in, h, d, masked, groups);
  }
  if (vec) {
    // Timing sees the widest groups and element the steps touch (a widening chain's
    // accumulator: 4 x SEW at 4 x LMUL from e8) at the entry SEW. The timing model reads an
    // accumulator (a source in the destination's register) by the destination's group, so
    // the source group is the widest of the other vector sources (vqmacc's vb: 2 at m2).
    unsigned dst = 1, src = 0, widest = sew;
    const CustomOperand* rd = in.operand(Field::Rd);
    for (size_t i = 0; i < in.operands.size(); ++i) {
      if (in.operands[i].value != ValueClass::V) continue;
      if (in.operands[i].write) dst = std::max(dst, groups[i].registers);
      const bool accumulator = rd && rd->value == ValueClass::V && custom_field_value(d, in.operands[i].field) == d.rd;
      if (in.operands[i].read && !accumulator) src = std::max(src, groups[i].registers);
    }
    if (src == 0) src = dst;
    for (const NameGroup& g : groups) widest = std::max(widest, g.element_bytes);
    h.vstart = 0;
    h.info.vl = uint16_t(h.vl);
    h.info.sew_bytes = uint8_t(sew);
    h.info.dst_group = uint8_t(dst);
    h.info.src_group = uint8_t(src);
    h.info.element_scale = uint8_t(widest / sew);
  }
}

namespace {

// Each name's group at the hart's vtype; an operand register not aligned to its group, or
// a vtype step that would change VLMAX (and with it vl), is an illegal instruction.
std::vector<NameGroup> checked_groups(const CustomInsn& in, const Hart& h, const DecodedInsn& d) {
  const std::vector<NameGroup> groups = name_groups(in, h.vtype);
  for (size_t i = 0; i < in.operands.size(); ++i) {
    if (in.operands[i].value != ValueClass::V) continue;
    const uint32_t r = custom_field_value(d, in.operands[i].field), n = groups[i].registers;
    if (r % n)
      custom_illegal(in, d, "register v" + std::to_string(r) + " is not aligned to " +
                                (n == vec::group_regs(vec::lmul_log2_of(h.vtype)) ? "LMUL " : "its group of ") +
                                std::to_string(n));
  }
  for (const ComposeStep& st : in.steps)
    if (st.sets_vtype >= 0 && !same_vl_ratio(h.vtype, uint32_t(st.sets_vtype)))
      custom_illegal(in, d, "step '" + st.text + "' would change VLMAX from vtype " + vtype_text(h.vtype) +
                                " (it keeps vl only at an equal SEW/LMUL ratio)");
  return groups;
}

// The compose steps on the scratch hart (file comment).
void run_compose(const CustomInsn& in, Hart& h, const DecodedInsn& d, bool masked, const std::vector<NameGroup>& groups) {
  const std::vector<uint32_t> map = scratch_map(in, d, groups);
  static thread_local Hart s;
  s.vtype = h.vtype;
  s.vl = h.vl;
  s.vstart = 0;
  s.vxrm = h.vxrm;
  s.vxsat = h.vxsat;
  s.frm = h.frm;
  s.fflags = h.fflags;
  if (masked) std::memcpy(s.v[0], h.v[0], kVlenBytes);
  // Inputs (and the old value of each output: masked-off and tail elements keep it).
  for (size_t i = 0; i < in.operands.size(); ++i) {
    const CustomOperand& o = in.operands[i];
    const uint32_t r = custom_field_value(d, o.field), to = map[i];
    if (o.value == ValueClass::X) s.x[to] = h.x[r];
    else if (o.value == ValueClass::F) s.f[to] = h.f[r];
    else if (o.value == ValueClass::V) copy_group(s.v, to, h.v, r, groups[i].registers);
  }
  const bool loads = has_load_step(in);
  if (loads) s.share_regions(h);
  for (const ComposeStep& st : in.steps) {
    uint32_t raw = st.base;
    for (const auto& b : st.binds) {
      if (b.field == Field::Imm) {
        if (!immediate_fits(st.imm_kind, d.imm))
          custom_illegal(in, d, "immediate " + std::to_string(d.imm) + " does not fit step '" + st.text + "'");
        raw = place(raw, {Field::Imm, ValueClass::Imm, st.imm_kind}, uint32_t(d.imm));
      } else {
        raw = place(raw, {b.field, b.cls, 0}, map[size_t(b.name)]);
      }
    }
    if (st.vector && masked) raw &= ~(1u << 25);
    const DecodedInsn sd = decode(raw, nullptr);
    if (st.load) s.info = StepInfo{};
    try {
      sd.exec(s, sd);
    } catch (const Trap& t) {
      if (st.load && t.cause != TrapCause::IllegalInstruction)  // the plain load's trap
        throw Trap{t.cause, t.tval, in.mnemonic + ": " + t.detail};
      custom_illegal(in, d, "step '" + st.text + "': " + t.detail);
    }
    if (st.load) load_info(h.info, s.info);
    s.x[0] = 0;
  }
  for (size_t i = 0; i < in.operands.size(); ++i) {
    const CustomOperand& o = in.operands[i];
    if (!o.write) continue;
    const uint32_t r = custom_field_value(d, o.field), from = map[i];
    if (o.value == ValueClass::X) h.x[r] = s.x[from];
    else if (o.value == ValueClass::F) h.f[r] = s.f[from];
    else if (o.value == ValueClass::V) copy_group(h.v, r, s.v, from, groups[i].registers);
  }
  h.fflags = s.fflags;
  h.vxsat = s.vxsat;
}

}  // namespace

DecodedInsn decode(uint32_t raw, const CustomExtensions* custom) {
  DecodedInsn d = decode(raw);
  const uint32_t opcode = raw & 0x7f;
  const bool custom_space = opcode == 0x0b || opcode == 0x2b || opcode == 0x5b || opcode == 0x7b;
  if (custom && custom_space) {
    const int i = custom->find(raw);
    if (i >= 0) custom->decode_into(i, d);
  }
  return d;
}

std::string disassemble(uint32_t raw, uint32_t pc, const CustomExtensions* custom) {
  if (custom) {
    const int i = custom->find(raw);
    if (i >= 0) return custom->disassemble(i, raw);
  }
  return Hart::disassemble(raw, pc);
}

const std::vector<CustomFormatFields>& custom_format_fields() {
  static const std::vector<CustomFormatFields> fields = {
      {CustomFormat::R, 2, 1}, {CustomFormat::R4, 3, 1}, {CustomFormat::I, 1, 1}};  // rs1 rs2 [rs3] -> rd
  return fields;
}

}  // namespace tlmcraft::isa::riscv
