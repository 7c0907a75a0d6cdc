# coral-rtl: 38
# measured: coral-rtl vluxei32_narrow_data.elf --ext-latency 23 --ext-wlatency 11 --res (res[0], the mcycle difference this program stores at 0x17F00)
# 4 DTCM gathers of e8 data (1 register) with 32-bit indices (4 registers): 3 slot cycles each more than with 8-bit indices (26)
  .globl main
main:
  li t3, 0x10100
  vsetvli t2, zero, e8, m1, ta, ma
  vmv.v.i v8, 5
  vid.v v4
  vsetvli t2, zero, e32, m4, ta, ma
  vid.v v4
  vsetvli t2, zero, e8, m1, ta, ma
  csrr s0, mcycle
  vluxei32.v v12, (t3), v4
  vluxei32.v v12, (t3), v4
  vluxei32.v v12, (t3), v4
  vluxei32.v v12, (t3), v4
  csrr s1, mcycle
  sub a0, s1, s0
  li t4, 0x17F00
  sw a0, 0(t4)
  ret
