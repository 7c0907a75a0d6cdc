# coral-rtl: 532
# measured: coral-rtl vwmul_after_loads.elf --ext-latency 23 --ext-wlatency 11 --res (res[0], the mcycle difference this program stores at 0x17F00)
# (external m4 load, DTCM m4 load, vwmul of the two into m8, 4 times; without the vwmul RTL and model agree, 526. Was 537: the next load waited for entries the vwmul held until 2 cycles after the DTCM load's last register; exact since the LSU micro-op rules of 2026-11-29, docs/FIDELITY.md sixth pass, mechanisms 15-17)
  .globl main
main:
  li t0, 0x20000000
  li t3, 0x10000
  li t1, 64
  vsetvli t2, t1, e8, m4, ta, ma
  csrr s0, mcycle
  vle8.v v4, (t0)
  vle8.v v8, (t3)
  vwmul.vv v16, v4, v8
  vle8.v v4, (t0)
  vle8.v v8, (t3)
  vwmul.vv v16, v4, v8
  vle8.v v4, (t0)
  vle8.v v8, (t3)
  vwmul.vv v16, v4, v8
  vle8.v v4, (t0)
  vle8.v v8, (t3)
  vwmul.vv v16, v4, v8
  csrr s1, mcycle
  sub a0, s1, s0
  li t4, 0x17F00
  sw a0, 0(t4)
  ret
