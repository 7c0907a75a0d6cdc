// A built Coral program as dataflow. Every code word is decoded by the ISS (its static
// register dependencies) and disassembled by it (the operand order compose steps use);
// registers are storage by ABI name, x0 a literal, memory one storage "mem" (loads read
// it, stores write it, so a path through memory is a dependence), vtype/vl one storage
// "vtype". A `vsetvli zero, zero, <vtype>` that keeps the SEW/LMUL ratio and the policies
// of the vtype before it (known in the block) keeps vl: it is no barrier but an op that
// reads and writes "vtype", so a chain across a vtype change (vwmul at e8, vwadd.wv at
// e16) is one region and can be one instruction (coral_vtype_window). A vector operand names the first register of its group; the other registers
// of the group (LMUL from the block's last vsetvli, 8 when unknown; twice that for
// widening and narrowing ops) are implicit reads or writes, so groups that overlap meet.
// Control flow: branches and jal by their targets, jalr as a return (the ABI's return
// and callee-saved registers read); barriers: control flow, CSRs, fences, vset*, ecall.
#include "platforms/coral/pack/agent/coral_dataflow.h"

#include <algorithm>
#include <cctype>
#include <map>
#include <set>

#include "isa/riscv/compose_vtype.h"
#include "isa/riscv/load_step.h"
#include "isa/riscv/register_names.h"
#include "isa/riscv/step_encoder.h"
#include "platforms/coral/pack/agent/coral_kernel_run.h"

namespace tlmcraft::agent::search::coral {
namespace {

namespace df = isa::dataflow;
namespace rv = isa::riscv;

std::string reg_name(int r) {
  if (r < 32) return rv::kXNames[r];
  if (r < 64) return rv::kFNames[r - 32];
  return "v" + std::to_string(r - 64);
}

// Register id (x 0-31, f 32-63, v 64-95) of a disassembled operand, or -1; "8(a0)" is a0.
int reg_of(std::string t) {
  if (const size_t open = t.find('('); open != std::string::npos) t = t.substr(open + 1, t.find(')') - open - 1);
  if (t == "v0.t") return 64;
  static const std::map<std::string, int> names = [] {
    std::map<std::string, int> m;
    for (int i = 0; i < 32; ++i) {
      m[rv::kXNames[i]] = i;
      m[rv::kFNames[i]] = 32 + i;
      m["v" + std::to_string(i)] = 64 + i;
    }
    return m;
  }();
  auto it = names.find(t);
  return it == names.end() ? -1 : it->second;
}

bool starts(const std::string& s, const char* p) { return s.rfind(p, 0) == 0; }

struct Word {
  uint32_t pc = 0, raw = 0, line = 0;
};

std::vector<Word> code_words(const isa::Program& p) {
  std::vector<Word> words;
  size_t k = 0;
  for (const auto& s : p.segments) {
    if (!s.executable) continue;
    for (size_t off = 0; off + 4 <= s.bytes.size(); off += 4, ++k)
      words.push_back({uint32_t(s.address + off), k < p.code.size() ? p.code[k].opcode : 0,
                       k < p.code.size() ? p.code[k].line : 0});
  }
  return words;
}

// Registers of a vector group beyond its first, as storage names.
void add_group(std::vector<std::string>& into, int first, int group) {
  for (int r = first + 1; r < first + group && r < 96; ++r) into.push_back(reg_name(r));
}

class Builder {
 public:
  Builder(const std::vector<Word>& words) : words_(words) {
    for (size_t i = 0; i < words.size(); ++i) index_[words[i].pc] = i;
  }

  std::vector<df::Op> build() {
    std::vector<df::Op> ops;
    for (size_t i = 0; i < words_.size(); ++i) {
      if (leaders().count(i)) {
        lmul_ = 8;
        vtype_ = kUnknownVtype;
      }
      ops.push_back(op_of(words_[i]));
    }
    return ops;
  }

  // Indices that start a basic block.
  const std::set<size_t>& leaders() {
    if (!leaders_.empty()) return leaders_;
    leaders_.insert(0);
    for (size_t i = 0; i < words_.size(); ++i) {
      const rv::DecodedInsn d = rv::decode(words_[i].raw, nullptr);
      if (d.cls != rv::OpClass::Branch && d.cls != rv::OpClass::Jump) continue;
      leaders_.insert(i + 1);
      if (auto t = target(words_[i], d); t >= 0) leaders_.insert(size_t(t));
    }
    return leaders_;
  }

