# coral-rtl: 30
# measured: coral-rtl vslideup_vd_chain.elf --ext-latency 23 --ext-wlatency 11 --res (res[0], the mcycle difference this program stores at 0x17F00)
# vslideup keeps vd's elements below the offset, so it reads its destination: 16 vslideup.vi alternating v8 and v9 are two chains, 2 slides per 3 cycles on the RTL (the probe vec_arith/vslideup_e8m1_full_indep2_vx_u16, seed 5: -29% without this rule, +0.0% with it).
  .globl main
main:
  vsetvli t2, zero, e8, m1, ta, ma
  vmv.v.i v24, 1
  csrr s0, mcycle
  vslideup.vi v8, v24, 1
  vslideup.vi v9, v24, 2
  vslideup.vi v8, v24, 3
  vslideup.vi v9, v24, 4
  vslideup.vi v8, v24, 5
  vslideup.vi v9, v24, 1
  vslideup.vi v8, v24, 2
  vslideup.vi v9, v24, 3
  vslideup.vi v8, v24, 4
  vslideup.vi v9, v24, 5
  vslideup.vi v8, v24, 1
  vslideup.vi v9, v24, 2
  vslideup.vi v8, v24, 3
  vslideup.vi v9, v24, 4
  vslideup.vi v8, v24, 5
  vslideup.vi v9, v24, 1
  csrr s1, mcycle
  sub a0, s1, s0
  li t4, 0x17F00
  sw a0, 0(t4)
  ret
