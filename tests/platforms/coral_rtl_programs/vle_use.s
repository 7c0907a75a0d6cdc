# coral-rtl: 55
# measured: coral-rtl vle_use.elf --ext-latency 23 --ext-wlatency 11 --res (res[0], the mcycle difference this program stores at 0x17F00)
# (was 56: the dependent vadd read the loaded register a cycle late and the next load started with it; exact since the LSU micro-op rules of 2026-11-29, docs/FIDELITY.md sixth pass, mechanisms 15-17)
  .globl main
main:
  li t0, 0x20000000
  li t3, 0x10000
  li t1, 16
  vsetvli t2, t1, e8, m1, ta, ma
  csrr s0, mcycle
  vle8.v v1, (t3)
  vadd.vv v2, v1, v1
  vle8.v v1, (t3)
  vadd.vv v2, v1, v1
  vle8.v v1, (t3)
  vadd.vv v2, v1, v1
  vle8.v v1, (t3)
  vadd.vv v2, v1, v1
  vle8.v v1, (t3)
  vadd.vv v2, v1, v1
  vle8.v v1, (t3)
  vadd.vv v2, v1, v1
  vle8.v v1, (t3)
  vadd.vv v2, v1, v1
  vle8.v v1, (t3)
  vadd.vv v2, v1, v1
  csrr s1, mcycle
  sub a0, s1, s0
  li t4, 0x17F00
  sw a0, 0(t4)
  ret
