// Control instructions: special registers, hardware loops, C_BREAK.
//
// Loops: C_LOOP_START rd, n sets gp[rd] = n (n >= 1) and pushes the body start (pc + 1);
// C_LOOP_END rd decrements gp[rd] and jumps back to the body start while the counter is
// still > 0, otherwise pops the loop and falls through. So the body runs n times. The
// counter register is architectural (the body may read it). Loops nest up to
// params.loop_depth. Faults: counter in gp0, count 0, stack overflow, C_LOOP_END with no
// open loop or with a register other than the innermost loop's, and a C_LOOP_START
// reusing the counter of an enclosing open loop (it would clobber the outer count).
// C_BREAK leaves the innermost open loop as the reference simulator does: it pops the loop,
// clears its counter and continues with the next instruction; with no open loop it faults
// (the reference stops with an error there too).
#include "isa/plena/semantics_internal.h"

namespace tlmcraft::isa::plena::detail {

// C_SET_ADDR_REG aD, rs1, rs2: aD = {gp[rs1] (high 32 bits), gp[rs2] (low 32 bits)}, as the
// spec's example (a1 = {gp1, gp0}), the template compiler and the reference simulator.
void exec_c_set_addr_reg(Exec& x) {
  uint32_t rd, rs1, rs2;
  if (!x.a_reg(isa::kRd, rd) || !x.gp_reg(isa::kRs1, rs1) || !x.gp_reg(isa::kRs2, rs2)) return;
  x.s.a[rd] = (uint64_t(x.gp(rs1)) << 32) | x.gp(rs2);
}

void exec_c_set_scale_reg(Exec& x) {
  uint32_t rd;
  if (x.gp_reg(isa::kRd, rd)) x.s.scale = x.gp(rd);
}

void exec_c_set_stride_reg(Exec& x) {
  uint32_t rd;
  if (x.gp_reg(isa::kRd, rd)) x.s.stride = x.gp(rd);
}

void exec_c_set_v_mask_reg(Exec& x) {
  uint32_t rd;
  if (x.gp_reg(isa::kRd, rd)) x.s.v_mask = x.gp(rd);
}

void exec_c_loop_start(Exec& x) {
  uint32_t rd;
  uint64_t count;
  if (!x.gp_reg(isa::kRd, rd) || !x.imm(count)) return;
  if (rd == 0) return void(x.fail("the loop counter register must not be gp0 (it is always 0)"));
  if (count == 0) return void(x.fail("loop count must be at least 1"));
  if (count > 0xFFFFFFFFull) return void(x.fail("loop count %llu exceeds 32 bits", (unsigned long long)count));
  if (x.s.loop_count >= x.p.loop_depth)
    return void(x.fail("loop stack overflow: more than %u nested loops", x.p.loop_depth));
  for (uint32_t i = 0; i < x.s.loop_count; ++i) {
    if (x.s.loops[i].counter_reg == rd)
      return void(x.fail("gp%u is already the counter of an enclosing loop (started at pc %u)", rd,
                         x.s.loops[i].body_pc - 1));
  }
  x.s.loops[x.s.loop_count++] = LoopFrame{x.s.pc + 1, uint8_t(rd)};
  x.set_gp(rd, uint32_t(count));
}

void exec_c_loop_end(Exec& x) {
  uint32_t rd;
  if (!x.gp_reg(isa::kRd, rd)) return;
  if (x.s.loop_count == 0) return void(x.fail("C_LOOP_END gp%u without an open C_LOOP_START", rd));
  const LoopFrame& top = x.s.loops[x.s.loop_count - 1];
  if (top.counter_reg != rd)
    return void(x.fail("C_LOOP_END gp%u does not match the innermost open loop, whose counter is gp%u "
                       "(started at pc %u)",
                       rd, top.counter_reg, top.body_pc - 1));
  const uint32_t counter = x.gp(rd);
  // A counter the body set to 0 ends the loop too (rather than wrapping to 2^32 - 1).
  if (counter > 1) {
    x.set_gp(rd, counter - 1);
    x.r.next_pc = top.body_pc;
  } else {
    x.set_gp(rd, 0);
    --x.s.loop_count;
  }
}

void exec_c_break(Exec& x) {
  if (x.s.loop_count == 0) return void(x.fail("C_BREAK with no open loop (it leaves the innermost loop)"));
  const LoopFrame& top = x.s.loops[--x.s.loop_count];
  x.set_gp(top.counter_reg, 0);
}

}  // namespace tlmcraft::isa::plena::detail
