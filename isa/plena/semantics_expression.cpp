// `semantics:` instructions on PLENA (docs/platforms/plena.md, "Added instructions"): the
// shared evaluator computes every output from the inputs, then the outputs are stored.
// vrow operands are the VLEN-lane bf16 row a gp register addresses (VLEN-aligned, inside
// the VRAM, as for the vector instructions); fp a bf16 register, gp a u32 register.
#include <string>

#include "isa/plena/semantics.h"

namespace tlmcraft::isa::plena {
namespace {

namespace ext = isa::extension;
using Storage = ExpressionInstruction::Storage;

std::string check_row(const PlenaState& s, const ExpressionInstruction::Operand& op) {
  const uint32_t addr = s.gp[size_t(op.value)];
  const uint32_t vlen = s.params.vlen;
  if (addr % vlen || uint64_t(addr) + vlen > s.vram.size)
    return std::string("operand ") + op.name + ": VRAM address gp" + std::to_string(op.value) + " = " +
           std::to_string(addr) + " is not a VLEN-aligned row inside the VRAM (" + std::to_string(s.vram.size) +
           " elements)";
  return "";
}

ext::Value load(const PlenaState& s, const ExpressionInstruction::Operand& op) {
  switch (op.storage) {
    case Storage::VramRow: {
      const uint16_t* row = s.vram.data + s.gp[size_t(op.value)];
      return ext::Value::from_bf16_bits(std::vector<uint16_t>(row, row + s.params.vlen), true);
    }
    case Storage::Fp: return ext::Value::from_bf16_bits({s.fp[size_t(op.value)]}, false);
    case Storage::Gp: return ext::Value::scalar_int(ext::ElemFormat::U32, s.gp[size_t(op.value)]);
    case Storage::Immediate: break;
  }
  return ext::Value::scalar_int(ext::ElemFormat::I32, op.value);
}

void store(PlenaState& s, const ExpressionInstruction& e, const ExpressionInstruction::Operand& op,
           const ext::Value& v) {
  switch (op.storage) {
    case Storage::VramRow: {
      const std::vector<uint16_t> bits = v.bf16_bits();
      uint16_t* row = s.vram.data + s.gp[size_t(op.value)];
      const uint32_t hlen = s.params.hlen;
      for (uint32_t h = 0; h < s.mask_heads(); ++h) {
        if (e.rmask && !((s.v_mask >> h) & 1u)) continue;
        for (uint32_t i = h * hlen; i < (h + 1) * hlen && i < bits.size(); ++i) row[i] = bits[i];
      }
      return;
    }
    case Storage::Fp:
      if (op.value != 0) s.fp[size_t(op.value)] = v.bf16_bits()[0];
      return;
    case Storage::Gp:
      if (op.value != 0) s.gp[size_t(op.value)] = uint32_t(v.ints[0]);
      return;
    case Storage::Immediate: return;
  }
}

}  // namespace

void execute_expression(const ExpressionInstruction& e, const char* mnemonic, PlenaState& state, StepResult& out) {
  out = StepResult{};
  const uint32_t pc = state.pc;
  const ext::ExprProgram& p = *e.program;
  auto fail = [&](const std::string& why) {
    out.fault = std::string(mnemonic) + ": " + why;
    out.next_pc = pc;
  };
  // Every row operand is checked before anything is read or written.
  for (const auto& op : e.operands)
    if (op.storage == Storage::VramRow)
      if (const std::string why = check_row(state, op); !why.empty()) return fail(why);
  std::vector<ext::Value> inputs;
  for (uint32_t i : p.inputs) {
    inputs.push_back(load(state, e.operands[i]));
    if (e.operands[i].storage == Storage::VramRow && out.n_reads < kMaxReadRanges)
      out.reads[out.n_reads++] = {Memory::VRAM, state.gp[size_t(e.operands[i].value)], state.params.vlen};
  }
  std::vector<ext::Value> outputs;
  try {
    outputs = ext::evaluate(p, inputs);
  } catch (const std::exception& x) {
    return fail(x.what());
  }
  for (size_t k = 0; k < p.outputs.size(); ++k) {
    const auto& op = e.operands[p.outputs[k]];
    if (op.storage == Storage::VramRow && out.n_writes < kMaxWriteRanges)
      out.writes[out.n_writes++] = {Memory::VRAM, state.gp[size_t(op.value)], state.params.vlen};
  }
  for (size_t k = 0; k < p.outputs.size(); ++k) store(state, e, e.operands[p.outputs[k]], outputs[k]);
  out.next_pc = pc + 1;
  state.pc = out.next_pc;
}

}  // namespace tlmcraft::isa::plena
