# coral-rtl: 12
# measured: coral-rtl addi_indep.elf --ext-latency 23 --ext-wlatency 11 --res (res[0], the mcycle difference this program stores at 0x17F00)
  .globl main
main:
  li t0, 0x20000000
  li t3, 0x10000
  li t1, 16
  vsetvli t2, t1, e8, m1, ta, ma
  csrr s0, mcycle
  addi a1, t1, 1
  addi a2, t1, 1
  addi a3, t1, 1
  addi a4, t1, 1
  addi a1, t1, 1
  addi a2, t1, 1
  addi a3, t1, 1
  addi a4, t1, 1
  addi a1, t1, 1
  addi a2, t1, 1
  addi a3, t1, 1
  addi a4, t1, 1
  addi a1, t1, 1
  addi a2, t1, 1
  addi a3, t1, 1
  addi a4, t1, 1
  addi a1, t1, 1
  addi a2, t1, 1
  addi a3, t1, 1
  addi a4, t1, 1
  csrr s1, mcycle
  sub a0, s1, s0
  li t4, 0x17F00
  sw a0, 0(t4)
  ret
