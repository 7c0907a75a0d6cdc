# coral-rtl: 303
# measured: coral-rtl sw_ext.elf --ext-latency 23 --ext-wlatency 11 --res (res[0], the mcycle difference this program stores at 0x17F00)
# model: 301 (the last store's completion, as a serialising csrr sees it, is 2 cycles later on the RTL)
  .globl main
main:
  li t0, 0x20000000
  li t3, 0x10000
  li t1, 16
  vsetvli t2, t1, e8, m1, ta, ma
  csrr s0, mcycle
  sw a1, 0(t0)
  sw a1, 0(t0)
  sw a1, 0(t0)
  sw a1, 0(t0)
  sw a1, 0(t0)
  sw a1, 0(t0)
  sw a1, 0(t0)
  sw a1, 0(t0)
  sw a1, 0(t0)
  sw a1, 0(t0)
  sw a1, 0(t0)
  sw a1, 0(t0)
  sw a1, 0(t0)
  sw a1, 0(t0)
  sw a1, 0(t0)
  sw a1, 0(t0)
  sw a1, 0(t0)
  sw a1, 0(t0)
  sw a1, 0(t0)
  sw a1, 0(t0)
  csrr s1, mcycle
  sub a0, s1, s0
  li t4, 0x17F00
  sw a0, 0(t4)
  ret
