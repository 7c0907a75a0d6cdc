// The disassembler inverted (step_encoder.h): candidate words with marker registers
// rd = 5, rs1 = 6, rs2 = 7, rs3 = 8 and marker immediates, disassembled once; each
// printed operand says which field it came from.
#include "isa/riscv/step_encoder.h"

#include <map>
#include <mutex>
#include <set>

namespace tlmcraft::isa::riscv {
namespace {

constexpr uint32_t kRd = 5, kRs1 = 6, kRs2 = 7, kRs3 = 8;
constexpr uint32_t kImm12 = 291, kShamt = 9;

struct Tables {
  std::map<std::string, std::vector<StepTemplate>> by_mnemonic;
  std::set<std::string> all_mnemonics;
};

bool reg_token(const std::string& t, StepOperandSlot& slot) {
  static const std::map<std::string, StepOperandSlot> markers = {
      {"t0", {Field::Rd, ValueClass::X}},   {"t1", {Field::Rs1, ValueClass::X}},  {"t2", {Field::Rs2, ValueClass::X}},
      {"ft5", {Field::Rd, ValueClass::F}},  {"ft6", {Field::Rs1, ValueClass::F}}, {"ft7", {Field::Rs2, ValueClass::F}},
      {"fs0", {Field::Rs3, ValueClass::F}}, {"v5", {Field::Rd, ValueClass::V}},   {"v6", {Field::Rs1, ValueClass::V}},
      {"v7", {Field::Rs2, ValueClass::V}}};
  auto it = markers.find(t);
  if (it == markers.end()) return false;
  slot = it->second;
  return true;
}

// The immediate marker each major opcode uses, as the disassembler prints it.
bool imm_token(const std::string& t, uint32_t opcode, uint32_t funct3, StepOperandSlot& slot) {
  if (opcode == 0x13 && (funct3 == 1 || funct3 == 5) && t == "0x9") {
    slot = {Field::Imm, ValueClass::Imm, 2};
    return true;
  }
  if (opcode == 0x13 && t == std::to_string(kImm12)) {
    slot = {Field::Imm, ValueClass::Imm, 1};
    return true;
  }
  if (opcode == 0x57 && funct3 == 3 && t == std::to_string(kRs1)) {
    slot = {Field::Imm, ValueClass::Imm, 3};
    return true;
  }
  return false;
}

uint32_t field_mask(const StepOperandSlot& s) {
  switch (s.field) {
    case Field::Rd: return 0x1fu << 7;
    case Field::Rs1: return 0x1fu << 15;
    case Field::Rs2: return 0x1fu << 20;
    case Field::Rs3: return 0x1fu << 27;
    case Field::Imm: return s.imm_kind == 1 ? 0xfffu << 20 : s.imm_kind == 2 ? 0x1fu << 20 : 0x1fu << 15;
  }
  return 0;
}

bool register_only(OpClass c) {
  switch (c) {
    case OpClass::Load: case OpClass::Store: case OpClass::Branch: case OpClass::Jump: case OpClass::Csr:
    case OpClass::System: case OpClass::Fence: case OpClass::Halt: case OpClass::VecConfig: case OpClass::FpLoad:
    case OpClass::FpStore: case OpClass::VecLoad: case OpClass::VecStore: return false;
    default: return true;
  }
}

void add_candidate(Tables& t, uint32_t raw) {
  const DecodedInsn d = decode(raw, nullptr);
  const std::string text = Hart::disassemble(raw, 0);
  Token mn;
  std::vector<Token> ops;
  split_instruction(text, mn, ops);
  if (mn.text.empty() || mn.text == ".word") return;
  t.all_mnemonics.insert(mn.text);
  if (!register_only(d.cls)) return;
  StepTemplate tpl;
  tpl.mnemonic = mn.text;
  tpl.cls = d.cls;
  uint32_t clear = 0;
  for (const Token& op : ops) {
    StepOperandSlot s{};
    if (!reg_token(op.text, s) && !imm_token(op.text, raw & 0x7f, (raw >> 12) & 7, s)) return;
    tpl.slots.push_back(s);
    clear |= field_mask(s);
  }
  tpl.base = raw & ~clear;
  auto& list = t.by_mnemonic[tpl.mnemonic];
  for (const auto& other : list)
    if (other.slots.size() == tpl.slots.size()) return;  // the first spelling wins
  list.push_back(tpl);
}

uint32_t regs(uint32_t opcode, uint32_t f3, uint32_t f7) {
  return f7 << 25 | kRs2 << 20 | kRs1 << 15 | f3 << 12 | kRd << 7 | opcode;
}

Tables build() {
  Tables t;
  for (uint32_t f7 : {0x00u, 0x01u, 0x20u})
    for (uint32_t f3 = 0; f3 < 8; ++f3) add_candidate(t, regs(0x33, f3, f7));
  for (uint32_t f3 : {0u, 2u, 3u, 4u, 6u, 7u}) add_candidate(t, kImm12 << 20 | kRs1 << 15 | f3 << 12 | kRd << 7 | 0x13);
  add_candidate(t, kShamt << 20 | kRs1 << 15 | 1u << 12 | kRd << 7 | 0x13);
  add_candidate(t, kShamt << 20 | kRs1 << 15 | 5u << 12 | kRd << 7 | 0x13);
  add_candidate(t, 0x20u << 25 | kShamt << 20 | kRs1 << 15 | 5u << 12 | kRd << 7 | 0x13);
  for (uint32_t f7 : {0x00u, 0x04u, 0x08u, 0x0Cu, 0x2Cu, 0x10u, 0x14u, 0x50u, 0x60u, 0x68u, 0x70u, 0x78u})
    for (uint32_t f3 = 0; f3 < 8; ++f3)
      for (uint32_t rs2 : {kRs2, 0u, 1u}) add_candidate(t, f7 << 25 | rs2 << 20 | kRs1 << 15 | f3 << 12 | kRd << 7 | 0x53);
  for (uint32_t op : {0x43u, 0x47u, 0x4bu, 0x4fu}) add_candidate(t, kRs3 << 27 | regs(op, 7, 0));
  for (uint32_t f6 = 0; f6 < 64; ++f6)
    for (uint32_t f3 : {0u, 2u, 3u, 4u, 6u}) add_candidate(t, f6 << 26 | 1u << 25 | kRs2 << 20 | kRs1 << 15 | f3 << 12 | kRd << 7 | 0x57);
  // Memory and control mnemonics only matter as names a custom instruction may not take.
  for (const char* m : {"lb", "lh", "lw", "lbu", "lhu", "sb", "sh", "sw", "flw", "fsw", "beq", "bne", "blt", "bge",
                        "bltu", "bgeu", "jal", "jalr", "lui", "auipc", "ecall", "ebreak", "mpause", "fence", "csrrw",
                        "csrrs", "csrrc", "csrrwi", "csrrsi", "csrrci", "vsetvli", "vsetivli", "vsetvl", "nop", "li",
                        "mv", "ret", "j", "not", "neg"})
    t.all_mnemonics.insert(m);
  return t;
}

const Tables& tables() {
  static const Tables t = build();
  return t;
}

}  // namespace

void split_instruction(const std::string& text, Token& mnemonic, std::vector<Token>& operands) {
  operands.clear();
  size_t i = text.find_first_not_of(" \t");
  if (i == std::string::npos) {
    mnemonic = {};
    return;
  }
  size_t end = text.find_first_of(" \t", i);
  mnemonic = {text.substr(i, end == std::string::npos ? std::string::npos : end - i), i};
  if (end == std::string::npos) return;
  size_t pos = end;
  while (pos < text.size()) {
    size_t start = text.find_first_not_of(" \t", pos);
    if (start == std::string::npos) break;
    size_t comma = text.find(',', start);
    size_t stop = comma == std::string::npos ? text.size() : comma;
    size_t last = text.find_last_not_of(" \t", stop - 1);
    operands.push_back({text.substr(start, last >= start ? last - start + 1 : 0), start});
    if (comma == std::string::npos) break;
    pos = comma + 1;
  }
}

std::vector<const StepTemplate*> step_templates(const std::string& mnemonic) {
  std::vector<const StepTemplate*> out;
  auto it = tables().by_mnemonic.find(mnemonic);
  if (it != tables().by_mnemonic.end())
    for (const auto& t : it->second) out.push_back(&t);
  return out;
}

bool is_standard_mnemonic(const std::string& mnemonic) { return tables().all_mnemonics.count(mnemonic) > 0; }

uint32_t place(uint32_t raw, const StepOperandSlot& slot, uint32_t value) {
  switch (slot.field) {
    case Field::Rd: return raw | (value & 31) << 7;
    case Field::Rs1: return raw | (value & 31) << 15;
    case Field::Rs2: return raw | (value & 31) << 20;
    case Field::Rs3: return raw | (value & 31) << 27;
    case Field::Imm:
      if (slot.imm_kind == 1) return raw | (value & 0xfff) << 20;
      if (slot.imm_kind == 2) return raw | (value & 31) << 20;
      return raw | (value & 31) << 15;
  }
  return raw;
}

bool immediate_fits(int imm_kind, int64_t value) {
  switch (imm_kind) {
    case 1: return value >= -2048 && value <= 2047;
    case 2: return value >= 0 && value <= 31;
    case 3: return value >= -16 && value <= 31;  // simm5, or uimm5 for shifts and slides
  }
  return false;
}

}  // namespace tlmcraft::isa::riscv
