# coral-rtl: 15
# measured: coral-rtl vd_field_lanes.elf --ext-latency 23 --ext-wlatency 11 --res (res[0], the mcycle difference this program stores at 0x17F00)
# Bits 11:7 of a vector instruction count as an x destination among the instructions dispatched in one cycle: the vsrl.vi into v8 dispatch one per cycle, the addi writing a0 (x10) or reading it does not join a vsrl.vi into v10 (RTL trace: one instruction per cycle 8..15). Without the rule the model dispatched four vsrl.vi per cycle (with the two-line fetch buffer alone the probe vec_arith/vsrl_e16m1_full_indep1_u8, seed 2, was -19.2%; +0.2% with it).
  .globl main
main:
  li t1, 4
  vsetvli t2, t1, e32, m1, ta, ma
  csrr s0, mcycle
  vsrl.vi v8, v24, 3
  vsrl.vi v8, v24, 3
  vsrl.vi v8, v24, 3
  vsrl.vi v8, v24, 3
  vsrl.vi v8, v24, 3
  vsrl.vi v8, v24, 3
  vsrl.vi v10, v24, 3
  addi a0, zero, 1
  vsrl.vi v10, v24, 3
  addi a1, a0, 1
  vsrl.vi v10, v24, 3
  addi a1, a0, 1
  csrr s1, mcycle
  sub a0, s1, s0
  li t4, 0x17F00
  sw a0, 0(t4)
  ret
