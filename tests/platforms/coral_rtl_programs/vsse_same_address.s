# coral-rtl: 35
# measured: coral-rtl vsse_same_address.elf --ext-latency 23 --ext-wlatency 11 --res (res[0], the mcycle difference this program stores at 0x17F00)
# model: 34 (4 stride-0 e32 stores to one DTCM word: every element rewrites the same bytes, so each is a transaction of its own, as many as stride 16 (35); before stores counted distinct blocks: 22. One cycle short at the end, as vse_dtcm.s)
  .globl main
main:
  li t3, 0x10100
  li a1, 0
  vsetvli t2, zero, e32, m1, ta, ma
  vmv.v.i v8, 5
  csrr s0, mcycle
  vsse32.v v8, (t3), a1
  vsse32.v v8, (t3), a1
  vsse32.v v8, (t3), a1
  vsse32.v v8, (t3), a1
  csrr s1, mcycle
  sub a0, s1, s0
  li t4, 0x17F00
  sw a0, 0(t4)
  ret
