# coral-rtl: 46
# measured: coral-rtl vadd_m8_vl40.elf --ext-latency 23 --ext-wlatency 11 --res (res[0], the mcycle difference this program stores at 0x17F00)
  .globl main
main:
  li t0, 0x20000000
  li t3, 0x10000
  li t1, 40
  vsetvli t2, t1, e8, m8, ta, ma
  csrr s0, mcycle
  vadd.vv v8, v16, v24
  vadd.vv v0, v16, v24
  vadd.vv v8, v16, v24
  vadd.vv v0, v16, v24
  vadd.vv v8, v16, v24
  vadd.vv v0, v16, v24
  vadd.vv v8, v16, v24
  vadd.vv v0, v16, v24
  vadd.vv v8, v16, v24
  vadd.vv v0, v16, v24
  vadd.vv v8, v16, v24
  vadd.vv v0, v16, v24
  vadd.vv v8, v16, v24
  vadd.vv v0, v16, v24
  vadd.vv v8, v16, v24
  vadd.vv v0, v16, v24
  vadd.vv v8, v16, v24
  vadd.vv v0, v16, v24
  vadd.vv v8, v16, v24
  vadd.vv v0, v16, v24
  csrr s1, mcycle
  sub a0, s1, s0
  li t4, 0x17F00
  sw a0, 0(t4)
  ret
