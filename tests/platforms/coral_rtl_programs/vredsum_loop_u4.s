# coral-rtl: 93
# model: 94 (every instruction of the loop dispatches in the RTL's cycle, as coral-rtl --trace shows; the closing csrr waits a cycle longer for the last reductions)
# Four single-micro-op reductions per iteration (RTL 93; 100 before the two rules of issue 25's dispatch work, 98 before the two-line fetch buffer).
# measured: coral-rtl vredsum_loop_u4.elf --ext-latency 23 --ext-wlatency 11 --res (res[0], the mcycle difference this program stores at 0x17F00)
  .globl main
main:
  li t1, 4
  vsetvli t2, t1, e32, m1, ta, ma
  li a7, 16
  csrr s0, mcycle
  .balign 16
1:
  vredsum.vs v1, v8, v9
  vredsum.vs v2, v8, v9
  vredsum.vs v3, v8, v9
  vredsum.vs v4, v8, v9
  addi a7, a7, -1
  bnez a7, 1b
  csrr s1, mcycle
  sub a0, s1, s0
  li t4, 0x17F00
  sw a0, 0(t4)
  ret
