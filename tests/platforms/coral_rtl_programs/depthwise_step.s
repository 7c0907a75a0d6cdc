# coral-rtl: 168
# (was 177, the step 21 cycles against 20: the next step's loads waited for entries the vwadd.wv held behind the loads' last registers; exact since the LSU micro-op rules of 2026-11-29, docs/FIDELITY.md sixth pass, mechanisms 15-17)
# measured: coral-rtl depthwise_step.elf --ext-latency 23 --ext-wlatency 11 --res (res[0], the mcycle difference this program stores at 0x17F00)
# depthwise_conv C3 v21's inner step (two DTCM vle8.v m2 dispatched in one cycle, vwadd.wv into an e32 m8 accumulator, vwmul.vv into m4, two vsetvli) 8 times without address arithmetic
  .globl main
main:
  li a4, 0x10000
  addi a5, a4, 1024
  li t1, 32
  vsetvli t2, t1, e32, m8, ta, ma
  vmv.v.i v8, 0
  vsetvli zero, t1, e16, m4, ta, ma
  vmv.v.i v20, 0
  nop
  csrr s0, mcycle
  .rept 8
  vle8.v v16, (a4)
  vle8.v v18, (a5)
  vwadd.wv v8, v8, v20
  vsetvli zero, zero, e8, m2, ta, ma
  vwmul.vv v20, v16, v18
  vsetvli zero, zero, e16, m4, ta, ma
  .endr
  csrr s1, mcycle
  sub a0, s1, s0
  li t4, 0x17F00
  sw a0, 0(t4)
  ret
