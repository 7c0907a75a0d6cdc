# coral-rtl: 11
# measured: coral-rtl vle_then_read_vd_field.elf --ext-latency 23 --ext-wlatency 11 --res (res[0], the mcycle difference this program stores at 0x17F00)
# vle8.v v5 then addi a2, t0, 1 (t0 is x5): the addi waits for the next cycle, the vd field being pending as an x register for a cycle
  .globl main
main:
  li t3, 0x10000
  li t1, 16
  vsetvli t2, t1, e8, m1, ta, ma
  csrr s0, mcycle
  vle8.v v5, (t3)
  addi a2, t0, 1
  addi a3, t1, 1
  addi a4, t1, 1
  csrr s1, mcycle
  sub a0, s1, s0
  li t4, 0x17F00
  sw a0, 0(t4)
  ret