 private:
  const std::vector<Word>& words_;
  std::map<uint32_t, size_t> index_;
  std::set<size_t> leaders_;
  int lmul_ = 8;
  static constexpr uint32_t kUnknownVtype = 0xffffffffu;
  uint32_t vtype_ = kUnknownVtype;  // in effect in the block so far

  // A vsetvli's vtype from its printed words (kUnknownVtype for vsetvl or no policies).
  static uint32_t vtype_of(const std::string& mnemonic, const std::vector<rv::Token>& toks) {
    uint32_t vt = kUnknownVtype;
    if (mnemonic != "vsetvli" && mnemonic != "vsetivli") return vt;
    if (toks.size() != 6 || !rv::parse_vtype_words({toks[2].text, toks[3].text, toks[4].text, toks[5].text}, vt))
      return kUnknownVtype;
    return vt;
  }

  // `vsetvli zero, zero, V` after a known vtype with V's ratio and policies: vl kept.
  bool keeps_vl(const std::string& mnemonic, const std::vector<rv::Token>& toks, uint32_t set) const {
    return mnemonic == "vsetvli" && toks.size() == 6 && toks[0].text == "zero" && toks[1].text == "zero" &&
           set != kUnknownVtype && vtype_ != kUnknownVtype && rv::same_vl_ratio(set, vtype_) &&
           rv::same_policies(set, vtype_);
  }

  // The op index a branch or jal goes to, or -1 (jalr, outside the code).
  long target(const Word& w, const rv::DecodedInsn& d) const {
    const uint32_t opcode = w.raw & 0x7f;
    if (opcode != 0x63 && opcode != 0x6f) return -1;
    auto it = index_.find(w.pc + uint32_t(d.imm));
    return it == index_.end() ? -1 : long(it->second);
  }

  // A load's "8(a1)" as the offset "8" and the address register "a1": the operands of a
  // load step (isa/riscv/load_step.h), so that a pattern keeps the offset.
  static void split_load_address(const std::string& mnemonic, std::vector<rv::Token>& toks) {
    std::string offset, reg;
    if (!rv::load_step_form(mnemonic) || toks.size() != 2 || !rv::split_memory_operand(toks[1].text, offset, reg))
      return;
    toks = {toks[0], rv::Token{offset, toks[1].offset}, rv::Token{reg, toks[1].offset}};
  }

  df::Op op_of(const Word& w) {
    const rv::DecodedInsn d = rv::decode(w.raw, nullptr);
    const std::string text = rv::disassemble(w.raw, w.pc, nullptr);
    rv::Token mn;
    std::vector<rv::Token> toks;
    rv::split_instruction(text, mn, toks);
    split_load_address(mn.text, toks);
    df::Op op;
    op.mnemonic = mn.text;
    op.line = w.line;
    std::set<int> dst, src;
    for (uint8_t r : d.dst)
      if (r != rv::kNoReg && r != 0) dst.insert(r);
    for (uint8_t r : d.src)
      if (r != rv::kNoReg && r != 0) src.insert(r);
    const bool vector = std::any_of(dst.begin(), dst.end(), [](int r) { return r >= 64; }) ||
                        std::any_of(src.begin(), src.end(), [](int r) { return r >= 64; }) ||
                        starts(op.mnemonic, "vset");
    const bool wide = starts(op.mnemonic, "vw") || starts(op.mnemonic, "vn");
    const int group = std::min(8, lmul_ * (wide ? 2 : 1));
    std::set<int> named;
    std::multiset<int> regs;
    for (const rv::Token& t : toks) regs.insert(reg_of(t.text));
    for (size_t k = 0; k < toks.size(); ++k) {
      const rv::Token& t = toks[k];
      df::Operand o;
      o.text = t.text;
      const int r = reg_of(t.text);
      const bool memory = t.text.find('(') != std::string::npos;
      if (r > 0 && (dst.count(r) || src.count(r))) {
        // The first operand is the destination; it is also read only when no other
        // operand names the register (vmacc's vd), else that operand is the read.
        const bool writes = k == 0 && dst.count(r) && !memory && t.text != "v0.t";
        const bool reads = src.count(r) > 0 && (!writes || regs.count(r) == 1);
        o.access = writes && reads ? df::Access::ReadWrite : writes ? df::Access::Write : df::Access::Read;
        o.storage = reg_name(r);
        named.insert(r);
        if (r >= 64 && t.text != "v0.t") {
          if (o.writes()) add_group(op.implicit_writes, r, group);
          if (o.reads()) add_group(op.implicit_reads, r, group);
        }
      }
      op.operands.push_back(o);
    }
    for (int r : src)
      if (!named.count(r)) op.implicit_reads.push_back(reg_name(r));
    for (int r : dst)
      if (!named.count(r)) op.implicit_writes.push_back(reg_name(r));
    if (vector) (starts(op.mnemonic, "vset") ? op.implicit_writes : op.implicit_reads).push_back("vtype");
    classify(w, d, toks, op);
    return op;
  }

