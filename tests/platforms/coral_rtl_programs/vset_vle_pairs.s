# coral-rtl: 28
# vsetvli then vle8, four times: a vector load waits while the vector frontend holds the
# vsetvli (the cycle after it), like a reduction (RTL 28; 26 before that rule).
# measured: coral-rtl vset_vle_pairs.elf --ext-latency 23 --ext-wlatency 11 --res (res[0], the mcycle difference this program stores at 0x17F00)
  .globl main
main:
  li t3, 0x10000
  li t1, 16
  vsetvli t2, t1, e8, m1, ta, ma
  csrr s0, mcycle
  .balign 16
  vsetvli t2, t1, e8, m1, ta, ma
  vle8.v v1, (t3)
  addi a0, a0, 1
  addi a1, a1, 1
  vsetvli t2, t1, e8, m1, ta, ma
  vle8.v v2, (t3)
  addi a0, a0, 1
  addi a1, a1, 1
  vsetvli t2, t1, e8, m1, ta, ma
  vle8.v v3, (t3)
  addi a0, a0, 1
  addi a1, a1, 1
  vsetvli t2, t1, e8, m1, ta, ma
  vle8.v v4, (t3)
  addi a0, a0, 1
  addi a1, a1, 1
  csrr s1, mcycle
  sub a0, s1, s0
  li t4, 0x17F00
  sw a0, 0(t4)
  ret
