// Test fixture for the PLENA semantics: a state with owned memories, instructions built
// by hand (opcode + fields; no assembler), and a tiny driver that runs a program of
// instructions until it falls off the end, halts or faults.
#pragma once
#include <cstdint>
#include <initializer_list>
#include <vector>

#include "isa/formats/bf16.h"
#include "isa/plena/semantics.h"

namespace plena_test {

namespace pl = tlmcraft::isa::plena;
namespace fmt = tlmcraft::isa::formats;
using pl::Opcode;

constexpr uint16_t kPoison = 0x7FC1;  // the harness's "never written" bf16 NaN

inline tlmcraft::isa::Instruction inst(Opcode op, int64_t rd = 0, int64_t rs1 = 0, int64_t rs2 = 0,
                                       int64_t rs3 = 0, int64_t funct1 = 0, int64_t imm = 0) {
  tlmcraft::isa::Instruction i;
  i.opcode = static_cast<uint32_t>(op);
  i.field[tlmcraft::isa::kRd] = rd;
  i.field[tlmcraft::isa::kRs1] = rs1;
  i.field[tlmcraft::isa::kRs2] = rs2;
  i.field[tlmcraft::isa::kRs3] = rs3;
  i.field[tlmcraft::isa::kFunct1] = funct1;
  i.field[tlmcraft::isa::kImm] = imm;
  return i;
}

// Small parameters keep hand computations short: MLEN = VLEN = 8, BLEN = 2, HLEN = 4
// (two heads, V_MASK bits 0 and 1).
inline pl::PlenaParams small_params() {
  pl::PlenaParams p;
  p.mlen = 8;
  p.vlen = 8;
  p.blen = 2;
  p.hlen = 4;
  p.v_rows = 2;
  p.loop_depth = 8;
  return p;
}

struct Machine {
  pl::PlenaState s;
  std::vector<uint16_t> msram, vram, fp_mem;
  std::vector<uint32_t> int_mem;

  explicit Machine(const pl::PlenaParams& p = small_params(), uint32_t msram_elems = 128,
                   uint32_t vram_elems = 256, uint32_t fp_elems = 32, uint32_t int_words = 16)
      : s(p), msram(msram_elems, kPoison), vram(vram_elems, kPoison), fp_mem(fp_elems, 0),
        int_mem(int_words, 0) {
    s.msram = {msram.data(), msram_elems};
    s.vram = {vram.data(), vram_elems};
    s.fp_mem = {fp_mem.data(), fp_elems};
    s.int_mem = {int_mem.data(), int_words};
  }

  pl::StepResult exec(const tlmcraft::isa::Instruction& i) { return pl::execute(i, s); }
  pl::StepResult exec(Opcode op, int64_t rd = 0, int64_t rs1 = 0, int64_t rs2 = 0, int64_t rs3 = 0,
                      int64_t funct1 = 0, int64_t imm = 0) {
    return exec(inst(op, rd, rs1, rs2, rs3, funct1, imm));
  }

  void set_vram(uint32_t addr, std::initializer_list<float> values) {
    for (float v : values) vram[addr++] = fmt::float_to_bf16(v);
  }
  float v(uint32_t addr) const { return fmt::bf16_to_float(vram[addr]); }
  std::vector<float> vrow(uint32_t addr, uint32_t n) const {
    std::vector<float> out(n);
    for (uint32_t i = 0; i < n; ++i) out[i] = v(addr + i);
    return out;
  }
  void set_fp(int reg, float value) { s.fp[reg] = fmt::float_to_bf16(value); }
  float fp(int reg) const { return fmt::bf16_to_float(s.fp[reg]); }

  // Runs from pc 0 until the pc leaves the program, C_BREAK, a fault or max_steps.
  struct RunResult {
    uint64_t steps = 0;
    std::string fault;
    bool halted = false;
  };
  RunResult run(const std::vector<tlmcraft::isa::Instruction>& program, uint64_t max_steps = 100000) {
    RunResult rr;
    s.pc = 0;
    pl::StepResult r;
    while (s.pc < program.size() && rr.steps < max_steps) {
      pl::execute(program[s.pc], s, r);
      if (!r.ok()) {
        rr.fault = r.fault;
        break;
      }
      ++rr.steps;
      if (r.halt) {
        rr.halted = true;
        break;
      }
    }
    return rr;
  }
};

}  // namespace plena_test
