# coral-rtl: 102
# measured: coral-rtl vse_m4_dtcm.elf --ext-latency 23 --ext-wlatency 11 --res (res[0], the mcycle difference this program stores at 0x17F00)
  .globl main
main:
  li t0, 0x20000000
  li t3, 0x10000
  li t1, 16
  vsetvli t2, t1, e8, m1, ta, ma
  csrr s0, mcycle
  vsetvli t2, zero, e8, m4, ta, ma
  vse8.v v4, (t3)
  vse8.v v4, (t3)
  vse8.v v4, (t3)
  vse8.v v4, (t3)
  vse8.v v4, (t3)
  vse8.v v4, (t3)
  vse8.v v4, (t3)
  vse8.v v4, (t3)
  csrr s1, mcycle
  sub a0, s1, s0
  li t4, 0x17F00
  sw a0, 0(t4)
  ret
