# coral-rtl: 558
# measured: coral-rtl vwmul_vwredsum_after_loads.elf --ext-latency 23 --ext-wlatency 11 --res (res[0], the mcycle difference this program stores at 0x17F00)
# (a GEMV row as the agent's versions compute it, 4 times: external m4 load, DTCM m4 load, vwmul into m8, widening reduction of the product; 602, then 563 before the LSU micro-op rules of 2026-11-29, docs/FIDELITY.md sixth pass, mechanisms 15-17)
  .globl main
main:
  li t0, 0x20000000
  li t3, 0x10000
  li t1, 64
  vsetvli t2, t1, e8, m4, ta, ma
  vmv.s.x v9, zero
  csrr s0, mcycle
  vsetvli zero, t1, e8, m4, ta, mu
  vle8.v v12, (t0)
  vle8.v v16, (t3)
  vwmul.vv v24, v12, v16
  vsetvli zero, t1, e16, m8, ta, ma
  vwredsum.vs v9, v24, v9
  vsetvli zero, t1, e8, m4, ta, mu
  vle8.v v12, (t0)
  vle8.v v16, (t3)
  vwmul.vv v24, v12, v16
  vsetvli zero, t1, e16, m8, ta, ma
  vwredsum.vs v9, v24, v9
  vsetvli zero, t1, e8, m4, ta, mu
  vle8.v v12, (t0)
  vle8.v v16, (t3)
  vwmul.vv v24, v12, v16
  vsetvli zero, t1, e16, m8, ta, ma
  vwredsum.vs v9, v24, v9
  vsetvli zero, t1, e8, m4, ta, mu
  vle8.v v12, (t0)
  vle8.v v16, (t3)
  vwmul.vv v24, v12, v16
  vsetvli zero, t1, e16, m8, ta, ma
  vwredsum.vs v9, v24, v9
  csrr s1, mcycle
  sub a0, s1, s0
  li t4, 0x17F00
  sw a0, 0(t4)
  ret
