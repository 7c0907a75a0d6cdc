# coral-rtl: 27
# measured: coral-rtl vsuxei_pairs.elf --ext-latency 23 --ext-wlatency 11 --res (res[0], the mcycle difference this program stores at 0x17F00)
# model: 26 (4 indexed e32 stores to offsets 0, 0, 4, 4 of one DTCM block: two transactions each, like stride 8 (27); before: 22. One cycle short at the end, as vse_dtcm.s)
  .globl main
main:
  li t3, 0x10100
  vsetvli t2, zero, e32, m1, ta, ma
  vmv.v.i v8, 5
  vid.v v4
  vsrl.vi v4, v4, 1
  vsll.vi v4, v4, 2
  csrr s0, mcycle
  vsuxei32.v v8, (t3), v4
  vsuxei32.v v8, (t3), v4
  vsuxei32.v v8, (t3), v4
  vsuxei32.v v8, (t3), v4
  csrr s1, mcycle
  sub a0, s1, s0
  li t4, 0x17F00
  sw a0, 0(t4)
  ret