  void classify(const Word& w, const rv::DecodedInsn& d, const std::vector<rv::Token>& toks, df::Op& op) {
    using C = rv::OpClass;
    switch (d.cls) {
      case C::Load:
      case C::FpLoad:
      case C::VecLoad:
        op.implicit_reads.push_back("mem");
        return;
      case C::Store:
      case C::FpStore:
      case C::VecStore:
        op.implicit_writes.push_back("mem");
        return;
      case C::Branch:
      case C::Jump: {
        op.barrier = true;
        const long t = target(w, d);
        if (t >= 0) op.jumps_to.push_back(size_t(t));
        const bool jalr = (w.raw & 0x7f) == 0x67;
        if (jalr || (t < 0 && d.cls == C::Jump)) {  // a return or an indirect jump: the ABI's live registers
          for (const char* r : {"a0",  "a1",  "fa0", "fa1", "sp",  "ra",  "s0",  "s1",  "s2",   "s3",
                                "s4",  "s5",  "s6",  "s7",  "s8",  "s9",  "s10", "s11", "fs0",  "fs1",
                                "fs2", "fs3", "fs4", "fs5", "fs6", "fs7", "fs8", "fs9", "fs10", "fs11"})
            op.implicit_reads.push_back(r);
        }
        // jal/jalr without a link register does not come back; a call does.
        if (d.cls == C::Jump && d.rd == 0) op.falls_through = false;
        return;
      }
      case C::VecConfig: {
        const uint32_t set = vtype_of(op.mnemonic, toks);
        if (keeps_vl(op.mnemonic, toks, set))
          op.implicit_reads.push_back("vtype");  // the vl it keeps; no barrier
        else
          op.barrier = true;
        vtype_ = set;
        for (const rv::Token& t : toks)
          if (starts(t.text, "mf"))
            lmul_ = 1;
          else if (t.text.size() == 2 && t.text[0] == 'm' && isdigit(uint8_t(t.text[1])))
            lmul_ = t.text[1] - '0';
        return;
      }
      case C::Halt:
        op.barrier = true;
        op.falls_through = false;
        return;
      case C::Csr:
      case C::System:
      case C::Fence:
        op.barrier = true;
        return;
      default:
        if (op.mnemonic == ".word") op.barrier = true;  // data or an illegal word
        return;
    }
  }
};

}  // namespace

codesign::KernelDataflow program_dataflow(const isa::Program& program, const std::vector<uint64_t>& executions,
                                          const nlohmann::json& hardware) {
  const std::vector<Word> words = code_words(program);
  Builder b(words);
  codesign::KernelDataflow k;
  k.ops = b.build();
  for (size_t i = 0; i < words.size(); ++i) {
    const size_t w = words[i].pc / 4;
    k.executions.push_back(w < executions.size() ? executions[w] : 0);
    k.cycles.push_back(coral_fusable(k.ops[i]) ? coral_step_cycles(k.ops[i].mnemonic, hardware) : 1.0);
  }
  // Basic blocks, each split at its barriers.
  const std::set<size_t>& leaders = b.leaders();
  size_t begin = 0;
  for (size_t i = 0; i <= k.ops.size(); ++i) {
    const bool cut = i == k.ops.size() || k.ops[i].barrier || (leaders.count(i) && i > begin);
    if (!cut) continue;
    if (i > begin) k.regions.push_back({begin, i});
    begin = i < k.ops.size() && k.ops[i].barrier ? i + 1 : i;
  }
  return k;
}

codesign::KernelDataflow coral_dataflow(const std::string& kernel, const std::string& file,
                                        const nlohmann::json& hardware) {
  const CoralKernelRun run = run_coral_kernel(kernel, file, hardware, nullptr, nlohmann::json::object());
  if (run.status != "pass")
    throw std::invalid_argument(file + ": the kernel does not pass on seed 1 (" + run.status + "): nothing to mine");
  return program_dataflow(run.program, run.executions, hardware);
}

bool coral_fusable(const df::Op& op) {
  if (op.barrier) return false;
  // A load step (unmasked, its address split off: split_load_address); the miner's limits
  // bound how many join (SubgraphLimits::max_memory_reads) and keep memory order.
  if (rv::load_step_form(op.mnemonic)) return op.operands.size() == 3 && op.operands[2].access == df::Access::Read;
  // A vl-keeping vtype change (no barrier, above): a step of a chain across it.
  if (op.mnemonic == "vsetvli") return true;
  const auto templates = rv::step_templates(op.mnemonic);
  bool shape = false;
  rv::OpClass cls = rv::OpClass::Alu;
  for (const rv::StepTemplate* t : templates)
    if (t->slots.size() == op.operands.size()) {
      shape = true;
      cls = t->cls;
    }
  if (!shape) return false;
  using C = rv::OpClass;
  if (cls == C::Div || cls == C::FpDiv || cls == C::FpSqrt || cls == C::VecDiv) return false;
  if (cls != C::Alu && cls != C::Mul && cls != C::FpAdd && cls != C::FpMul && cls != C::FpCvt &&
      cls != C::FpFma && cls != C::FpCmp && cls != C::FpMove && cls != C::VecAlu && cls != C::VecMul &&
      cls != C::VecFixedPoint)
    return false;
  // Widening and narrowing ops (vwmul, vwadd.wv, vnclip) are steps like any other: a
  // composition gives each name a group as wide as the widest value it holds
  // (isa/riscv/compose_vtype.h).
  bool writes = false;
  for (const df::Operand& o : op.operands) {
    if (o.text == "v0.t") return false;  // an accumulator (vmacc's vd) is fusable: the overlay's rd readwrite
    writes = writes || o.writes();
  }
  return writes;
}

namespace {

// The vtype in effect just before ops[at]: the last vset* before it in its block, found
// backwards through ops that are no barrier and no jump target; kNoVtype when unknown.
constexpr uint32_t kNoVtype = 0xffffffffu;

bool jump_target_in(const std::vector<df::Op>& ops, size_t from, size_t to) {
  for (const df::Op& op : ops)
    for (size_t t : op.jumps_to)
      if (t > from && t <= to) return true;
  return false;
}

uint32_t vtype_before(const std::vector<df::Op>& ops, size_t at) {
  for (size_t j = at; j > 0; --j) {
    const df::Op& op = ops[j - 1];
    if (starts(op.mnemonic, "vset")) {
      uint32_t vt = kNoVtype;
      std::vector<std::string> words;
      for (size_t k = 2; k < op.operands.size(); ++k) words.push_back(op.operands[k].text);
      if (op.mnemonic == "vsetvli" && op.operands.size() == 6 && rv::parse_vtype_words(words, vt) &&
          !jump_target_in(ops, j - 1, at))
        return vt;
      return kNoVtype;
    }
    if (op.barrier) return kNoVtype;
  }
  return kNoVtype;
}

}  // namespace

bool coral_vtype_window(const std::vector<df::Op>& ops, const std::vector<size_t>& g) {
  // A vtype change outside the subgraph between its ops: its steps would all run at one.
  for (size_t i = g.front() + 1; i < g.back(); ++i)
    if (!std::binary_search(g.begin(), g.end(), i) && df::writes_storage(ops[i], "vtype")) return false;
  std::vector<size_t> vsets;
  for (size_t n : g)
    if (ops[n].mnemonic == "vsetvli") vsets.push_back(n);
  if (vsets.empty()) return true;
  const uint32_t entry = vtype_before(ops, g.front());
  if (entry == kNoVtype) return false;
  uint32_t last = entry;
  for (size_t n : vsets) {
    std::vector<std::string> words;
    for (size_t k = 2; k < ops[n].operands.size(); ++k) words.push_back(ops[n].operands[k].text);
    if (!rv::parse_vtype_words(words, last) || !rv::same_vl_ratio(entry, last) || !rv::same_policies(entry, last))
      return false;
  }
  if (last != entry) return false;
  // Between the vtype changes an op outside the subgraph runs at another SEW than it will
  // once they are gone: only one that does not depend on SEW may be there.
  for (size_t i = vsets.front() + 1; i < vsets.back(); ++i)
    if (!std::binary_search(g.begin(), g.end(), i) && df::reads_storage(ops[i], "vtype") &&
        !rv::reads_only_vl(ops[i].mnemonic))
      return false;
  return true;
}

bool coral_load_address_is_input(const std::vector<df::Op>& ops, const std::vector<size_t>& g) {
  for (size_t n : g) {
    if (!rv::load_step_form(ops[n].mnemonic)) continue;
    for (size_t m : g)
      if (m < n && df::writes_storage(ops[m], ops[n].operands[2].storage)) return false;
  }
  return true;
}

}  // namespace tlmcraft::agent::search::coral
