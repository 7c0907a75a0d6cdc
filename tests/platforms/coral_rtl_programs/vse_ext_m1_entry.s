# coral-rtl: 92
# measured: coral-rtl vse_ext_m1_entry.elf --ext-latency 23 --ext-wlatency 11 --res (res[0], the mcycle difference this program stores at 0x17F00)
# model: 93 (the 8th instruction after an m1 store dispatches a cycle later than on the RTL, to DTCM and external memory alike; the m2 and m4 stores' entries complete on their first register as the m1 store's)
# a vector store's retirement-buffer entry completes on its first stored register: the two dependent divides dispatch as early after an m4 store as after an m1 store (141 in the model before, which held the entry until the last register)
  .globl main
main:
  li t0, 0x20000000
  li a1, -1
  li a3, 3
  li t1, 16
  vsetvli t2, t1, e8, m1, ta, ma
  csrr s0, mcycle
  vse8.v v8, (t0)
  addi a2, a2, 1
  addi a4, a4, 1
  addi a5, a5, 1
  addi a6, a6, 1
  addi a7, a7, 1
  addi t3, t3, 1
  addi t4, t4, 1
  divu a0, a1, a3
  divu a4, a1, a0
  csrr s1, mcycle
  sub a0, s1, s0
  li t4, 0x17F00
  sw a0, 0(t4)
  ret
