# coral-rtl: 17
# model: 18 (the closing csrr waits a cycle longer for the last FP result)
# measured: coral-rtl fadd_indep.elf --ext-latency 23 --ext-wlatency 11 --res (res[0], the mcycle difference this program stores at 0x17F00)
# FP instructions dispatch 2 cycles apart, dependent or not (RTL trace: 8 independent fadd.s at cycles 25, 27, ..., 39; fmul.s and chains of fadd.s the same 17 cycles). Model 11 before (fpu.dispatch_interval 1), 18 now; the probe mixed/fpu_vec_k3_v50_e16m2_u8 (seed 2) -47.5% -> +0.1%.
  .globl main
main:
  la a5, fc
  flw ft0, 0(a5)
  flw ft1, 4(a5)
  fmv.s ft4, ft1
  fmv.s ft5, ft1
  fmv.s ft6, ft1
  fmv.s ft7, ft1
  csrr s0, mcycle
  fadd.s ft4, ft0, ft1
  fadd.s ft5, ft0, ft1
  fadd.s ft6, ft0, ft1
  fadd.s ft7, ft0, ft1
  fadd.s ft4, ft0, ft1
  fadd.s ft5, ft0, ft1
  fadd.s ft6, ft0, ft1
  fadd.s ft7, ft0, ft1
  csrr s1, mcycle
  sub a0, s1, s0
  li t4, 0x17F00
  sw a0, 0(t4)
  ret
  .data
  .balign 4
fc: .word 0x3f800000, 0x40000000
