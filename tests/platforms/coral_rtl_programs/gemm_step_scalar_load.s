# coral-rtl: 175
# measured: coral-rtl gemm_step_scalar_load.elf --ext-latency 23 --ext-wlatency 11 --res (res[0], the mcycle difference this program stores at 0x17F00)
# (was 168; the 8 cycles left were the next load reaching the LSU a cycle early; exact since the LSU micro-op rules of 2026-11-29, docs/FIDELITY.md sixth pass, mechanisms 15-17)
  .globl main
main:
  li t6, 0x10000
  li t5, 0x10800
  li t1, 32
  li s0, 3
  li a1, 5
  vsetvli t2, t1, e32, m8, ta, mu
  vmv.v.i v8, 0
  vsetvli zero, t1, e8, m2, ta, ma
  csrr s2, mcycle
  vle8.v v16, (t6)
  lb s0, 0(t5)
  vwmul.vx v20, v16, s0
  vsetvli zero, zero, e16, m4, ta, ma
  addi s0, t6, 64
  vle8.v v16, (s0)
  lb s0, 1(t5)
  vwadd.wv v8, v8, v24
  vsetvli zero, zero, e8, m2, ta, ma
  vwmul.vx v20, v16, s0
  vsetvli zero, zero, e16, m4, ta, ma
  addi s0, t6, 64
  vle8.v v16, (s0)
  lb s0, 1(t5)
  vwadd.wv v8, v8, v24
  vsetvli zero, zero, e8, m2, ta, ma
  vwmul.vx v20, v16, s0
  vsetvli zero, zero, e16, m4, ta, ma
  addi s0, t6, 64
  vle8.v v16, (s0)
  lb s0, 1(t5)
  vwadd.wv v8, v8, v24
  vsetvli zero, zero, e8, m2, ta, ma
  vwmul.vx v20, v16, s0
  vsetvli zero, zero, e16, m4, ta, ma
  addi s0, t6, 64
  vle8.v v16, (s0)
  lb s0, 1(t5)
  vwadd.wv v8, v8, v24
  vsetvli zero, zero, e8, m2, ta, ma
  vwmul.vx v20, v16, s0
  vsetvli zero, zero, e16, m4, ta, ma
  addi s0, t6, 64
  vle8.v v16, (s0)
  lb s0, 1(t5)
  vwadd.wv v8, v8, v24
  vsetvli zero, zero, e8, m2, ta, ma
  vwmul.vx v20, v16, s0
  vsetvli zero, zero, e16, m4, ta, ma
  addi s0, t6, 64
  vle8.v v16, (s0)
  lb s0, 1(t5)
  vwadd.wv v8, v8, v24
  vsetvli zero, zero, e8, m2, ta, ma
  vwmul.vx v20, v16, s0
  vsetvli zero, zero, e16, m4, ta, ma
  addi s0, t6, 64
  vle8.v v16, (s0)
  lb s0, 1(t5)
  vwadd.wv v8, v8, v24
  vsetvli zero, zero, e8, m2, ta, ma
  vwmul.vx v20, v16, s0
  vsetvli zero, zero, e16, m4, ta, ma
  addi s0, t6, 64
  vle8.v v16, (s0)
  lb s0, 1(t5)
  vwadd.wv v8, v8, v24
  vsetvli zero, zero, e8, m2, ta, ma
  csrr s1, mcycle
  sub a0, s1, s2
  li t4, 0x17F00
  sw a0, 0(t4)
  ret
