#include "platforms/coral/coral_actions.h"

namespace tlmcraft::coral {
namespace rv = isa::riscv;
using rv::OpClass;

namespace {

constexpr OpClass kLastClass = OpClass::Halt;

const char* int_format(uint32_t width_bytes) {
  return width_bytes == 1 ? "int8" : width_bytes == 2 ? "int16" : "int32";
}

int width_index(uint32_t width_bytes) { return width_bytes == 1 ? 0 : width_bytes == 2 ? 1 : 2; }

// The op one element of a class performs, on which unit; "" for none.
struct ClassOp {
  const char* unit;
  const char* op;
};
ClassOp class_op(OpClass cls) {
  switch (cls) {
    case OpClass::Alu: return {"scalar", "add"};       // add, logic, shift, compare: priced as a 32-bit add
    case OpClass::Branch: return {"scalar", "cmp"};
    case OpClass::Jump: return {"scalar", "add"};      // the target address
    case OpClass::Load:
    case OpClass::Store:
    case OpClass::FpLoad:
    case OpClass::FpStore: return {"scalar", "add"};   // the address (base + offset)
    case OpClass::Mul: return {"scalar", "mul"};
    case OpClass::Div: return {"scalar", "div"};
    case OpClass::FpAdd: return {"fpu", "add"};
    case OpClass::FpMul: return {"fpu", "mul"};
    case OpClass::FpFma: return {"fpu", "mac"};
    case OpClass::FpDiv: return {"fpu", "div"};
    case OpClass::FpSqrt: return {"fpu", "sqrt"};
    case OpClass::FpCvt: return {"fpu", "convert"};
    case OpClass::FpCmp: return {"fpu", "cmp"};
    case OpClass::FpMove: return {"fpu", "move"};
    case OpClass::VecAlu: return {"vector", "add"};
    case OpClass::VecMul: return {"vector", "mac"};    // vmul, vmacc, vwmacc...: one MAC per element
    case OpClass::VecDiv: return {"vector", "div"};
    case OpClass::VecFixedPoint: return {"vector", "add"};  // saturating/averaging add, clip: an add each
    case OpClass::VecReduction: return {"vector", "add"};
    case OpClass::VecPermute: return {"vector", "move"};
    case OpClass::VecMask: return {"vector", "logic"};
    case OpClass::VecToScalar: return {"vector", "move"};
    default: return {"", ""};                          // vsetvl, CSR, fence, system, vector memory
  }
}

bool is_vector(OpClass cls) { return cls >= OpClass::VecAlu && cls <= OpClass::VecToScalar; }

}  // namespace

isa::NamedActions CoralActions::class_actions(OpClass cls, uint32_t width_bytes) {
  const ClassOp c = class_op(cls);
  if (!*c.unit) return {};
  const std::string unit = c.unit;
  const char* format = unit == "fpu" ? "fp32" : unit == "scalar" ? "int32" : int_format(width_bytes);
  return isa::actions_of({{{unit, c.op, format, 1}}, {}});
}

CoralActions::CoralActions() {
  fetch_ = catalog_.id("fetch.instruction");
  x_read_ = catalog_.id("xreg.read_bytes"), x_write_ = catalog_.id("xreg.write_bytes");
  f_read_ = catalog_.id("freg.read_bytes"), f_write_ = catalog_.id("freg.write_bytes");
  v_read_ = catalog_.id("vreg.read_bytes"), v_write_ = catalog_.id("vreg.write_bytes");
  dtcm_read_ = catalog_.id("dtcm.read_bytes"), dtcm_write_ = catalog_.id("dtcm.write_bytes");
  ext_read_ = catalog_.id("ext.read_bytes"), ext_write_ = catalog_.id("ext.write_bytes");
  for (int c = 0; c <= int(kLastClass); ++c)
    for (uint32_t w : {1u, 2u, 4u}) per_class_.push(class_actions(OpClass(c), w), catalog_);
}

void CoralActions::count(const rv::StepInfo& s, isa::ActionCounter& counter) const {
  const rv::DecodedInsn& d = *s.insn;
  counter.add(fetch_, 1);
  const bool vector = is_vector(d.cls) || d.cls == OpClass::VecLoad || d.cls == OpClass::VecStore;
  const uint64_t vbytes = uint64_t(s.vl) * s.sew_bytes;
  const auto reg = [&](uint8_t r, bool write) {
    if (r == rv::kNoReg || r == 0) return;  // x0 is no access
    if (r < rv::kFpBase) counter.add(write ? x_write_ : x_read_, 4);
    else if (r < rv::kVecBase) counter.add(write ? f_write_ : f_read_, 4);
    else counter.add(write ? v_write_ : v_read_, vbytes);
  };
  for (uint8_t r : d.src) reg(r, false);
  for (uint8_t r : d.dst) reg(r, true);
  counter.add(per_class_, key(d.cls, width_index(vector ? s.sew_bytes : 4)), vector ? s.vl : 1);
}

void CoralActions::count_memory(uint64_t dtcm_read, uint64_t dtcm_written, uint64_t ext_read, uint64_t ext_written,
                                isa::ActionCounter& counter) const {
  counter.add(dtcm_read_, dtcm_read);
  counter.add(dtcm_write_, dtcm_written);
  counter.add(ext_read_, ext_read);
  counter.add(ext_write_, ext_written);
}

}  // namespace tlmcraft::coral
