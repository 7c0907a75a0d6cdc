# coral-rtl: 30
# measured: coral-rtl vredsum_m2_chain.elf --ext-latency 23 --ext-wlatency 11 --res (res[0], the mcycle difference this program stores at 0x17F00)
  .globl main
main:
  la t0, vsrc
  li t3, 0x10000
  vsetvli t2, zero, e8, m2, ta, ma
  vmv.s.x v1, zero
  csrr s0, mcycle
  vredsum.vs v1, v8, v1
  vredsum.vs v1, v8, v1
  vredsum.vs v1, v8, v1
  vredsum.vs v1, v8, v1
  vredsum.vs v1, v8, v1
  vredsum.vs v1, v8, v1
  vredsum.vs v1, v8, v1
  vredsum.vs v1, v8, v1
  csrr s1, mcycle
  sub a0, s1, s0
  li t4, 0x17F00
  sw a0, 0(t4)
  ret
  .data
  .balign 16
vsrc:
  .fill 512, 1, 3
